-- Recon's D1 schema: the one source of truth. Applying it again changes nothing (every statement
-- is IF NOT EXISTS), so `npm run dev`, the tests and deploys all run this same file.
-- What each table holds and who writes it is described in docs/storage.md.

-- An organization: everything in Recon belongs to one. Written by the keys CLI and the seed.
CREATE TABLE IF NOT EXISTS organizations (
  id          TEXT PRIMARY KEY,              -- opaque, e.g. org_3fa2...
  slug        TEXT NOT NULL UNIQUE,          -- operator-facing name, e.g. acme
  name        TEXT NOT NULL,
  created_at  TEXT NOT NULL                  -- ISO 8601
);

-- An API key. Only the SHA-256 of the full key is stored, plus a display prefix.
-- Written by the keys CLI (create, revoke) and by the Worker (last_used_at, at most once a minute).
CREATE TABLE IF NOT EXISTS api_keys (
  id               TEXT PRIMARY KEY,         -- key_..., what the CLI revokes by
  organization_id  TEXT NOT NULL REFERENCES organizations(id),
  name             TEXT NOT NULL,
  prefix           TEXT NOT NULL,            -- first characters of the key, for display only
  hash             TEXT NOT NULL UNIQUE,     -- hex SHA-256 of the full key
  scopes           TEXT NOT NULL,            -- space-separated: commands oms:read oms:write oms:approve
  created_at       TEXT NOT NULL,
  last_used_at     TEXT,
  revoked_at       TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_by_organization ON api_keys (organization_id, created_at);

-- An organization's sales profile (onboarding). One row per organization, written by
-- PUT /api/v1/profile and the seed. `profile` is the validated JSON document; `complete` is derived
-- from it on every write so commands can check onboarding without parsing.
CREATE TABLE IF NOT EXISTS sales_profiles (
  organization_id  TEXT PRIMARY KEY REFERENCES organizations(id),
  profile          TEXT NOT NULL,            -- JSON: companyName, domain, offering, icp, competitors, valueProps
  complete         INTEGER NOT NULL DEFAULT 0,
  updated_at       TEXT NOT NULL
);
