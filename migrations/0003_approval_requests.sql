-- Issue 12: approval requests for OMS actions (POST /api/v1/oms/actions), and their indexes.
-- Approval requests (POST /api/v1/oms/actions): a change to the OMS that waits for another key
-- with `oms:approve`. pending -> approved -> applied | failed; pending -> rejected; pending ->
-- expired (at expires_at, 7 days after creation; set lazily when read or decided).
CREATE TABLE IF NOT EXISTS approval_requests (
  id               TEXT PRIMARY KEY,         -- apr_ + random
  organization_id  TEXT NOT NULL REFERENCES organizations(id),
  action           TEXT NOT NULL,            -- upsert_object | update_properties | link | unlink | delete_object
  params           TEXT NOT NULL,            -- JSON: the validated, normalized params
  reason           TEXT,
  status           TEXT NOT NULL,            -- pending | approved | applied | failed | rejected | expired
  requested_by     TEXT NOT NULL,            -- api_keys.id
  base_version     INTEGER,                  -- the object's version when requested (NULL: absent, or a link action)
  created_at       TEXT NOT NULL,
  expires_at       TEXT NOT NULL,
  decided_at       TEXT,
  decided_by       TEXT,                     -- api_keys.id
  failure          TEXT                      -- why an approved change could not be applied
);
CREATE INDEX IF NOT EXISTS approval_requests_by_organization ON approval_requests (organization_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS approval_requests_by_status ON approval_requests (organization_id, status, created_at);
