import type { Sql } from './object-sql.ts';

/**
 * A watch's webhook outbox (table `watch_webhook_outbox` in the watch object's SQLite): the
 * messages the object still has to deliver, one row per execution record until it is delivered
 * or given up. The policy over it (capacity, leases, retries) is src/watches/webhooks/outbox.ts.
 *
 *   message_id   the execution id, sent as `webhook-id` (the same on every attempt)
 *   exec_seq     the record's seq in watch_executions: the order messages are first sent in, and
 *                where the delivery's outcome is written back (the record's `webhook` field)
 *   url          the watch's webhook URL when the execution finished
 *   payload      the JSON sent (the execution record without its `webhook` field)
 *   attempts     attempts made so far
 *   next_at      when the next attempt is due (ms); while an attempt is under way, the end of its
 *                lease: if the object is evicted mid-attempt, the message is sent again then
 *   last_status, last_error   the last attempt's outcome
 */
export interface OutboxRow {
  message_id: string;
  exec_seq: number;
  url: string;
  payload: string;
  attempts: number;
  next_at: number;
  last_status: number | null;
  last_error: string | null;
}

/** Creates the table if it is missing (idempotent). */
export function createOutboxTable(sql: Sql): void {
  sql`CREATE TABLE IF NOT EXISTS watch_webhook_outbox (
        message_id TEXT PRIMARY KEY, exec_seq INTEGER NOT NULL, url TEXT NOT NULL, payload TEXT NOT NULL,
        attempts INTEGER NOT NULL, next_at INTEGER NOT NULL, last_status INTEGER, last_error TEXT)`;
}

/** Adds a message due at `nextAt` with no attempt made; a message already there is kept as it is. */
export function insertOutboxMessage(sql: Sql, message: { messageId: string; execSeq: number; url: string; payload: string }, nextAt: number): void {
  sql`INSERT INTO watch_webhook_outbox (message_id, exec_seq, url, payload, attempts, next_at)
      VALUES (${message.messageId}, ${message.execSeq}, ${message.url}, ${message.payload}, 0, ${nextAt})
      ON CONFLICT (message_id) DO NOTHING`;
}

/** The messages beyond the newest `kept` (by execution), newest first. */
export function outboxMessagesBeyond(sql: Sql, kept: number): OutboxRow[] {
  return sql<OutboxRow>`SELECT * FROM watch_webhook_outbox ORDER BY exec_seq DESC LIMIT -1 OFFSET ${kept}`;
}

export function deleteOutboxMessage(sql: Sql, messageId: string): void {
  sql`DELETE FROM watch_webhook_outbox WHERE message_id = ${messageId}`;
}

/** The message of the oldest execution among those due at `now`, if any. */
export function firstDueOutboxMessage(sql: Sql, now: number): OutboxRow | undefined {
  return sql<OutboxRow>`SELECT * FROM watch_webhook_outbox WHERE next_at <= ${now} ORDER BY exec_seq LIMIT 1`[0];
}

/** Makes the message due again at `nextAt` (a lease's end), its attempts unchanged. */
export function setOutboxNextAt(sql: Sql, messageId: string, nextAt: number): void {
  sql`UPDATE watch_webhook_outbox SET next_at = ${nextAt} WHERE message_id = ${messageId}`;
}

/** Records an attempt that will be retried: its count, outcome, and when the next one is due. */
export function recordOutboxAttempt(sql: Sql, messageId: string, attempt: { attempts: number; nextAt: number; lastStatus: number | null; lastError: string | null }): void {
  sql`UPDATE watch_webhook_outbox SET attempts = ${attempt.attempts}, next_at = ${attempt.nextAt}, last_status = ${attempt.lastStatus}, last_error = ${attempt.lastError}
      WHERE message_id = ${messageId}`;
}

/** When the earliest message is due (ms), or null when the outbox is empty. */
export function earliestOutboxDue(sql: Sql): number | null {
  return sql<{ at: number | null }>`SELECT min(next_at) AS at FROM watch_webhook_outbox`[0]?.at ?? null;
}

export function countOutboxMessages(sql: Sql): number {
  return sql<{ n: number }>`SELECT count(*) AS n FROM watch_webhook_outbox`[0]!.n;
}
