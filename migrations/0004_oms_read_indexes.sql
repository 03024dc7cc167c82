-- Issue 12: indexes for OMS reads (search filters and orders, backward pivots).
-- Search filters and orders on properties through json_extract (src/db/objects.ts); the common ones
-- are indexed by expression (the query text must be exactly `json_extract(properties, '$.<name>')`).
-- Pivots back along a link (competitorOf, employer, briefs, citedBy) page in key order on the target index.
CREATE INDEX IF NOT EXISTS objects_by_name ON objects (organization_id, type, json_extract(properties, '$.name'));
CREATE INDEX IF NOT EXISTS objects_by_domain ON objects (organization_id, type, json_extract(properties, '$.domain'));
CREATE INDEX IF NOT EXISTS objects_by_created ON objects (organization_id, type, created_at);
CREATE INDEX IF NOT EXISTS links_by_target_and_origin ON links (organization_id, to_type, to_key, link, from_type, from_key);
