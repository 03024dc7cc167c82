import {
  countOutboxMessages,
  createOutboxTable,
  deleteOutboxMessage,
  earliestOutboxDue,
  firstDueOutboxMessage,
  insertOutboxMessage,
  outboxMessagesBeyond,
  recordOutboxAttempt,
  setOutboxNextAt,
} from '../../db/webhook-outbox.ts';
import type { Sql } from '../../db/object-sql.ts';
import type { WebhookDeliveryState } from '../../ground/schemas/watch.ts';
import type { DeliveryResult } from './delivery.ts';
import { nextDelivery } from './retry-policy.ts';

/**
 * A watch's webhook outbox: the messages its object still has to deliver, kept in its own SQLite
 * storage (src/db/webhook-outbox.ts), one per execution record until it is delivered or given up.
 * This is the policy over it: at most OUTBOX_MAX_MESSAGES wait, an attempt leases its message,
 * the retry policy (retry-policy.ts) says when the next attempt is due. Synchronous (the object's
 * storage), so a message is enqueued in the same step that stores its execution record, and
 * nothing else runs in between.
 */

/** At most this many messages wait per watch; enqueuing one more gives up the oldest. */
export const OUTBOX_MAX_MESSAGES = 100;
/** How long an attempt may hold its message before it is presumed lost (the delivery timeout and a margin). */
export const ATTEMPT_LEASE_MS = 30_000;

export interface OutboxMessage {
  messageId: string;
  execSeq: number;
  url: string;
  payload: string;
  attempts: number;
}

/** The outcome of one attempt, and what it leaves for the message: written back on its execution record. */
export interface RecordedAttempt {
  execSeq: number;
  state: WebhookDeliveryState;
}

export class WebhookOutbox {
  constructor(private readonly sql: Sql) {
    createOutboxTable(sql);
  }

  /**
   * Adds a message due at `now`. Returns the messages given up to make room (the oldest beyond
   * OUTBOX_MAX_MESSAGES), with their final state, to write back on their records.
   */
  enqueue(message: Omit<OutboxMessage, 'attempts'>, now: number): RecordedAttempt[] {
    insertOutboxMessage(this.sql, message, now);
    return outboxMessagesBeyond(this.sql, OUTBOX_MAX_MESSAGES).map((row) => {
      deleteOutboxMessage(this.sql, row.message_id);
      const error = `given up unsent: more than ${OUTBOX_MAX_MESSAGES} deliveries were waiting${row.last_error ? ` (last attempt: ${row.last_error})` : ''}`;
      return { execSeq: row.exec_seq, state: { state: 'gave_up', attempts: row.attempts, lastStatus: row.last_status, lastError: error, nextAttemptAt: null } };
    });
  }

  /** The first message due at `now` (the oldest execution first), leased until now + ATTEMPT_LEASE_MS; null when none is due. */
  takeDue(now: number): OutboxMessage | null {
    const row = firstDueOutboxMessage(this.sql, now);
    if (!row) return null;
    setOutboxNextAt(this.sql, row.message_id, now + ATTEMPT_LEASE_MS);
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
      recordOutboxAttempt(this.sql, message.messageId, { attempts: attempt, nextAt: next.at.getTime(), lastStatus, lastError });
      return { execSeq: message.execSeq, state: { state: 'pending', attempts: attempt, lastStatus, lastError, nextAttemptAt: next.at.toISOString() } };
    }
    deleteOutboxMessage(this.sql, message.messageId);
    return { execSeq: message.execSeq, state: { state: next.kind === 'delivered' ? 'delivered' : 'gave_up', attempts: attempt, lastStatus, lastError, nextAttemptAt: null } };
  }

  /** When the earliest message is due (ms), or null when the outbox is empty. */
  earliest(): number | null {
    return earliestOutboxDue(this.sql);
  }

  size(): number {
    return countOutboxMessages(this.sql);
  }
}
