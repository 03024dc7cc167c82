import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { BLOCK_MS, clientAddressKey, FailedAuthThrottle } from '../../src/auth/failed-auth-throttle.ts';
import { DomainError } from '../../src/ground/errors.ts';
import { call, createKey, createOrganization } from '../helpers/fixtures.ts';
import { startEarlyInWindow } from '../helpers/rate-window.ts';

/** wrangler.toml: AUTH_FAILURE_RATE_LIMITER allows 30 failed authentications a minute per address. */
const ALLOWED_FAILURES = 30;

/** A documentation-range address no other test uses. */
function freshAddress(): string {
  const [a, b] = crypto.getRandomValues(new Uint8Array(2));
  return `203.0.${a}.${b}`;
}

function madeUpKey(i: number): string {
  return `rk_live_${String(i).padStart(43, 'x')}`;
}

function restCall(key: string, address: string) {
  return call('/api/v1/profile', { key, headers: { 'CF-Connecting-IP': address } });
}

function mcpCall(key: string, address: string) {
  return call('/api/mcp', {
    key,
    method: 'POST',
    rawBody: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    headers: { 'CF-Connecting-IP': address, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
  });
}

describe('failed authentications are throttled per client address', () => {
  it('groups IPv6 clients by their /64 network', () => {
    expect(clientAddressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddressKey('2001:DB8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey(undefined)).toBe('unknown');
  });

  it('after 30 unknown keys, refuses the address with 429 before any lookup; other addresses and cached keys go on', { timeout: 30_000 }, async () => {
    const org = await createOrganization();
    const flooder = freshAddress();
    const neighbour = freshAddress();
    // Used before the flood, so the isolate has it cached.
    expect((await restCall(org.key, flooder)).status).toBe(200);

    await startEarlyInWindow(10_000);
    const statuses: number[] = [];
    for (let i = 0; i <= ALLOWED_FAILURES; i++) statuses.push((await restCall(madeUpKey(i), flooder)).status);
    expect(new Set(statuses)).toEqual(new Set([401]));

    const refused = await restCall(madeUpKey(1000), flooder);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(BLOCK_MS / 1000);
    expect(await refused.json()).toMatchObject({ error: 'rate_limited', message: expect.stringMatching(/^Rate limited: retry in \d+ s\. Too many requests with unknown or revoked API keys came from your address/) });

    // A real key that this isolate has not looked up yet is refused too: no lookup is made.
    const uncached = await createKey(org.id);
    expect((await restCall(uncached.key, flooder)).status).toBe(429);
    // The MCP door is the same door for keys.
    expect((await mcpCall(madeUpKey(1001), flooder)).status).toBe(429);

    // The cached key still works from there, and the neighbour is not affected at all.
    expect((await restCall(org.key, flooder)).status).toBe(200);
    expect((await restCall(uncached.key, neighbour)).status).toBe(200);
    expect((await restCall(madeUpKey(1002), neighbour)).status).toBe(401);
  });

  it('lifts the block after its period', async () => {
    let now = 1_000_000;
    const throttle = new FailedAuthThrottle(() => now);
    const address = freshAddress();
    await startEarlyInWindow(5_000);
    for (let i = 0; i <= ALLOWED_FAILURES; i++) await throttle.recordFailure(env.AUTH_FAILURE_RATE_LIMITER, address);
    expect(() => throttle.assertAllowed(address)).toThrow(DomainError);
    now += BLOCK_MS - 1;
    expect(() => throttle.assertAllowed(address)).toThrow(/retry in 1 s/);
    now += 1;
    expect(() => throttle.assertAllowed(address)).not.toThrow();
  });
});
