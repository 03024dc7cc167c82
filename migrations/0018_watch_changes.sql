-- Issue 32: watches report what a company changed, page by page.
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

-- A watch's own ignore patterns (JSON list of regular expressions, masked before pages are compared)
-- and the change kinds its webhook is sent for (JSON list; '[]': every execution). '[]' for watches
-- made before.
ALTER TABLE watches ADD COLUMN ignore_patterns TEXT NOT NULL DEFAULT '[]';
ALTER TABLE watches ADD COLUMN webhook_kinds TEXT NOT NULL DEFAULT '[]';
