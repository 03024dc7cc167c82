/**
 * Each organization's block of passage ids (schema.sql `passage_blocks`, migration 0012): its
 * passages have ids in [block << PASSAGE_BLOCK_BITS, (block + 1) << PASSAGE_BLOCK_BITS), so a
 * search is scoped to one organization by a rowid range of `passages_fts`, which FTS5 reads by
 * seeking, at no cost that grows with the organization's passages.
 */

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
export function claimPassageBlockStatement(db: D1Database, organizationId: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO passage_blocks (organization_id, block)
       SELECT ?1, coalesce(max(block), 0) + 1 FROM passage_blocks WHERE true
       ON CONFLICT (organization_id) DO NOTHING`,
    )
    .bind(organizationId);
}
