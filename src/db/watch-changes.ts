import type { Db } from '../ground/db-session.ts';
/**
 * The changes feed (`watch_changes`, migration 0018): every change a watch execution listed, per
 * organization. Written in the batch that commits the execution; read newest first in keyset
 * pages. Scoped by organization; values bound.
 */

/** One row of the feed, as written and as read. */
export interface WatchChangeRow {
  /** The change's id: its execution's and its position there. */
  id: string;
  watchId: string;
  executionId: string;
  company: string;
  kind: string;
  detectedAt: string;
  /** The change as JSON. */
  change: string;
}

/** Rows per INSERT: D1 binds at most 100 parameters, 8 per row here. */
const ROWS_PER_STATEMENT = 12;

export function insertChangesStatements(db: Db, organizationId: string, rows: readonly WatchChangeRow[]): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
    const slice = rows.slice(from, from + ROWS_PER_STATEMENT);
    const values = slice.map((_, i) => `(${Array.from({ length: 8 }, (_, k) => `?${i * 8 + k + 1}`).join(', ')})`).join(', ');
    statements.push(
      db
        .prepare(`INSERT OR IGNORE INTO watch_changes (organization_id, id, watch_id, execution_id, company, kind, detected_at, change) VALUES ${values}`)
        .bind(...slice.flatMap((row) => [organizationId, row.id, row.watchId, row.executionId, row.company, row.kind, row.detectedAt, row.change])),
    );
  }
  return statements;
}

export interface ChangesQuery {
  company?: string;
  kinds?: readonly string[];
  /** ISO bounds on detected_at: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  /** The last row of the previous page: rows strictly before it (newest first). */
  after?: { detectedAt: string; id: string };
  limit: number;
}

/** A page of the organization's changes, newest first (detected_at, then id, descending). */
export async function listChanges(db: Db, organizationId: string, query: ChangesQuery): Promise<WatchChangeRow[]> {
  const where = ['organization_id = ?1'];
  const values: (string | number)[] = [organizationId];
  const bind = (value: string | number) => {
    values.push(value);
    return `?${values.length}`;
  };
  if (query.company !== undefined) where.push(`company = ${bind(query.company)}`);
  if (query.kinds?.length) where.push(`kind IN (${query.kinds.map(bind).join(', ')})`);
  if (query.from !== undefined) where.push(`detected_at >= ${bind(query.from)}`);
  if (query.to !== undefined) where.push(`detected_at < ${bind(query.to)}`);
  if (query.after) {
    const at = bind(query.after.detectedAt);
    where.push(`(detected_at < ${at} OR (detected_at = ${at} AND id < ${bind(query.after.id)}))`);
  }
  const { results } = await db
    .prepare(
      `SELECT id, watch_id AS watchId, execution_id AS executionId, company, kind, detected_at AS detectedAt, change
         FROM watch_changes WHERE ${where.join(' AND ')} ORDER BY detected_at DESC, id DESC LIMIT ${bind(query.limit)}`,
    )
    .bind(...values)
    .all<WatchChangeRow>();
  return results;
}
