-- Issue 13: research watches. Each watch is one WatchObject (a Durable Object holding its
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
  version          INTEGER NOT NULL          -- the watch object's ledger version of this row
);
CREATE INDEX IF NOT EXISTS watches_by_organization ON watches (organization_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS watches_by_status ON watches (organization_id, status, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS watches_by_target ON watches (organization_id, target_type, target_key, created_at DESC, id DESC);
