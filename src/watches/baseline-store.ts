import { createWatchTables, readBaselineRow, writeBaselineRow } from '../db/watch-object-storage.ts';
import type { Sql } from '../db/object-sql.ts';
import type { Claim } from '../ground/schemas/watch.ts';
import type { Baseline } from './findings.ts';

/**
 * The baseline a watch object keeps in its SQLite (table `watch_baseline`): the cited claims of the
 * last succeeded execution's brief. An execution reads it before its brief is rendered, and its own
 * claims replace it only once its results are committed, so a failed or cancelled execution never
 * moves it. With executions in flight at once, the last one to commit sets it.
 */

/** The claims the next execution compares with, or null before the first execution succeeded. */
export function readBaseline(sql: Sql): Baseline | null {
  createWatchTables(sql);
  return readBaselineRow<Claim>(sql);
}

/** Makes a committed execution's claims the baseline. */
export function keepBaseline(sql: Sql, baseline: Baseline): void {
  createWatchTables(sql);
  writeBaselineRow(sql, baseline.executionId, baseline.finishedAt, baseline.claims);
}
