-- Issue 14: dashboard accounts. People sign in to /dashboard with an email and a password; each
-- belongs to one or more organizations; sessions and invitations are kept by the SHA-256 of their
-- random token only.

-- A person who signs in to the dashboard. Written by sign-up and by accepting an invitation.
CREATE TABLE IF NOT EXISTS users (
  id             TEXT PRIMARY KEY,           -- usr_ + random
  email          TEXT NOT NULL UNIQUE,       -- trimmed, lower-cased
  name           TEXT NOT NULL,
  password_hash  TEXT NOT NULL,              -- pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>
  created_at     TEXT NOT NULL
);

-- Who belongs to which organization. Written by sign-up (the first user) and invitations.
CREATE TABLE IF NOT EXISTS memberships (
  organization_id  TEXT NOT NULL REFERENCES organizations(id),
  user_id          TEXT NOT NULL REFERENCES users(id),
  created_at       TEXT NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX IF NOT EXISTS memberships_by_user ON memberships (user_id, created_at);

-- A signed-in browser. The cookie holds the token; only its SHA-256 is stored. Written by sign-in
-- and sign-up (a new row each time), deleted by sign-out; a row past expires_at is refused.
CREATE TABLE IF NOT EXISTS sessions (
  token_hash       TEXT PRIMARY KEY,         -- hex SHA-256 of the cookie's token
  user_id          TEXT NOT NULL REFERENCES users(id),
  organization_id  TEXT NOT NULL REFERENCES organizations(id),
  created_at       TEXT NOT NULL,
  expires_at       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user_id, expires_at);

-- A one-time link that lets a teammate join an organization. Only the SHA-256 of the link's token
-- is stored; used_at is set once, by the acceptance that consumed it.
CREATE TABLE IF NOT EXISTS invites (
  id               TEXT PRIMARY KEY,         -- inv_ + random
  organization_id  TEXT NOT NULL REFERENCES organizations(id),
  token_hash       TEXT NOT NULL UNIQUE,     -- hex SHA-256 of the link's token
  created_by       TEXT NOT NULL REFERENCES users(id),
  created_at       TEXT NOT NULL,
  expires_at       TEXT NOT NULL,
  used_at          TEXT,
  used_by          TEXT                      -- users.id of who joined with it
);
CREATE INDEX IF NOT EXISTS invites_by_organization ON invites (organization_id, created_at);
