import { logEvent } from '../../ground/log.ts';
import { deliverWebhook, type DeliveryResult } from './delivery.ts';
import type { OutboxMessage, RecordedAttempt, WebhookOutbox } from './outbox.ts';
import { webhookSecretOf } from './secrets.ts';
import { messageOf } from '../../ground/errors.ts';
import type { Db } from '../../ground/db-session.ts';

/**
 * Sends a watch's due webhook messages, one at a time, in the order the executions finished,
 * each signed with the organization's secret as it is at that attempt. The watch object starts it
 * from its `deliverWebhooks` schedule, detached, and re-arms the schedule when it ends.
 */

export interface Dispatch {
  outbox: WebhookOutbox;
  db: Db;
  /** The watch as it is now (null once gone): whose secret signs, and its id for the logs. */
  watch(): { id: string; organizationId: string } | null;
  fetch: typeof fetch;
  random: () => number;
  /** Writes an attempt's outcome back on its execution record. */
  recorded(attempt: RecordedAttempt): void;
}

/** Sends the due messages one by one, oldest execution first, until none is due. */
export async function deliverDue(dispatch: Dispatch): Promise<void> {
  try {
    for (;;) {
      const message = dispatch.outbox.takeDue(Date.now());
      if (!message) break;
      const result = await attempt(dispatch, message);
      const recorded = dispatch.outbox.record(message, result, new Date(), dispatch.random);
      dispatch.recorded(recorded);
      const event = recorded.state.state === 'pending' ? 'watch_webhook_retry' : recorded.state.state === 'gave_up' ? 'watch_webhook_gave_up' : null;
      if (event) logEvent(event, { watchId: dispatch.watch()?.id, executionId: message.messageId, attempts: recorded.state.attempts, error: recorded.state.lastError });
    }
  } catch (error) {
    // Storage failing mid-delivery: the message keeps its lease and is tried again when it ends.
    logEvent('watch_webhook_error', { watchId: dispatch.watch()?.id, error: messageOf(error) });
  }
}

/** One attempt: the organization's secret as it is now signs it; without one, the attempt fails (and is retried). */
async function attempt(dispatch: Dispatch, message: OutboxMessage): Promise<DeliveryResult> {
  const watch = dispatch.watch();
  if (!watch) return { ok: false, error: 'the watch is gone' };
  let secret: string | null;
  try {
    secret = await webhookSecretOf(dispatch.db, watch.organizationId);
  } catch (error) {
    return { ok: false, error: `the webhook secret could not be read: ${messageOf(error)}` };
  }
  if (!secret) return { ok: false, error: 'your organization has no webhook secret: create one with POST /api/v1/oms/webhooks/secret' };
  return deliverWebhook({ url: message.url, secret, messageId: message.messageId, payload: JSON.parse(message.payload) as unknown, fetch: dispatch.fetch });
}

