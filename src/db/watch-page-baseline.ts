import type { Sql } from './object-sql.ts';

/**
 * A watch object's page baseline, in its SQLite (issue 32): how the company's web was at the last
 * succeeded execution, which the next one compares with. One row per page, role or feed entry:
 *
 *   watch_pages       url, what it is (page, role, feed-entry), its title, state (live, gone,
 *                     open, closed, listed), the stored text's hash (pages), when it was last seen,
 *                     its sentences as the site said them (JSON list, pages only) and the
 *                     sentences whose change was reported, with its direction (JSON: a sentence
 *                     reported added and then seen removed, or the reverse, flips)
 *   watch_pages_meta  one row (id = 1): the execution it is of, when its reading was taken, its
 *                     number, and whether the site read before it reached every page it found
 *
 * Replaced whole, in one synchronous write, when an execution commits (never by a failed one); an
 * execution whose reading is older than the stored one's leaves it as it is.
 */

export interface PageBaselineRow {
  url: string;
  what: 'page' | 'role' | 'feed-entry';
  title: string;
  state: string;
  hash: string | null;
  seenAt: string;
  location?: string;
  /** A role's board or an entry's feed (its URL). */
  origin?: string;
  sentences: string[];
  reported: Record<string, 'added' | 'removed'>;
}

export interface PageBaselineMeta {
  executionId: string;
  readAt: string;
  /** Counts the baselines kept: 1 for the first execution's. */
  sequence: number;
  /** Whether the site read before it reached every page it found (its pages are the whole site). */
  complete: boolean;
}

function createTables(sql: Sql): void {
  sql`CREATE TABLE IF NOT EXISTS watch_pages (url TEXT PRIMARY KEY, row TEXT NOT NULL)`;
  sql`CREATE TABLE IF NOT EXISTS watch_pages_meta (id INTEGER PRIMARY KEY CHECK (id = 1), execution_id TEXT NOT NULL, read_at TEXT NOT NULL, sequence INTEGER NOT NULL, complete INTEGER NOT NULL)`;
}

/** The baseline, or null before an execution kept one. */
export function readPageBaseline(sql: Sql): { meta: PageBaselineMeta; rows: PageBaselineRow[] } | null {
  createTables(sql);
  const meta = sql<{ execution_id: string; read_at: string; sequence: number; complete: number }>`SELECT execution_id, read_at, sequence, complete FROM watch_pages_meta WHERE id = 1`[0];
  if (!meta) return null;
  const rows = sql<{ row: string }>`SELECT row FROM watch_pages`.map((r) => JSON.parse(r.row) as PageBaselineRow);
  return { meta: { executionId: meta.execution_id, readAt: meta.read_at, sequence: meta.sequence, complete: meta.complete === 1 }, rows };
}

/** Rows per INSERT: a Durable Object's SQLite costs per statement more than per row. */
const ROWS_PER_STATEMENT = 50;

/** Replaces the baseline with `rows` (in one transaction), unless the stored one was read later. False when left as it was. */
export function writePageBaseline(storage: DurableObjectStorage, meta: PageBaselineMeta, rows: readonly PageBaselineRow[]): boolean {
  return storage.transactionSync(() => {
    storage.sql.exec('CREATE TABLE IF NOT EXISTS watch_pages (url TEXT PRIMARY KEY, row TEXT NOT NULL)');
    storage.sql.exec('CREATE TABLE IF NOT EXISTS watch_pages_meta (id INTEGER PRIMARY KEY CHECK (id = 1), execution_id TEXT NOT NULL, read_at TEXT NOT NULL, sequence INTEGER NOT NULL, complete INTEGER NOT NULL)');
    const stored = storage.sql.exec<{ read_at: string }>('SELECT read_at FROM watch_pages_meta WHERE id = 1').toArray()[0];
    if (stored && stored.read_at > meta.readAt) return false;
    storage.sql.exec('DELETE FROM watch_pages');
    for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
      const slice = rows.slice(from, from + ROWS_PER_STATEMENT);
      storage.sql.exec(`INSERT OR REPLACE INTO watch_pages (url, row) VALUES ${slice.map(() => '(?, ?)').join(', ')}`, ...slice.flatMap((row) => [row.url, JSON.stringify(row)]));
    }
    storage.sql.exec(
      `INSERT INTO watch_pages_meta (id, execution_id, read_at, sequence, complete) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET execution_id = excluded.execution_id, read_at = excluded.read_at, sequence = excluded.sequence, complete = excluded.complete`,
      meta.executionId,
      meta.readAt,
      meta.sequence,
      meta.complete ? 1 : 0,
    );
    return true;
  });
}
