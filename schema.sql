-- Recon's D1 schema, the readable whole: every table as it is now. Databases are built and changed
-- by the numbered files in migrations/ (`wrangler d1 migrations apply`, run by `npm run dev`, the
-- tests and deploys), never from this file; test/migrations/ checks that the migrations, applied in
-- order, yield exactly this schema. A schema change is a new migration plus the same change here.
-- What each table holds and who writes it is described in docs/storage.md.

-- An organization: everything in Recon belongs to one. Written by the keys CLI and the seed.
CREATE TABLE IF NOT EXISTS organizations (
  id          TEXT PRIMARY KEY,              -- opaque, e.g. org_3fa2...
  slug        TEXT NOT NULL UNIQUE,          -- operator-facing name, e.g. acme
  name        TEXT NOT NULL,
  created_at  TEXT NOT NULL,                 -- ISO 8601
  site_read_pages INTEGER CHECK (site_read_pages BETWEEN 1 AND 500) -- pages per site read; NULL: 50
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

-- OMS objects: companies, people, sources, briefs. One row per (organization, type, key); `key` is
-- the public key (a company's normalized domain, a person's lower-cased email, a source's canonical
-- URL, a brief's execution id). Written by the import endpoint, research (briefs) and, later,
-- watches and approved actions. `version` counts changes.
CREATE TABLE IF NOT EXISTS objects (
  organization_id  TEXT NOT NULL REFERENCES organizations(id),
  type             TEXT NOT NULL,
  key              TEXT NOT NULL,
  properties       TEXT NOT NULL,            -- JSON object
  version          INTEGER NOT NULL DEFAULT 1,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  PRIMARY KEY (organization_id, type, key)
);
CREATE INDEX IF NOT EXISTS objects_by_update ON objects (organization_id, type, updated_at, key);

-- Typed links between objects (company.competitors, company.people, brief.about, brief.cites), with
-- where each came from. Inverse pivots read the same rows through links_by_target.
CREATE TABLE IF NOT EXISTS links (
  organization_id  TEXT NOT NULL REFERENCES organizations(id),
  link             TEXT NOT NULL,
  from_type        TEXT NOT NULL,
  from_key         TEXT NOT NULL,
  to_type          TEXT NOT NULL,
  to_key           TEXT NOT NULL,
  source_kind      TEXT NOT NULL,            -- import | research | watch | action | site-read
  source_id        TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  PRIMARY KEY (organization_id, link, from_type, from_key, to_type, to_key)
);
CREATE INDEX IF NOT EXISTS links_by_target ON links (organization_id, to_type, to_key, link);

-- Where each current property value came from (one row per property), and every change.
CREATE TABLE IF NOT EXISTS property_sources (
  organization_id  TEXT NOT NULL,
  type             TEXT NOT NULL,
  key              TEXT NOT NULL,
  name             TEXT NOT NULL,
  source_kind      TEXT NOT NULL,
  source_id        TEXT NOT NULL,
  source_url       TEXT,
  updated_at       TEXT NOT NULL,
  PRIMARY KEY (organization_id, type, key, name)
);
CREATE TABLE IF NOT EXISTS object_history (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  organization_id  TEXT NOT NULL,
  type             TEXT NOT NULL,
  key              TEXT NOT NULL,
  at               TEXT NOT NULL,
  property         TEXT NOT NULL,
  from_value       TEXT,                     -- JSON, NULL when the property was new
  to_value         TEXT,                     -- JSON
  source_kind      TEXT NOT NULL,
  source_id        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS object_history_by_object ON object_history (organization_id, type, key, id);

-- The research index: each source's content split into passages of a few sentences, indexed with
-- FTS5 (BM25). Rewritten whenever a source's title, date or content changes; triggers keep the index in step.
CREATE TABLE IF NOT EXISTS passages (
  id               INTEGER PRIMARY KEY,
  organization_id  TEXT NOT NULL,
  source_key       TEXT NOT NULL,
  domain           TEXT NOT NULL,
  title            TEXT NOT NULL,            -- the source's title, repeated so it ranks
  published_at     TEXT,                     -- the source's date, so a search needs no second read
  ordinal          INTEGER NOT NULL,
  text             TEXT NOT NULL,
  facts            TEXT,                     -- its sentences' topic-independent facts, JSON (src/research/sentence-facts.ts; migration 0011)
  facts_version    INTEGER                   -- FACTS_VERSION that computed them; NULL (rows indexed before 0011) or older: research computes them from text
);
CREATE INDEX IF NOT EXISTS passages_by_source ON passages (organization_id, source_key);
-- The index holds the organization (as one token: its id without punctuation) and the source's
-- domain as columns, so the organization and any source policy are matched by the index itself and
-- a search can take its top passages from the index alone (see src/research/search.ts).
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
  organization_id, domain, title, text, content='passages', content_rowid='id', tokenize='porter unicode61'
);
CREATE TRIGGER IF NOT EXISTS passages_fts_insert AFTER INSERT ON passages BEGIN
  INSERT INTO passages_fts (rowid, organization_id, domain, title, text)
    VALUES (new.id, replace(new.organization_id, '_', ''), new.domain, new.title, new.text);
END;
CREATE TRIGGER IF NOT EXISTS passages_fts_delete AFTER DELETE ON passages BEGIN
  INSERT INTO passages_fts (passages_fts, rowid, organization_id, domain, title, text)
    VALUES ('delete', old.id, replace(old.organization_id, '_', ''), old.domain, old.title, old.text);
END;
-- Each organization's block of passage ids: its passages have ids in [block << 40, (block + 1) << 40),
-- so a search is scoped by a rowid range of passages_fts, which FTS5 reads by seeking (migration
-- 0012; the organization's token in the index costs a ranked search a read of its every passage).
-- A block is given when the organization's first passage is written (src/oms/store.ts); the
-- triggers refuse a passage outside its organization's block, whoever writes it.
CREATE TABLE IF NOT EXISTS passage_blocks (
  organization_id  TEXT PRIMARY KEY,
  block            INTEGER NOT NULL UNIQUE
);
CREATE TRIGGER IF NOT EXISTS passages_insert_in_block BEFORE INSERT ON passages
  WHEN NOT EXISTS (SELECT 1 FROM passage_blocks WHERE organization_id = new.organization_id AND block = new.id >> 40)
BEGIN
  SELECT RAISE(ABORT, 'passage id outside its organization''s block');
END;
CREATE TRIGGER IF NOT EXISTS passages_update_in_block BEFORE UPDATE OF id, organization_id ON passages
  WHEN NOT EXISTS (SELECT 1 FROM passage_blocks WHERE organization_id = new.organization_id AND block = new.id >> 40)
BEGIN
  SELECT RAISE(ABORT, 'passage id outside its organization''s block');
END;

-- A summary of each asynchronous run, mirrored by its RunObject Durable Object on every change (the
-- run's full state lives in the object's own storage). Read by GET /api/v1/runs and the audit.
CREATE TABLE IF NOT EXISTS runs (
  id               TEXT PRIMARY KEY,         -- the Durable Object id (64 hex characters)
  organization_id  TEXT NOT NULL,
  kind             TEXT NOT NULL,            -- gtm-audit | audit
  target           TEXT NOT NULL,
  status           TEXT NOT NULL,            -- running | completed | failed | cancelled
  steps_done       INTEGER NOT NULL,
  steps_total      INTEGER NOT NULL,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  finished_at      TEXT,
  args             TEXT NOT NULL DEFAULT '{}' -- JSON: the command's validated arguments, as listed
);
CREATE INDEX IF NOT EXISTS runs_by_organization ON runs (organization_id, created_at DESC, id DESC);
-- Counting an organization's running runs (the cap on concurrent runs, checked at every start)
-- reads only those rows.
CREATE INDEX IF NOT EXISTS runs_running_by_organization ON runs (organization_id, status, updated_at);

-- The MCP log level each API key chose with logging/setLevel. The MCP server is stateless (no
-- session outlives a request), so the level a client sets is kept per key and applies to that
-- key's later requests until set again. Written by logging/setLevel, read by run polls over MCP.
CREATE TABLE IF NOT EXISTS mcp_log_levels (
  key_id      TEXT PRIMARY KEY,              -- api_keys.id
  level       TEXT NOT NULL,                 -- debug | info | notice | warning | error | critical | alert | emergency
  updated_at  TEXT NOT NULL
);

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

-- Searches filter and order on these properties from their own index, in (value, key) order; a
-- missing property is '' (migration 0006; src/db/objects.ts INDEXED_PROPERTIES).
CREATE INDEX IF NOT EXISTS objects_by_name ON objects (organization_id, type, ifnull(json_extract(properties, '$.name'), ''), key);
CREATE INDEX IF NOT EXISTS objects_by_domain ON objects (organization_id, type, ifnull(json_extract(properties, '$.domain'), ''), key);
CREATE INDEX IF NOT EXISTS objects_by_published ON objects (organization_id, type, ifnull(json_extract(properties, '$.publishedAt'), ''), key);
CREATE INDEX IF NOT EXISTS objects_by_created ON objects (organization_id, type, created_at, key);
-- Pivots back along a link (competitorOf, employer, briefs, citedBy) page in key order on the target index.
CREATE INDEX IF NOT EXISTS links_by_target_and_origin ON links (organization_id, to_type, to_key, link, from_type, from_key);
-- Provenance reads an object's own links without scanning every link of its organization.
CREATE INDEX IF NOT EXISTS links_by_origin ON links (organization_id, from_type, from_key);

-- Watch webhooks are signed with one secret per organization (Standard Webhooks: HMAC-SHA256 over
-- "<webhook-id>.<webhook-timestamp>.<body>"). Written by POST /api/v1/oms/webhooks/secret (create
-- or rotate) and by the first watch created with a webhook; read only to sign deliveries.
CREATE TABLE IF NOT EXISTS webhook_secrets (
  organization_id  TEXT PRIMARY KEY REFERENCES organizations(id),
  secret           TEXT NOT NULL,            -- whsec_ + base64 of 32 random bytes (HMAC needs it as is, so it is not hashed)
  created_at       TEXT NOT NULL
);

-- Research watches: each watch is one WatchObject (a Durable Object holding its
-- definition, ledger, schedule and executions); this row mirrors what listing and the org audit
-- need. Written only by the watch object (src/durable-objects/watch-object.ts), each write carrying
-- the object's ledger version, so a late write never overwrites a newer one.
CREATE TABLE IF NOT EXISTS watches (
  id               TEXT PRIMARY KEY,         -- wch_ + random
  organization_id  TEXT NOT NULL REFERENCES organizations(id),
  target_type      TEXT NOT NULL,            -- company
  target_key       TEXT NOT NULL,            -- the target's normalized key
  query            TEXT,                     -- NULL: the target's name at each execution
  frequency        TEXT NOT NULL,            -- 1h .. 30d, as given (6h, 1d, 2w)
  tier             TEXT NOT NULL,            -- lite | base
  cost_cap_micros  INTEGER NOT NULL,
  spent_micros     INTEGER NOT NULL,         -- never above cost_cap_micros
  source_policy    TEXT NOT NULL,            -- JSON { include, exclude }
  status           TEXT NOT NULL,            -- active | failing | capped | cancelled
  executions       INTEGER NOT NULL,         -- charged (succeeded) executions
  last_run_at      TEXT,
  next_run_at      TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  cancelled_at     TEXT,
  version          INTEGER NOT NULL,         -- the watch object's ledger version of this row
  webhook_url      TEXT,                     -- where executions are POSTed (migration 0010); NULL: no webhook
  executions_with_changes INTEGER NOT NULL DEFAULT 0, -- charged executions whose findings added or removed a cited claim (migration 0014)
  include_paths    TEXT NOT NULL DEFAULT '[]', -- JSON list of path patterns the site read before each execution is limited to (migration 0017)
  exclude_paths    TEXT NOT NULL DEFAULT '[]', -- JSON list of path patterns it leaves out (migration 0017)
  ignore_patterns  TEXT NOT NULL DEFAULT '[]', -- JSON list of the watch's own ignore patterns (migration 0018)
  webhook_kinds    TEXT NOT NULL DEFAULT '[]'  -- JSON list of change kinds its webhook is sent for; '[]': every execution (migration 0018)
);
CREATE INDEX IF NOT EXISTS watches_by_organization ON watches (organization_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS watches_by_status ON watches (organization_id, status, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS watches_by_target ON watches (organization_id, target_type, target_key, created_at DESC, id DESC);

-- Dashboard accounts (migration 0009): users, their memberships, sessions and invitations; tokens
-- are kept by their SHA-256 only.

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

-- Site reads (src/runs/site-read/): what the last read of each page of a site found, per
-- organization (validators for conditional re-reads, the hash of the stored text, gone pages marked,
-- the read that last handled it, so a resumed read never fetches or counts a page twice).
CREATE TABLE IF NOT EXISTS site_pages (
  organization_id  TEXT NOT NULL,
  url              TEXT NOT NULL,            -- the page: the key of its source
  domain           TEXT NOT NULL,            -- the site read, normalized like a company key
  state            TEXT NOT NULL,            -- live | gone | noindex | handled (fetched, no source kept)
  etag             TEXT,
  last_modified    TEXT,
  content_hash     TEXT,                     -- hex SHA-256 of the stored text (title and content)
  first_read_at    TEXT NOT NULL,
  last_read_at     TEXT NOT NULL,
  changed_at       TEXT NOT NULL,            -- when the stored text (or the state) last changed
  run_id           TEXT NOT NULL,            -- the site-read run that last handled the page
  outcome          TEXT NOT NULL,            -- what it found: new | changed | unchanged | gone | noindex | skipped | failed
  PRIMARY KEY (organization_id, url)
);
CREATE INDEX IF NOT EXISTS site_pages_by_domain ON site_pages (organization_id, domain, url);

-- Pages each organization's site reads fetched per UTC day (a 304 is not counted): bounded by
-- SITE_READ_PAGES_PER_DAY.
CREATE TABLE IF NOT EXISTS site_read_usage (
  organization_id  TEXT NOT NULL,
  day              TEXT NOT NULL,            -- YYYY-MM-DD, UTC
  pages            INTEGER NOT NULL,
  rendered         INTEGER NOT NULL DEFAULT 0,  -- of them, pages rendered in a browser: SITE_READ_RENDERS_PER_DAY
  PRIMARY KEY (organization_id, day)
);

-- Issue 32 (migration 0018): watches report what a company changed, page by page.
--
-- What a site read found besides pages, per organization: each open role of a job board the
-- company's pages link (one row per role; `closed` once a later read of the same board no longer
-- lists it) and each feed entry (`listed`). A watch compares them with how they were at its previous
-- succeeded execution: roles opened and closed, new entries. Written by the site read's feeds and
-- boards steps (src/runs/site-read/extras.ts).
CREATE TABLE IF NOT EXISTS site_items (
  organization_id  TEXT NOT NULL,
  url              TEXT NOT NULL,            -- the role's or entry's URL: the key of its source
  domain           TEXT NOT NULL,            -- the company's site, normalized like a company key
  kind             TEXT NOT NULL,            -- role | feed-entry
  origin           TEXT NOT NULL,            -- the board's API URL, or the feed's URL
  title            TEXT NOT NULL,
  location         TEXT,                     -- a role's location, as the board says
  state            TEXT NOT NULL,            -- open | closed (roles), listed (entries)
  first_seen_at    TEXT NOT NULL,
  last_seen_at     TEXT NOT NULL,
  run_id           TEXT NOT NULL,            -- the site-read run that last listed it
  PRIMARY KEY (organization_id, url)
);
CREATE INDEX IF NOT EXISTS site_items_by_domain ON site_items (organization_id, domain, kind, url);

-- Every change a watch execution reported, newest first per organization: the changes feed
-- (GET /api/v1/oms/changes, the MCP tool `changes`, the dashboard's Changes page). Written in the
-- D1 batch that commits the execution (src/watches/execution.ts); `seq` orders the rows of one
-- execution as it listed them.
CREATE TABLE IF NOT EXISTS watch_changes (
  organization_id  TEXT NOT NULL,
  id               TEXT NOT NULL,            -- the execution id and the change's position: wex_...:0007
  watch_id         TEXT NOT NULL,
  execution_id     TEXT NOT NULL,
  company          TEXT NOT NULL,            -- the watched company's key
  kind             TEXT NOT NULL,            -- pricing | product | hiring | people | funding-news | customers | page | other
  detected_at      TEXT NOT NULL,            -- when the execution finished (ISO)
  change           TEXT NOT NULL,            -- the change as JSON (src/ground/schemas/changes.ts)
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX IF NOT EXISTS watch_changes_by_time ON watch_changes (organization_id, detected_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS watch_changes_by_company ON watch_changes (organization_id, company, detected_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS watch_changes_by_kind ON watch_changes (organization_id, kind, detected_at DESC, id DESC);
