-- Issue 31: a watch's path patterns (includePaths, excludePaths, JSON lists of strings): the read of
-- the target company's site before each execution requests only the paths they allow. Fixed at
-- creation and written by the watch object with the rest of its row; '[]' (every path) for watches
-- made before.
ALTER TABLE watches ADD COLUMN include_paths TEXT NOT NULL DEFAULT '[]';
ALTER TABLE watches ADD COLUMN exclude_paths TEXT NOT NULL DEFAULT '[]';
