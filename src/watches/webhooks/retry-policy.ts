/**
 * When a failed webhook delivery is tried again: 30 s, 2 min, 10 min, 1 h and 4 h after attempts
 * 1 to 5, each stretched or shrunk by up to 10% at random (so receivers that fail together are not
 * retried together); after the 6th attempt fails, the message is given up (about 5 h 12 min after
 * the first). Every failure is retried, whatever the status: receivers answer 4xx while deploying
 * too. The watch object keeps the pending message (id, payload, attempts) in its storage and arms
 * its alarm for the returned time.
 */

export const WEBHOOK_MAX_ATTEMPTS = 6;
const DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 14_400_000] as const;
const JITTER = 0.1;

/**
 * The wait before attempt `attempt + 1`, given that attempt `attempt` (1-based) just failed; null
 * when no attempt is left. `random` (default Math.random) returns a number in [0, 1).
 */
export function webhookRetryDelayMs(attempt: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt is a whole number from 1, not ${attempt}`);
  const base = DELAYS_MS[attempt - 1];
  if (base === undefined || attempt >= WEBHOOK_MAX_ATTEMPTS) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** What the watch object does after attempt `attempt` of a message. */
export type NextDelivery = { kind: 'delivered' } | { kind: 'retry'; at: Date; attempt: number } | { kind: 'gave_up'; attempts: number };

/** The next step after attempt `attempt` (1-based) ended `ok` or not at `now`. */
export function nextDelivery(attempt: number, ok: boolean, now: Date, random: () => number = Math.random): NextDelivery {
  if (ok) return { kind: 'delivered' };
  const delay = webhookRetryDelayMs(attempt, random);
  return delay === null ? { kind: 'gave_up', attempts: attempt } : { kind: 'retry', at: new Date(now.getTime() + delay), attempt: attempt + 1 };
}
