import { describe, expect, it } from 'vitest';
import { canPay, retryDelaySeconds, statusAfterCharge } from '../../src/watches/ledger.ts';

describe('the ledger policy', () => {
  it('admits an execution only when spent, reserved and its price fit the cap', () => {
    expect(canPay({ tier: 'lite', costCapMicros: 9000, spentMicros: 6000 })).toBe(true);
    expect(canPay({ tier: 'lite', costCapMicros: 9000, spentMicros: 6001 })).toBe(false);
    expect(canPay({ tier: 'lite', costCapMicros: 9000, spentMicros: 3000 }, 3000)).toBe(true);
    expect(canPay({ tier: 'lite', costCapMicros: 9000, spentMicros: 3000 }, 3001)).toBe(false);
    expect(canPay({ tier: 'base', costCapMicros: 19999, spentMicros: 10000 })).toBe(false);
  });

  it('caps a watch as soon as the rest of its budget cannot pay another execution', () => {
    expect(statusAfterCharge({ tier: 'lite', costCapMicros: 9000, spentMicros: 6000 })).toBe('active');
    expect(statusAfterCharge({ tier: 'lite', costCapMicros: 9000, spentMicros: 9000 })).toBe('capped');
    expect(statusAfterCharge({ tier: 'lite', costCapMicros: 10000, spentMicros: 9000 })).toBe('capped');
  });

  it('backs off 1, 2, 4, 8 minutes, within half the period, and not at all once failing', () => {
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(n, 86_400))).toEqual([60, 120, 240, 480]);
    expect(retryDelaySeconds(4, 600)).toBe(300);
    expect(retryDelaySeconds(5, 86_400)).toBeNull();
    expect(retryDelaySeconds(0, 86_400)).toBeNull();
  });
});
