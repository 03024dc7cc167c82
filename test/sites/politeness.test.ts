import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSHBACK_MS, MAX_PUSHBACK_MS, pushbackMs, retryAfterMs } from '../../src/sites/politeness.ts';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

describe('retryAfterMs (RFC 9110 Retry-After)', () => {
  it('reads delay-seconds', () => {
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs(' 0 ', NOW)).toBe(0);
    expect(retryAfterMs('1', NOW)).toBe(1_000);
  });

  it('reads an HTTP-date in the future as the time until it, in any of the three forms', () => {
    expect(retryAfterMs('Fri, 27 Nov 2026 12:01:30 GMT', NOW)).toBe(90_000);
    expect(retryAfterMs('Friday, 27-Nov-26 12:01:30 GMT', NOW)).toBe(90_000);
    expect(retryAfterMs('Fri Nov 27 12:01:30 2026', NOW)).toBe(90_000);
    expect(retryAfterMs('Tue Dec  1 12:00:00 2026', NOW)).toBe(4 * 24 * 3_600_000);
  });

  it('reads an HTTP-date in the past as no wait at all', () => {
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(0);
    // A two-digit year more than 50 years ahead is the last century's.
    expect(retryAfterMs('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(0);
  });

  it('refuses garbage: absent, empty, negative, fractional, other time zones, impossible dates, long text', () => {
    for (const header of [undefined, '', '  ', '-5', '1.5', '1e3', 'soon', '0x10', 'Fri, 27 Nov 2026 12:01:30 CET', 'Fri, 31 Feb 2026 12:00:00 GMT', 'Fri, 27 Nov 2026 25:00:00 GMT', '2026-11-27T12:01:30Z', `${'9'.repeat(65)}`]) {
      expect(retryAfterMs(header, NOW), String(header)).toBeUndefined();
    }
  });

  it('reads a huge delay as asked, at most Number.MAX_SAFE_INTEGER ms', () => {
    expect(retryAfterMs('86400', NOW)).toBe(86_400_000);
    expect(retryAfterMs('9'.repeat(30), NOW)).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('pushbackMs', () => {
  it('caps the pause at MAX_PUSHBACK_MS and pauses DEFAULT_PUSHBACK_MS without a valid header', () => {
    expect(pushbackMs('86400', NOW)).toBe(MAX_PUSHBACK_MS);
    expect(MAX_PUSHBACK_MS).toBe(120_000);
    expect(pushbackMs('1', NOW)).toBe(1_000);
    expect(pushbackMs(undefined, NOW)).toBe(DEFAULT_PUSHBACK_MS);
    expect(pushbackMs('later', NOW)).toBe(DEFAULT_PUSHBACK_MS);
    expect(pushbackMs('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(0);
  });
});
