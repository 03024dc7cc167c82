-- Issue 12: searches read name, domain and publishedAt from an index of their own, in
-- (value, key) order, so a filtered or ordered page is read from its position with no sort and no
-- walk of the type's objects. A missing property is '' in the index, so keyset comparisons never
-- meet NULL. src/db/objects.ts (INDEXED_PROPERTIES) writes exactly these expressions.
DROP INDEX IF EXISTS objects_by_name;
DROP INDEX IF EXISTS objects_by_domain;
CREATE INDEX IF NOT EXISTS objects_by_name ON objects (organization_id, type, ifnull(json_extract(properties, '$.name'), ''), key);
CREATE INDEX IF NOT EXISTS objects_by_domain ON objects (organization_id, type, ifnull(json_extract(properties, '$.domain'), ''), key);
CREATE INDEX IF NOT EXISTS objects_by_published ON objects (organization_id, type, ifnull(json_extract(properties, '$.publishedAt'), ''), key);
-- The timestamp orders too: objects written in one batch share their timestamps, and a page in
-- (timestamp, key) order must not sort them.
DROP INDEX IF EXISTS objects_by_update;
DROP INDEX IF EXISTS objects_by_created;
CREATE INDEX IF NOT EXISTS objects_by_update ON objects (organization_id, type, updated_at, key);
CREATE INDEX IF NOT EXISTS objects_by_created ON objects (organization_id, type, created_at, key);
