import { describe, expect, it } from 'vitest';
import { OPERATIONS, restRateBucket } from '../../src/operations/registry/index.ts';
import { call, createKey, createOrganization } from '../helpers/fixtures.ts';
import { startEarlyInWindow } from '../helpers/rate-window.ts';

async function statuses(count: number, request: () => Promise<Response>): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await request()).status);
  return result;
}

describe('rate limiting (wrangler.toml: 60 command calls and 600 reads per minute per key)', () => {
  it('refuses the 61st command call in a minute with 429 and Retry-After', { timeout: 30_000 }, async () => {
    const org = await createOrganization();
    await startEarlyInWindow(8_000);
    const help = () => call('/api/v1/commands/help', { key: org.key, body: {} });
    expect(new Set(await statuses(60, help))).toEqual(new Set([200]));

    const refused = await help();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(await refused.json()).toMatchObject({ error: 'rate_limited', message: 'Rate limited: retry in 60 s. This API key has used up its command calls for this minute.' });

    // Reads have their own budget, and other keys of the same organization theirs.
    expect((await call('/api/v1/profile', { key: org.key })).status).toBe(200);
    const other = await createKey(org.id);
    expect((await call('/api/v1/commands/help', { key: other.key, body: {} })).status).toBe(200);
  });

  it('refuses the 601st read in a minute', { timeout: 60_000 }, async () => {
    const org = await createOrganization();
    await startEarlyInWindow(20_000);
    const read = () => call('/api/v1/commands', { key: org.key });
    const first = await statuses(600, read);
    expect(first.filter((s) => s !== 200)).toEqual([]);
    const refused = await read();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
  });

  it('counts the rate limit only after authentication, so bad keys cannot spend a key\'s budget', async () => {
    expect((await call('/api/v1/commands/help', { key: 'rk_live_nope', body: {} })).status).toBe(401);
  });

  it('puts command runs in the commands bucket and everything else in reads', () => {
    expect(restRateBucket('POST', '/api/v1/commands/research')).toBe('commands');
    expect(restRateBucket('POST', '/api/v1/commands/no-such-command')).toBe('commands');
    expect(restRateBucket('POST', '/api/v1/audit')).toBe('commands');
    expect(restRateBucket('GET', '/api/v1/commands')).toBe('reads');
    expect(restRateBucket('PUT', '/api/v1/profile')).toBe('reads');
    expect(restRateBucket('GET', '/api/v1/no-such-route')).toBe('reads');
  });

  it('charges every REST request the bucket its operation declares', () => {
    const routes = OPERATIONS.flatMap(({ rest, bucket }) => (rest ? [{ method: rest.method.toUpperCase(), path: rest.path, bucket }] : []));
    expect(routes.filter((route) => route.bucket === 'commands').length).toBeGreaterThan(5);
    for (const { method, path, bucket } of routes) {
      const concrete = `/api/v1${path.replace(/\{\w+\}/g, 'x1')}`;
      expect(restRateBucket(method, concrete), `${method} ${concrete}`).toBe(bucket);
    }
  });
});
