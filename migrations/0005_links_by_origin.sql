-- Issue 12: provenance reads an object's own links (from_type, from_key) without scanning every
-- link of its organization (the primary key starts with `link`, so it cannot serve that read).
CREATE INDEX IF NOT EXISTS links_by_origin ON links (organization_id, from_type, from_key);
