import type { WebhookDeliveryState } from '../../ground/schemas/watch.ts';
import type { DeliveryResult } from './delivery.ts';
import { nextDelivery } from './retry-policy.ts';

/**
 * A watch's webhook outbox: the messages its object still has to deliver, in its own SQLite
 * storage (table `watch_webhook_outbox`), one row per execution record until it is delivered or
 * given up. Synchronous (the object's storage), so a message is enqueued in the same step that
 * stores its execution record, and nothing else runs in between.
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

/** At most this many messages wait per watch; enqueuing one more gives up the oldest. */
export const OUTBOX_MAX_MESSAGES = 100;
/** How long an attempt may hold its message before it is presumed lost (the delivery timeout and a margin). */
export const ATTEMPT_LEASE_MS = 30_000;

type SqlValue = string | number | boolean | null;
export type Sql = <T = Record<string, SqlValue>>(strings: TemplateStringsArray, ...values: SqlValue[]) => T[];

export interface OutboxMessage {
  messageId: string;
  execSeq: number;
  url: string;
  payload: string;
  attempts: number;
}

interface Row {
  message_id: string;
  exec_seq: number;
  url: string;
  payload: string;
  attempts: number;
  next_at: number;
  last_status: number | null;
  last_error: string | null;
}

/** The outcome of one attempt, and what it leaves for the message: written back on its execution record. */
export interface RecordedAttempt {
  execSeq: number;
  state: WebhookDeliveryState;
}

export class WebhookOutbox {
  constructor(private readonly sql: Sql) {
    sql`CREATE TABLE IF NOT EXISTS watch_webhook_outbox (
          message_id TEXT PRIMARY KEY, exec_seq INTEGER NOT NULL, url TEXT NOT NULL, payload TEXT NOT NULL,
          attempts INTEGER NOT NULL, next_at INTEGER NOT NULL, last_status INTEGER, last_error TEXT)`;
  }

  /**
   * Adds a message due at `now`. Returns the messages given up to make room (the oldest beyond
   * OUTBOX_MAX_MESSAGES), with their final state, to write back on their records.
   */
  enqueue(message: Omit<OutboxMessage, 'attempts'>, now: number): RecordedAttempt[] {
    this.sql`INSERT INTO watch_webhook_outbox (message_id, exec_seq, url, payload, attempts, next_at)
             VALUES (${message.messageId}, ${message.execSeq}, ${message.url}, ${message.payload}, 0, ${now})
             ON CONFLICT (message_id) DO NOTHING`;
    const overflow = this.sql<Row>`SELECT * FROM watch_webhook_outbox ORDER BY exec_seq DESC LIMIT -1 OFFSET ${OUTBOX_MAX_MESSAGES}`;
    return overflow.map((row) => {
      this.sql`DELETE FROM watch_webhook_outbox WHERE message_id = ${row.message_id}`;
      const error = `given up unsent: more than ${OUTBOX_MAX_MESSAGES} deliveries were waiting${row.last_error ? ` (last attempt: ${row.last_error})` : ''}`;
      return { execSeq: row.exec_seq, state: { state: 'gave_up', attempts: row.attempts, lastStatus: row.last_status, lastError: error, nextAttemptAt: null } };
    });
  }

  /** The first message due at `now` (the oldest execution first), leased until now + ATTEMPT_LEASE_MS; null when none is due. */
  takeDue(now: number): OutboxMessage | null {
    const row = this.sql<Row>`SELECT * FROM watch_webhook_outbox WHERE next_at <= ${now} ORDER BY exec_seq LIMIT 1`[0];
    if (!row) return null;
    this.sql`UPDATE watch_webhook_outbox SET next_at = ${now + ATTEMPT_LEASE_MS} WHERE message_id = ${row.message_id}`;
    return { messageId: row.message_id, execSeq: row.exec_seq, url: row.url, payload: row.payload, attempts: row.attempts };
  }

  /**
   * Records attempt `message.attempts + 1`: delivered or given up (the last attempt of the retry
   * policy) removes the message; otherwise it is due again on the policy's schedule.
   */
  record(message: OutboxMessage, result: DeliveryResult, now: Date, random: () => number): RecordedAttempt {
    const attempt = message.attempts + 1;
    const next = nextDelivery(attempt, result.ok, now, random);
    const lastStatus = result.status ?? null;
    const lastError = result.ok ? null : (result.error ?? 'failed');
    if (next.kind === 'retry') {
      this.sql`UPDATE watch_webhook_outbox SET attempts = ${attempt}, next_at = ${next.at.getTime()}, last_status = ${lastStatus}, last_error = ${lastError}
               WHERE message_id = ${message.messageId}`;
      return { execSeq: message.execSeq, state: { state: 'pending', attempts: attempt, lastStatus, lastError, nextAttemptAt: next.at.toISOString() } };
    }
    this.sql`DELETE FROM watch_webhook_outbox WHERE message_id = ${message.messageId}`;
    return { execSeq: message.execSeq, state: { state: next.kind === 'delivered' ? 'delivered' : 'gave_up', attempts: attempt, lastStatus, lastError, nextAttemptAt: null } };
  }

  /** When the earliest message is due (ms), or null when the outbox is empty. */
  earliest(): number | null {
    return this.sql<{ at: number | null }>`SELECT min(next_at) AS at FROM watch_webhook_outbox`[0]?.at ?? null;
  }

  size(): number {
    return this.sql<{ n: number }>`SELECT count(*) AS n FROM watch_webhook_outbox`[0]!.n;
  }
}
