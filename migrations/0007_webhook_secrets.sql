-- Issue 13 part 6: watch webhooks are signed with one secret per organization (Standard Webhooks:
-- HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>"). Written by POST
-- /api/v1/oms/webhooks/secret (create or rotate) and by the first watch created with a webhook;
-- read only to sign deliveries, never answered by an endpoint after the response that made it.
CREATE TABLE IF NOT EXISTS webhook_secrets (
  organization_id  TEXT PRIMARY KEY REFERENCES organizations(id),
  secret           TEXT NOT NULL,            -- whsec_ + base64 of 32 random bytes (HMAC needs it as is, so it is not hashed)
  created_at       TEXT NOT NULL
);
