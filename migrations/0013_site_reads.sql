-- Issue 23: site reads (src/runs/site-read/). What the last read of each page of a site found, per
-- organization: the validators a later read sends (If-None-Match, If-Modified-Since), the hash of
-- the text stored as the page's source, whether the page is gone (404/410: marked, never deleted),
-- and which read last handled it (a read that resumes after a restart finds its pages done here
-- and neither fetches nor counts them again).
CREATE TABLE IF NOT EXISTS site_pages (
  organization_id  TEXT NOT NULL,
  url              TEXT NOT NULL,            -- the page: the key of its source
  domain           TEXT NOT NULL,            -- the site read, normalized like a company key
  state            TEXT NOT NULL,            -- live | gone
  etag             TEXT,
  last_modified    TEXT,
  content_hash     TEXT,                     -- hex SHA-256 of the stored text (title and content)
  first_read_at    TEXT NOT NULL,
  last_read_at     TEXT NOT NULL,
  changed_at       TEXT NOT NULL,            -- when the stored text (or the state) last changed
  run_id           TEXT NOT NULL,            -- the site-read run that last handled the page
  outcome          TEXT NOT NULL,            -- what it found: new | changed | unchanged | gone
  PRIMARY KEY (organization_id, url)
);
CREATE INDEX IF NOT EXISTS site_pages_by_domain ON site_pages (organization_id, domain, url);

-- Pages each organization's site reads fetched per UTC day (a 304 is not counted): bounded by
-- SITE_READ_PAGES_PER_DAY.
CREATE TABLE IF NOT EXISTS site_read_usage (
  organization_id  TEXT NOT NULL,
  day              TEXT NOT NULL,            -- YYYY-MM-DD, UTC
  pages            INTEGER NOT NULL,
  PRIMARY KEY (organization_id, day)
);
