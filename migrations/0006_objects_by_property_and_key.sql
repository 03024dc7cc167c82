-- Issue 12: a search filtered on a name or domain (eq, in) pages in key order straight from the
-- property's index: the key joins the index, so equal values are kept in key order and no sort (or
-- walk of the primary key) is needed. src/db/objects.ts reads these with INDEXED BY.
DROP INDEX IF EXISTS objects_by_name;
DROP INDEX IF EXISTS objects_by_domain;
CREATE INDEX IF NOT EXISTS objects_by_name ON objects (organization_id, type, json_extract(properties, '$.name'), key);
CREATE INDEX IF NOT EXISTS objects_by_domain ON objects (organization_id, type, json_extract(properties, '$.domain'), key);
