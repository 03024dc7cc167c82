import type { Sql } from './object-sql.ts';

/**
 * A watch object's own tables (src/watches/watch-object.ts), in its SQLite; the object is
 * their only writer:
 *
 *   watch_record      one row (id = 1): the watch as JSON: its definition, its ledger (spent,
 *                     charged executions, consecutive failures), status, version and the id of
 *                     its pending retry schedule
 *   watch_inflight    one row per execution running now, with the price it reserved from the
 *                     budget; rows found at a start belong to executions cut off by a restart
 *   watch_executions  the newest execution records (JSON), by `seq`; older ones are dropped
 *   watch_baseline    one row (id = 1), once an execution succeeded: the last succeeded
 *                     execution's id, when it finished and its brief's cited claims (JSON, at
 *                     most 100 of 1,000 characters each), which the next execution compares with;
 *                     written when an execution commits, never by a failed or cancelled one
 *
 * Its webhook outbox is webhook-outbox.ts; its schedule is the Agent's own tables.
 */

/** One execution running now and the price it holds back from the budget. */
export interface ReservationRow {
  id: string;
  startedAt: string;
  reservedMicros: number;
}

/** Creates the watch's tables if they are missing (idempotent). */
export function createWatchTables(sql: Sql): void {
  sql`CREATE TABLE IF NOT EXISTS watch_record (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL)`;
  sql`CREATE TABLE IF NOT EXISTS watch_inflight (id TEXT PRIMARY KEY, started_at TEXT NOT NULL, reserved_micros INTEGER NOT NULL)`;
  sql`CREATE TABLE IF NOT EXISTS watch_executions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, record TEXT NOT NULL)`;
  sql`CREATE TABLE IF NOT EXISTS watch_baseline (id INTEGER PRIMARY KEY CHECK (id = 1), execution_id TEXT NOT NULL, finished_at TEXT NOT NULL, claims TEXT NOT NULL)`;
}

/** The stored watch, or null when this object holds none. `R` is the record type written with `writeWatchRecord`. */
export function readWatchRecord<R>(sql: Sql): R | null {
  const row = sql<{ record: string }>`SELECT record FROM watch_record WHERE id = 1`[0];
  return row ? (JSON.parse(row.record) as R) : null;
}

export function writeWatchRecord(sql: Sql, record: object): void {
  sql`INSERT INTO watch_record (id, record) VALUES (1, ${JSON.stringify(record)}) ON CONFLICT (id) DO UPDATE SET record = excluded.record`;
}

/** Removes the watch (a creation whose D1 row could not be written). */
export function deleteWatchRecord(sql: Sql): void {
  sql`DELETE FROM watch_record WHERE id = 1`;
}

export function insertReservation(sql: Sql, reservation: ReservationRow): void {
  sql`INSERT INTO watch_inflight (id, started_at, reserved_micros) VALUES (${reservation.id}, ${reservation.startedAt}, ${reservation.reservedMicros})`;
}

export function deleteReservation(sql: Sql, id: string): void {
  sql`DELETE FROM watch_inflight WHERE id = ${id}`;
}

export function listReservations(sql: Sql): ReservationRow[] {
  return sql<ReservationRow>`SELECT id, started_at AS startedAt, reserved_micros AS reservedMicros FROM watch_inflight`;
}

/** What the executions in flight hold back from the budget, in all. */
export function reservedMicros(sql: Sql): number {
  return sql<{ total: number }>`SELECT coalesce(sum(reserved_micros), 0) AS total FROM watch_inflight`[0]!.total;
}

/** Stores an execution record and drops the ones beyond the newest `kept`; answers its seq. */
export function insertExecution(sql: Sql, id: string, record: object, kept: number): number {
  const seq = sql<{ seq: number }>`INSERT INTO watch_executions (id, record) VALUES (${id}, ${JSON.stringify(record)}) RETURNING seq`[0]!.seq;
  sql`DELETE FROM watch_executions WHERE seq <= (SELECT max(seq) FROM watch_executions) - ${kept}`;
  return seq;
}

/** Up to `limit` execution records, newest first, before `beforeSeq` (all when undefined). `R` is the record type stored. */
export function executionsBefore<R>(sql: Sql, limit: number, beforeSeq?: number): { seq: number; record: R }[] {
  return sql<{ seq: number; record: string }>`
    SELECT seq, record FROM watch_executions WHERE seq < ${beforeSeq ?? Number.MAX_SAFE_INTEGER} ORDER BY seq DESC LIMIT ${limit}`.map((row) => ({
    seq: row.seq,
    record: JSON.parse(row.record) as R,
  }));
}

/** Sets the `webhook` field of the execution record `seq` (if it is still kept). */
export function setExecutionWebhook(sql: Sql, seq: number, state: object): void {
  sql`UPDATE watch_executions SET record = json_set(record, '$.webhook', json(${JSON.stringify(state)})) WHERE seq = ${seq}`;
}

/** The claims the next execution compares with, or null before any execution succeeded. `C` is the claim type written. */
export function readBaselineRow<C>(sql: Sql): { executionId: string; finishedAt: string; claims: C[] } | null {
  const row = sql<{ executionId: string; finishedAt: string; claims: string }>`
    SELECT execution_id AS executionId, finished_at AS finishedAt, claims FROM watch_baseline WHERE id = 1`[0];
  return row ? { executionId: row.executionId, finishedAt: row.finishedAt, claims: JSON.parse(row.claims) as C[] } : null;
}

/** Replaces the baseline with a succeeded execution's claims. */
export function writeBaselineRow(sql: Sql, executionId: string, finishedAt: string, claims: readonly object[]): void {
  sql`INSERT INTO watch_baseline (id, execution_id, finished_at, claims) VALUES (1, ${executionId}, ${finishedAt}, ${JSON.stringify(claims)})
      ON CONFLICT (id) DO UPDATE SET execution_id = excluded.execution_id, finished_at = excluded.finished_at, claims = excluded.claims`;
}
