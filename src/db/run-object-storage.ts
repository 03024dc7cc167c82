import type { Sql } from './object-sql.ts';

/**
 * A run object's storage (src/runs/run-object.ts), in its own SQLite:
 *
 *   run_record   one row (id = 1): the run without its steps, as JSON (id, kind, organization,
 *                target, args, status, result, createdAt, updatedAt, finishedAt)
 *   run_steps    one row per step, by position: name, status (pending, done, failed), attempts,
 *                the output once done (JSON), the last error, when it finished, and (a step
 *                that works in slices) how far it got
 *   run_scratch  what a step keeps between its slices (a site read's queue and pages): JSON by key
 *
 * The object is the only writer. `writeRun` writes the whole run in one synchronous step (no
 * other request or alarm runs in between), so a reader never sees half a transition.
 *
 * Runs started before the object kept its state in SQLite held it as one key-value record under
 * LEGACY_RUN_KEY; the object moves such a record into these tables the first time it starts.
 */

/** The key-value storage key of a run record written before the SQLite tables (read once, then deleted). */
export const LEGACY_RUN_KEY = 'run';

/** One step as stored. */
export interface StoredStep {
  name: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  progress?: string;
  output?: unknown;
  error?: string;
  finishedAt?: string;
}

/** A run as stored: its steps, and the rest of its record (kept as JSON). */
export interface StoredRun {
  steps: StoredStep[];
}

interface StepRow {
  position: number;
  name: string;
  status: StoredStep['status'];
  attempts: number;
  output: string | null;
  error: string | null;
  finished_at: string | null;
  progress: string | null;
}

/** Creates the run's tables if they are missing (every start; idempotent). */
export function createRunTables(sql: Sql): void {
  sql`CREATE TABLE IF NOT EXISTS run_record (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL)`;
  sql`CREATE TABLE IF NOT EXISTS run_steps (
        position INTEGER PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL,
        output TEXT, error TEXT, finished_at TEXT)`;
  // Objects made before steps could work in slices have the table without the column.
  if (!sql<{ name: string }>`SELECT name FROM pragma_table_info('run_steps') WHERE name = 'progress'`.length) {
    sql`ALTER TABLE run_steps ADD COLUMN progress TEXT`;
  }
  sql`CREATE TABLE IF NOT EXISTS run_scratch (key TEXT PRIMARY KEY, value TEXT NOT NULL)`;
}

/** A value a step kept in the run's scratch space, or undefined. */
export function readScratch<T>(sql: Sql, key: string): T | undefined {
  const row = sql<{ value: string }>`SELECT value FROM run_scratch WHERE key = ${key}`[0];
  return row ? (JSON.parse(row.value) as T) : undefined;
}

/** The keys of the run's scratch space that start with `prefix` (a range scan of the primary key, no pattern to escape). */
export function readScratchKeys(sql: Sql, prefix: string): string[] {
  return sql<{ key: string }>`SELECT key FROM run_scratch WHERE key >= ${prefix} AND key < ${`${prefix}\u{10FFFF}`}`.map((row) => row.key);
}

/** Empties the run's scratch space (the run has ended: nothing will resume from it). */
export function clearScratch(sql: Sql): void {
  sql`DELETE FROM run_scratch`;
}

/** Keeps `value` (as JSON) under `key` in the run's scratch space. */
export function writeScratch(sql: Sql, key: string, value: unknown): void {
  sql`INSERT INTO run_scratch (key, value) VALUES (${key}, ${JSON.stringify(value)}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
}

/**
 * Keeps several values (as JSON) in one statement: a Durable Object's SQLite costs per statement
 * more than per row, and a site read writes a page's record, its tally and its pages in flight together.
 */
export function writeScratchEntries(sql: Sql, entries: ReadonlyArray<readonly [string, unknown]>): void {
  if (entries.length === 0) return;
  // A template of n rows for the tagged `sql`: "INSERT ... VALUES (", ", ", "), (", ..., ") ON CONFLICT ...".
  const parts = ['INSERT INTO run_scratch (key, value) VALUES ('];
  const values: string[] = [];
  entries.forEach(([key, value], i) => {
    if (i > 0) parts.push('), (');
    parts.push(', ');
    values.push(key, JSON.stringify(value));
  });
  parts.push(') ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  sql(Object.assign([...parts], { raw: parts }) as unknown as TemplateStringsArray, ...values);
}

/** The stored run, or null when none was started. `R` is the record type the object writes with `writeRun`. */
export function readRun<R extends StoredRun>(sql: Sql): R | null {
  const row = sql<{ record: string }>`SELECT record FROM run_record WHERE id = 1`[0];
  if (!row) return null;
  const steps = sql<StepRow>`SELECT * FROM run_steps ORDER BY position`.map(
    (step): StoredStep => ({
      name: step.name,
      status: step.status,
      attempts: step.attempts,
      ...(step.progress !== null && step.progress !== undefined ? { progress: step.progress } : {}),
      ...(step.output !== null ? { output: JSON.parse(step.output) as unknown } : {}),
      ...(step.error !== null ? { error: step.error } : {}),
      ...(step.finished_at !== null ? { finishedAt: step.finished_at } : {}),
    }),
  );
  return { ...(JSON.parse(row.record) as Omit<R, 'steps'>), steps } as R;
}

/** The stored run's status alone (no steps read, no record parsed), or null when none was started. */
export function readRunStatus(sql: Sql): string | null {
  return sql<{ status: string | null }>`SELECT json_extract(record, '$.status') AS status FROM run_record WHERE id = 1`[0]?.status ?? null;
}

/** Stores the run as it is now: its record and every step (a run has a handful). */
export function writeRun(sql: Sql, run: StoredRun): void {
  const { steps, ...record } = run;
  sql`INSERT INTO run_record (id, record) VALUES (1, ${JSON.stringify(record)}) ON CONFLICT (id) DO UPDATE SET record = excluded.record`;
  steps.forEach((step, position) => {
    sql`INSERT INTO run_steps (position, name, status, attempts, output, error, finished_at, progress)
        VALUES (${position}, ${step.name}, ${step.status}, ${step.attempts}, ${step.output === undefined ? null : JSON.stringify(step.output)},
                ${step.error ?? null}, ${step.finishedAt ?? null}, ${step.progress ?? null})
        ON CONFLICT (position) DO UPDATE SET name = excluded.name, status = excluded.status, attempts = excluded.attempts,
          output = excluded.output, error = excluded.error, finished_at = excluded.finished_at, progress = excluded.progress`;
  });
}
