import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextDelivery, WEBHOOK_MAX_ATTEMPTS, webhookRetryDelayMs } from '../../../src/watches/webhooks/retry-policy.ts';

const middle = () => 0.5;

describe('webhook retry policy', () => {
  it('waits 30 s, 2 min, 10 min, 1 h and 4 h after attempts 1 to 5, and gives up after the 6th', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => webhookRetryDelayMs(attempt, middle))).toEqual([30_000, 120_000, 600_000, 3_600_000, 14_400_000, null, null]);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(6);
  });

  it('spreads each wait by at most 10% either way', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const base = webhookRetryDelayMs(attempt, middle)!;
        const delay = webhookRetryDelayMs(attempt, () => r)!;
        return delay >= Math.floor(base * 0.9) && delay <= Math.ceil(base * 1.1);
      }),
    );
    expect(webhookRetryDelayMs(1, () => 0)).toBe(27_000);
    expect(webhookRetryDelayMs(1, () => 0.999999)).toBe(33_000);
  });

  it('refuses an attempt number that is not a whole number from 1', () => {
    for (const attempt of [0, -1, 1.5, Number.NaN]) expect(() => webhookRetryDelayMs(attempt)).toThrow(RangeError);
  });

  it('tells the watch object what to do after each attempt', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(nextDelivery(1, true, now)).toEqual({ kind: 'delivered' });
    expect(nextDelivery(1, false, now, middle)).toEqual({ kind: 'retry', at: new Date('2026-11-23T12:00:30Z'), attempt: 2 });
    expect(nextDelivery(5, false, now, middle)).toEqual({ kind: 'retry', at: new Date('2026-11-23T16:00:00Z'), attempt: 6 });
    expect(nextDelivery(6, false, now, middle)).toEqual({ kind: 'gave_up', attempts: 6 });
    expect(nextDelivery(6, true, now)).toEqual({ kind: 'delivered' });
    // The whole schedule: the last attempt comes about 5 h 12 min 30 s after the first.
    let at = now;
    let attempt = 1;
    for (;;) {
      const next = nextDelivery(attempt, false, at, middle);
      if (next.kind !== 'retry') break;
      ({ at, attempt } = next);
    }
    expect(attempt).toBe(6);
    expect(at.getTime() - now.getTime()).toBe(30_000 + 120_000 + 600_000 + 3_600_000 + 14_400_000);
  });
});
