-- Migration 0002: what schema.sql gained after the baseline, before migrations existed.
-- Runs keep the arguments they were started with (listed by GET /api/v1/runs).
ALTER TABLE runs ADD COLUMN args TEXT NOT NULL DEFAULT '{}';

-- Counting an organization's running runs (the cap on concurrent runs, checked at every start)
-- reads only those rows.
CREATE INDEX IF NOT EXISTS runs_running_by_organization ON runs (organization_id, status, updated_at);

-- The MCP log level each API key chose with logging/setLevel (kept per key).
CREATE TABLE IF NOT EXISTS mcp_log_levels (
  key_id      TEXT PRIMARY KEY,
  level       TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
