import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/ground/api-key.ts';
import { authenticate, KeyCache } from '../../src/auth/authenticate.ts';
import { RequestDb } from '../../src/db/d1-sessions.ts';
import { clientAddressKey, FailedAuthThrottle } from '../../src/auth/failed-auth-throttle.ts';
import { DomainError } from '../../src/ground/errors.ts';
import { createKey, createOrganization, randomClientAddress } from '../helpers/fixtures.ts';
import { startEarlyInWindow } from '../helpers/rate-window.ts';

function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const noWaitUntil = { waitUntil: () => {} };

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('authenticate', () => {
  it('resolves a valid key to its organization and scopes', async () => {
    const org = await createOrganization({ scopes: ['commands', 'oms:read'] });
    const principal = await authenticate(env, new RequestDb(env), `Bearer ${org.key}`, { ...noWaitUntil, cache: new KeyCache() });
    expect(principal).toEqual({
      keyId: org.keyId,
      scopes: ['commands', 'oms:read'],
      organization: { id: org.id, slug: org.slug, name: `Test ${org.slug}` },
    });
  });

  it.each([
    ['no header', undefined, /Missing API key/],
    ['another scheme', 'Basic abc', /Malformed Authorization/],
    ['a key of the wrong shape', 'Bearer hello', /Invalid API key/],
    ['an unknown key', 'Bearer rk_live_00000000000000000000000000000000000000000zz', /Invalid API key/],
  ])('rejects %s with 401 and WWW-Authenticate', async (_case, header, message) => {
    const error = await rejection(authenticate(env, new RequestDb(env), header, { ...noWaitUntil, cache: new KeyCache() }));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toMatch(message);
    expect(error.challenge).toMatch(/^Bearer/);
  });

  it('stops accepting a revoked key within the 10 s cache bound', async () => {
    const org = await createOrganization();
    const clock = fakeClock();
    const cache = new KeyCache(clock.now);
    const options = { ...noWaitUntil, cache };
    await authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options);

    await env.DB.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').bind(new Date().toISOString(), org.keyId).run();

    clock.advance(9_999);
    await expect(authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options)).resolves.toMatchObject({ keyId: org.keyId });
    clock.advance(1);
    const error = await rejection(authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toMatch(/revoked/);
  });

  it('never caches longer than 10 s, whatever KEY_CACHE_TTL_MS says', async () => {
    const org = await createOrganization();
    const clock = fakeClock();
    const options = { ...noWaitUntil, cache: new KeyCache(clock.now) };
    await authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options);
    await env.DB.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').bind(new Date().toISOString(), org.keyId).run();
    clock.advance(10_000);
    await expect(authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options)).rejects.toThrow(/revoked/);
  });

  it('writes last_used_at at most once a minute per key', async () => {
    const org = await createOrganization();
    const clock = fakeClock();
    const cache = new KeyCache(clock.now);
    const writes: Promise<unknown>[] = [];
    const options = { cache, waitUntil: (p: Promise<unknown>) => writes.push(p) };

    await authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options);
    await authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options);
    clock.advance(59_999);
    await authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options);
    expect(writes).toHaveLength(1);
    await Promise.all(writes);
    const row = await env.DB.prepare('SELECT last_used_at FROM api_keys WHERE id = ?').bind(org.keyId).first<{ last_used_at: string }>();
    expect(row?.last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    clock.advance(1);
    await authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options);
    expect(writes).toHaveLength(2);
    await Promise.all(writes);
  });

  it('keeps found keys while a flood of made-up keys churns the cache of misses', async () => {
    const org = await createOrganization();
    const clock = fakeClock();
    const cache = new KeyCache(clock.now);
    const options = { ...noWaitUntil, cache };
    await authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options);
    const hash = await hashApiKey(org.key);
    for (let i = 0; i < 10_001; i++) cache.set(`made-up-${i}`, null);
    expect(cache.get(hash, 10_000)).toMatchObject({ principal: { keyId: org.keyId } });
    expect(cache.get('made-up-0', 10_000)).toBeUndefined();
    expect(cache.get('made-up-10000', 10_000)).toBeNull();
  });

  it('still looks up a key that was valid lately from an address the failure throttle has blocked', async () => {
    const org = await createOrganization();
    const clock = fakeClock();
    const throttle = new FailedAuthThrottle(clock.now);
    const address = randomClientAddress();
    const options = { ...noWaitUntil, cache: new KeyCache(clock.now), throttle, clientAddress: address };
    await authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options);

    await startEarlyInWindow(5_000);
    for (let i = 0; i <= 30; i++) await throttle.recordFailure(env.AUTH_FAILURE_RATE_LIMITER, clientAddressKey(address));
    clock.advance(10_000); // the cache entry has expired: the next call needs a lookup
    await expect(authenticate(env, new RequestDb(env), `Bearer ${org.key}`, options)).resolves.toMatchObject({ keyId: org.keyId });

    const { key: neverSeen } = await createKey(org.id);
    const error = await rejection(authenticate(env, new RequestDb(env), `Bearer ${neverSeen}`, options));
    expect(error.code).toBe('rate_limited');
  });
});
