import {
  createWatchTables,
  deleteReservation,
  deleteWatchRecord,
  insertReservation,
  listReservations,
  readWatchRecord,
  reservedMicros as reservedTotal,
  writeWatchRecord,
  type ReservationRow,
} from '../db/watch-object-storage.ts';
import type { Sql } from '../db/object-sql.ts';
import type { WatchRecord } from './record.ts';

/**
 * The watch's ledger as its object stores it: the record (definition, spent, charged executions,
 * failures in a row, status, version) and the in-flight reservations against its budget. The
 * policy (what fits the cap, when it is capped, the retry delays) is ledger.ts; this is where it
 * is kept. Synchronous: a read and the write that depends on it, with no await in between, are a
 * compare-and-set (nothing else runs in the object meanwhile).
 */

/** The stored watch, or null when this object holds none. */
export function readWatch(sql: Sql): WatchRecord | null {
  createWatchTables(sql);
  return readWatchRecord<WatchRecord>(sql);
}

/** Stores `watch` as the next version (its updatedAt moved to `now`, or just after the previous one); answers what was stored. */
export function writeWatch(sql: Sql, watch: WatchRecord, now = new Date()): WatchRecord {
  const updatedAt = watch.version === 0 ? watch.updatedAt : laterThan(watch.updatedAt, now);
  const next = { ...watch, version: watch.version + 1, updatedAt };
  writeWatchRecord(sql, next);
  return next;
}

/** Removes the watch (its creation could not be mirrored). */
export function discardWatch(sql: Sql): void {
  deleteWatchRecord(sql);
}

/** Holds `priceMicros` of the budget back for execution `id` while it runs. */
export function reserve(sql: Sql, id: string, startedAt: string, priceMicros: number): void {
  insertReservation(sql, { id, startedAt, reservedMicros: priceMicros });
}

/** Gives back what execution `id` held (it was charged, or charged nothing). */
export function release(sql: Sql, id: string): void {
  deleteReservation(sql, id);
}

/** What the executions in flight hold back, in all. */
export function reservedMicros(sql: Sql): number {
  return reservedTotal(sql);
}

/**
 * Releases every reservation and answers them: at a start, these belong to executions a restart
 * cut off (an execution lives in memory), which stored and charged nothing.
 */
export function releaseInterrupted(sql: Sql): ReservationRow[] {
  const stale = listReservations(sql);
  for (const row of stale) deleteReservation(sql, row.id);
  return stale;
}

/** `now`, or a millisecond after `previous` if the clock has not moved past it (updatedAt only goes forward). */
function laterThan(previous: string, now: Date): string {
  return new Date(Math.max(now.getTime(), Date.parse(previous) + 1)).toISOString();
}
