-- Issue 31: pages rendered in a browser by an organization's site reads per UTC day, bounded by
-- SITE_READ_RENDERS_PER_DAY apart from the pages fetched. site_pages.state may also be `noindex`
-- (the page asks not to be indexed: no source is kept) or `handled` (fetched and counted, no source
-- kept: a copy, unreadable), and its outcome `noindex`, `skipped` or `failed`; both columns are free
-- text, so no change is needed there.
ALTER TABLE site_read_usage ADD COLUMN rendered INTEGER NOT NULL DEFAULT 0;
