import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { WatchObject } from '../../../src/watches/watch-object.ts';
import { randomId } from '../../../src/ground/api-key.ts';
import { ATTEMPT_LEASE_MS, OUTBOX_MAX_MESSAGES, WebhookOutbox } from '../../../src/watches/webhooks/outbox.ts';

/** Runs `body` with an outbox in the storage of a fresh watch object (no watch in it). */
function withOutbox<T>(body: (outbox: WebhookOutbox) => T): Promise<T> {
  return runInDurableObject(env.WATCHES.getByName(randomId('wch')), (instance: WatchObject) => body(new WebhookOutbox(instance.sql.bind(instance))));
}

const message = (n: number) => ({ messageId: `wex_${n}`, execSeq: n, url: 'https://hooks.example.com/recon', payload: `{"n":${n}}` });

describe('the webhook outbox', () => {
  it('hands out due messages oldest execution first, each leased so it is not handed out twice', async () => {
    await withOutbox((outbox) => {
      const now = 1_000_000;
      outbox.enqueue(message(2), now);
      outbox.enqueue(message(1), now);
      outbox.enqueue(message(3), now + 5_000);
      expect(outbox.takeDue(now)?.messageId).toBe('wex_1');
      expect(outbox.takeDue(now)?.messageId).toBe('wex_2');
      expect(outbox.takeDue(now)).toBeNull();
      expect(outbox.earliest()).toBe(now + 5_000);
      // A lease that ends (the object was evicted mid-attempt) makes the message due again.
      expect(outbox.takeDue(now + ATTEMPT_LEASE_MS)?.messageId).toBe('wex_1');
      // Enqueuing the same execution twice keeps one message.
      outbox.enqueue(message(3), now);
      expect(outbox.size()).toBe(3);
    });
  });

  it('records attempts on the retry policy: retry, then delivered or given up, removing the message', async () => {
    await withOutbox((outbox) => {
      const now = new Date(2_000_000);
      outbox.enqueue(message(1), now.getTime());
      const first = outbox.takeDue(now.getTime())!;
      const retry = outbox.record(first, { ok: false, status: 500, error: 'HTTP 500' }, now, () => 0.5);
      expect(retry).toEqual({ execSeq: 1, state: { state: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500', nextAttemptAt: new Date(2_030_000).toISOString() } });
      expect(outbox.takeDue(2_029_999)).toBeNull();
      const second = outbox.takeDue(2_030_000)!;
      expect(second.attempts).toBe(1);
      expect(outbox.record(second, { ok: true, status: 204 }, now, () => 0.5).state).toEqual({ state: 'delivered', attempts: 2, lastStatus: 204, lastError: null, nextAttemptAt: null });
      expect(outbox.size()).toBe(0);

      outbox.enqueue(message(2), 0);
      let last;
      for (let attempt = 1; attempt <= 6; attempt++) {
        const taken = outbox.takeDue(Number.MAX_SAFE_INTEGER - ATTEMPT_LEASE_MS)!;
        expect(taken.attempts).toBe(attempt - 1);
        last = outbox.record(taken, { ok: false, error: 'timed out after 10 s' }, now, () => 0.5);
      }
      expect(last!.state).toEqual({ state: 'gave_up', attempts: 6, lastStatus: null, lastError: 'timed out after 10 s', nextAttemptAt: null });
      expect(outbox.size()).toBe(0);
    });
  });

  it(`keeps at most ${OUTBOX_MAX_MESSAGES} messages: one more gives up the oldest`, async () => {
    await withOutbox((outbox) => {
      for (let n = 1; n <= OUTBOX_MAX_MESSAGES; n++) expect(outbox.enqueue(message(n), 0)).toEqual([]);
      const dropped = outbox.enqueue(message(OUTBOX_MAX_MESSAGES + 1), 0);
      expect(dropped).toEqual([
        { execSeq: 1, state: { state: 'gave_up', attempts: 0, lastStatus: null, lastError: `given up unsent: more than ${OUTBOX_MAX_MESSAGES} deliveries were waiting`, nextAttemptAt: null } },
      ]);
      expect(outbox.size()).toBe(OUTBOX_MAX_MESSAGES);
      expect(outbox.takeDue(0)?.messageId).toBe('wex_2');
    });
  });
});
