import { createWatchTables, executionsBefore, insertExecution, setExecutionWebhook } from '../db/watch-object-storage.ts';
import type { Sql } from '../db/object-sql.ts';
import type { ExecutionRecord } from '../ground/schemas/watch.ts';
import type { RecordedAttempt } from './webhooks/outbox.ts';

/** The execution records a watch object keeps (the newest EXECUTIONS_KEPT), in its SQLite. */

/** Executions kept per watch (the newest); older records are dropped. */
export const EXECUTIONS_KEPT = 1_000;

/** Stores an execution record; answers its seq (the order of the records, newest highest). */
export function storeExecution(sql: Sql, record: ExecutionRecord): number {
  return insertExecution(sql, record.id, record, EXECUTIONS_KEPT);
}

/** Execution records, newest first, before `beforeSeq` (the seq of the last one of the previous page). */
export function executionsPage(sql: Sql, limit: number, beforeSeq?: number): { executions: ExecutionRecord[]; lastSeq: number | null; more: boolean } {
  createWatchTables(sql);
  const rows = executionsBefore<ExecutionRecord>(sql, limit + 1, beforeSeq);
  const page = rows.slice(0, limit);
  // Records made before findings existed have none: they read as null.
  return { executions: page.map((r) => ({ ...r.record, findings: r.record.findings ?? null })), lastSeq: page.at(-1)?.seq ?? null, more: rows.length > limit };
}

/** Writes a delivery's state on its execution record (if the record is still kept). */
export function writeDeliveryState(sql: Sql, { execSeq, state }: RecordedAttempt): void {
  setExecutionWebhook(sql, execSeq, state);
}

/** The record of an execution that stored and charged nothing. */
export function failedExecution(watchId: string, id: string, startedAt: string, error: string): ExecutionRecord {
  return { id, watchId, startedAt, finishedAt: new Date().toISOString(), outcome: 'failed', costMicros: 0, briefKey: null, changes: [], findings: null, error };
}
