import { TIER_PRICE_MICROS, type WatchStatus, type WatchTier } from '../ground/schemas/watch.ts';

/**
 * A watch's money and failure policy, as pure functions (the watch object applies them to its
 * stored ledger). `spentMicros` never passes `costCapMicros`: an execution is admitted only when
 * what is spent, plus what executions in flight have reserved, plus its own price fits the cap.
 */

/** Failed executions in a row after which a watch is `failing` (it keeps running on its schedule). */
export const FAILURES_BEFORE_FAILING = 5;
/** The first retry after a failure waits this long; each further failure doubles it. */
export const FIRST_RETRY_SECONDS = 60;

export function priceOf(tier: WatchTier): number {
  return TIER_PRICE_MICROS[tier];
}

export interface Budget {
  tier: WatchTier;
  costCapMicros: number;
  spentMicros: number;
}

/** Whether one more execution fits the cap, next to `reservedMicros` already promised to executions in flight. */
export function canPay(budget: Budget, reservedMicros = 0): boolean {
  return budget.spentMicros + reservedMicros + priceOf(budget.tier) <= budget.costCapMicros;
}

/** The status after a charged execution: `capped` as soon as the rest of the budget cannot pay for another. */
export function statusAfterCharge(budget: Budget): WatchStatus {
  return canPay(budget) ? 'active' : 'capped';
}

/**
 * How long to wait before retrying after the `failures`-th failure in a row: 1 minute, 2, 4 and so
 * on, always less than the watch's period (at most half of it), so a retry never crowds out the
 * next scheduled execution. No retry once the watch is failing: it keeps to its schedule then.
 */
export function retryDelaySeconds(failures: number, frequencySeconds: number): number | null {
  if (failures < 1 || failures >= FAILURES_BEFORE_FAILING) return null;
  return Math.min(FIRST_RETRY_SECONDS * 2 ** (failures - 1), Math.floor(frequencySeconds / 2));
}
