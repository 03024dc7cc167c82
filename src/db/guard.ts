import type { Db } from '../ground/db-session.ts';
/**
 * Guards: statements that fail their D1 batch, so that nothing of the batch is written, unless a
 * condition holds when the batch runs. A batch is one transaction, so a guard makes a change
 * conditional on what it read before without a window in between (compare-and-set for a batch).
 *
 * D1 has no RAISE outside triggers. A JSON path that is not one makes SQLite raise
 * `bad JSON path: '<path>'`, rolling the batch back; the path carries the guard's name, so the
 * caller can tell which guard failed from any other error.
 */

const MARKER = 'recon-guard:';

/**
 * A statement that raises unless `condition` (SQL over ?1..?n, written in code, never from input)
 * is true when it runs. `name` ([a-z0-9-]) identifies the guard in the error.
 */
export function guardStatement(db: Db, condition: string, params: readonly unknown[], name: string): D1PreparedStatement {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`guard name ${JSON.stringify(name)} is not [a-z0-9-]`);
  return db
    .prepare(`SELECT json_extract('{}', CASE WHEN ${condition} THEN '$' ELSE ?${params.length + 1} END) AS guard`)
    .bind(...params, `${MARKER}${name}`);
}

/** The name of the guard that failed the batch `error` comes from, or null when the error is another. */
export function failedGuard(error: unknown): string | null {
  const messages: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) messages.push(e.message);
  return /recon-guard:([a-z0-9-]+)/.exec(messages.join(' '))?.[1] ?? null;
}
