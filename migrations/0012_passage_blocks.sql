-- Issue 16: each organization's passages get ids in a block of their own, [block << 40, (block + 1)
-- << 40), so research scopes its FTS5 queries by a rowid range of the index (read by seeking)
-- instead of by the organization's token. BM25 weighs every phrase of a query by reading its whole
-- row list, and the token's list holds every passage of the organization: 12-18 ms of each ranked
-- search at 212,000 passages. A block is given to an organization when its first passage is written.
CREATE TABLE passage_blocks (
  organization_id  TEXT PRIMARY KEY,
  block            INTEGER NOT NULL UNIQUE
);

-- Existing passages move into their organization's block, in their order, and are indexed again
-- under their new ids (as the insert trigger indexes them: the FTS5 'rebuild' command would index
-- the organization id as stored, with its '_', which no scope token matches).
INSERT INTO passage_blocks (organization_id, block)
  SELECT organization_id, row_number() OVER (ORDER BY min(id)) FROM passages GROUP BY organization_id;
UPDATE passages SET id = renumbered.id
  FROM (SELECT p.id AS old_id, (b.block << 40) + row_number() OVER (PARTITION BY p.organization_id ORDER BY p.id) - 1 AS id
          FROM passages p JOIN passage_blocks b ON b.organization_id = p.organization_id) AS renumbered
 WHERE passages.id = renumbered.old_id;
INSERT INTO passages_fts (passages_fts) VALUES ('delete-all');
INSERT INTO passages_fts (rowid, organization_id, domain, title, text)
  SELECT id, replace(organization_id, '_', ''), domain, title, text FROM passages;

-- A passage outside its organization's block would be found by another organization's searches:
-- refused, whoever writes it.
CREATE TRIGGER passages_insert_in_block BEFORE INSERT ON passages
  WHEN NOT EXISTS (SELECT 1 FROM passage_blocks WHERE organization_id = new.organization_id AND block = new.id >> 40)
BEGIN
  SELECT RAISE(ABORT, 'passage id outside its organization''s block');
END;
CREATE TRIGGER passages_update_in_block BEFORE UPDATE OF id, organization_id ON passages
  WHEN NOT EXISTS (SELECT 1 FROM passage_blocks WHERE organization_id = new.organization_id AND block = new.id >> 40)
BEGIN
  SELECT RAISE(ABORT, 'passage id outside its organization''s block');
END;
