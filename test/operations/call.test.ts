import { env } from 'cloudflare:workers';
import { createExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import type { RateBucket } from '../../src/ground/rate-limit.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { call, clientAddress, createKey, createOrganization } from '../helpers/fixtures.ts';
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

  it('spends every REST operation\'s token from the bucket its declaration names, before it reads the body', async () => {
    const org = await createOrganization();
    const limiters = countingLimiters(false);
    const routes = OPERATIONS.flatMap((operation) => (operation.rest ? [{ ...operation.rest, bucket: operation.bucket }] : []));
    expect(routes.filter((route) => route.bucket === 'commands').length).toBeGreaterThan(5);
    for (const { method, path, bucket } of routes) {
      const concrete = `/api/v1${path.replace(/\{\w+\}/g, 'x1')}`;
      const body = method === 'get' ? undefined : untouchedBody();
      const response = await request(limiters, method.toUpperCase(), concrete, org.key, body?.stream);
      expect(response.status, `${method} ${concrete}`).toBe(429);
      expect(limiters.spent.splice(0), `${method} ${concrete}`).toEqual([bucket]);
      expect(body?.read() ?? false, `${method} ${concrete} read its body`).toBe(false);
    }
  });

  it('spends before the body limit: a refused token is 429 whatever the body\'s size, a spent one 413 over the limit', async () => {
    const org = await createOrganization();
    const oversized = { 'Content-Type': 'application/json', 'Content-Length': String(256 * 1024 + 1) };
    const refusing = countingLimiters(false);
    expect((await request(refusing, 'POST', '/api/v1/oms/objects/search', org.key, 'x'.repeat(256 * 1024 + 1), oversized)).status).toBe(429);
    const allowing = countingLimiters(true);
    expect((await request(allowing, 'POST', '/api/v1/oms/objects/search', org.key, 'x'.repeat(256 * 1024 + 1), oversized)).status).toBe(413);
    expect(allowing.spent).toEqual(['reads']);
  });

  it('spends a token for a request that reaches no operation: a command token for a POST under /commands/, else a read', async () => {
    const org = await createOrganization();
    const cases: [string, string, RateBucket, number][] = [
      ['POST', '/api/v1/commands/no-such-command', 'commands', 404],
      ['POST', '/api/v1/commands/a/b', 'commands', 404],
      ['POST', '/api/v1/commands/', 'commands', 404],
      ['POST', '/api/v1/commands', 'reads', 404],
      ['GET', '/api/v1/commands/research', 'reads', 404],
      ['GET', '/api/v1/no-such-route', 'reads', 404],
      ['DELETE', '/api/v1/profile', 'reads', 404],
      ['GET', '/api/v1', 'reads', 404],
    ];
    for (const [method, path, bucket, status] of cases) {
      const limiters = countingLimiters(true);
      const response = await request(limiters, method, path, org.key, method === 'POST' ? '{}' : undefined);
      expect(response.status, `${method} ${path}`).toBe(status);
      expect(limiters.spent, `${method} ${path}`).toEqual([bucket]);
      const refusing = countingLimiters(false);
      expect((await request(refusing, method, path, org.key, method === 'POST' ? '{' : undefined)).status, `${method} ${path}`).toBe(429);
    }
  });

  it('spends one token per MCP message, from the bucket of the tool it calls, and never a second for the tool\'s operation', async () => {
    const org = await createOrganization();
    const rpc = async (message: unknown) => {
      const limiters = countingLimiters(true);
      const response = await request(limiters, 'POST', '/api/mcp', org.key, JSON.stringify(message), {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      });
      expect(response.status).toBe(200);
      return limiters.spent;
    };
    expect(await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'help', arguments: {} } })).toEqual(['commands']);
    expect(await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get-profile', arguments: {} } })).toEqual(['reads']);
    expect(await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).toEqual(['reads']);
  });
});

/** The two rate-limit bindings, recording which one each call spends from; `allow`: whether they let calls through. */
function countingLimiters(allow: boolean) {
  const spent: RateBucket[] = [];
  const limiter = (bucket: RateBucket): RateLimit => ({
    limit: async () => {
      spent.push(bucket);
      return { success: allow };
    },
  });
  return { spent, bindings: { COMMAND_RATE_LIMITER: limiter('commands'), READ_RATE_LIMITER: limiter('reads') } };
}

const environments = new WeakMap<object, Env>();

/** Calls the app with the limiters in place of the rate-limit bindings (one Env per set, so its configuration is read once). */
function request(
  limiters: ReturnType<typeof countingLimiters>,
  method: string,
  path: string,
  key: string,
  body?: BodyInit,
  headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' },
): Promise<Response> {
  let environment = environments.get(limiters);
  if (!environment) {
    environment = { ...env, ...limiters.bindings };
    environments.set(limiters, environment);
  }
  const init = { method, body, headers: { ...headers, Authorization: `Bearer ${key}`, 'CF-Connecting-IP': clientAddress() } };
  return Promise.resolve(app.fetch(new Request(`https://recon.test${path}`, init), environment, createExecutionContext()));
}

/** A JSON body that records whether anyone asked for its bytes. */
function untouchedBody(): { stream: ReadableStream<Uint8Array>; read: () => boolean } {
  let read = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        read = true;
        controller.enqueue(new TextEncoder().encode('{}'));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, read: () => read };
}
