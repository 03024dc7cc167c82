/**
 * Each organization's block of passage ids (schema.sql `passage_blocks`, migration 0012): its
 * passages have ids in [block << PASSAGE_BLOCK_BITS, (block + 1) << PASSAGE_BLOCK_BITS), so a
 * search is scoped to one organization by a rowid range of `passages_fts`, which FTS5 reads by
 * seeking, at no cost that grows with the organization's passages.
 */
import { BoundedMap } from '../ground/bounded-map.ts';
import type { Db } from '../ground/db-session.ts';

/** 2^40 passage ids per organization, 2^23 organizations (ids stay within 2^63). */
export const PASSAGE_BLOCK_BITS = 40;

/**
 * A SELECT of one row, `first` and `last`, the ids of the organization's block, for the
 * organization bound at `parameter` (e.g. `?1`); no row when it has no block (it has never had a
 * passage), so a range built from it matches nothing.
 */
export function passageBlockOf(parameter: string): string {
  return `SELECT block << ${PASSAGE_BLOCK_BITS} AS first, ((block + 1) << ${PASSAGE_BLOCK_BITS}) - 1 AS last
            FROM passage_blocks WHERE organization_id = ${parameter}`;
}

/** Gives the organization the next free block if it has none yet; to run before its passages are written. */
export function claimPassageBlockStatement(db: Db, organizationId: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO passage_blocks (organization_id, block)
       SELECT ?1, coalesce(max(block), 0) + 1 FROM passage_blocks WHERE true
       ON CONFLICT (organization_id) DO NOTHING`,
    )
    .bind(organizationId);
}

/**
 * `column` within the block bound at `parameter` (a block number, e.g. `?6`): the range computed by
 * SQLite in 64-bit integers (ids pass 2^53, past which JavaScript numbers round, from block 8192).
 */
export function inPassageBlock(column: string, parameter: string): string {
  return `${column} BETWEEN (${parameter} << ${PASSAGE_BLOCK_BITS}) AND ((${parameter} + 1) << ${PASSAGE_BLOCK_BITS}) - 1`;
}

/** Blocks this isolate has read, by organization: a block, once given, never changes. */
const MAX_KNOWN_BLOCKS = 10_000;
const knownBlocks = new BoundedMap<string, number>({ max: MAX_KNOWN_BLOCKS });

/**
 * The number of the organization's block of passage ids, or null when it has none (it has never
 * had a passage, so a search has nothing to read). Read once per isolate: a block never changes
 * once given.
 */
export async function passageBlock(db: Db, organizationId: string): Promise<number | null> {
  const known = knownBlocks.get(organizationId);
  if (known !== undefined) return known;
  const row = await db.prepare('SELECT block FROM passage_blocks WHERE organization_id = ?1').bind(organizationId).first<{ block: number }>();
  if (!row) return null;
  knownBlocks.set(organizationId, row.block);
  return row.block;
}
