import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../src/ground/errors.ts';
import type { AppEnv } from '../../src/env.ts';
import { accessLog, accessLogRate, SLOW_REQUEST_MS } from '../../src/middleware/access-log.ts';
import { toHttpResponse } from '../../src/middleware/error-response.ts';
import { call } from '../helpers/fixtures.ts';

const ok = { path: '/api/v1/commands', status: 200, durationMs: 3, outcome: 'ok' };

describe('which requests the access log writes', () => {
  it('always logs a failed request: an error code, or a status of 400 and above', () => {
    expect(accessLogRate({ ...ok, status: 401, outcome: 'unauthorized' }, 0.01)).toBe(1);
    expect(accessLogRate({ ...ok, status: 500, outcome: 'internal' }, 0)).toBe(1);
    expect(accessLogRate({ ...ok, status: 404, outcome: 'ok' }, 0)).toBe(1);
    // An MCP tool that answered isError: 200, but its error code.
    expect(accessLogRate({ ...ok, path: '/api/mcp', outcome: 'onboarding_required' }, 0)).toBe(1);
    expect(accessLogRate({ ...ok, path: '/healthz', status: 500, outcome: 'internal' }, 0)).toBe(1);
  });

  it('always logs a slow request, /healthz included', () => {
    expect(accessLogRate({ ...ok, durationMs: SLOW_REQUEST_MS }, 0)).toBe(1);
    expect(accessLogRate({ ...ok, path: '/healthz', durationMs: SLOW_REQUEST_MS + 1 }, 0)).toBe(1);
    expect(accessLogRate({ ...ok, durationMs: SLOW_REQUEST_MS - 1 }, 0.01)).toBe(0.01);
  });

  it('never logs a fast, successful /healthz, and samples other successful requests at the configured rate', () => {
    expect(accessLogRate({ ...ok, path: '/healthz' }, 1)).toBe(0);
    expect(accessLogRate(ok, 0.01)).toBe(0.01);
    expect(accessLogRate(ok, 1)).toBe(1);
    expect(accessLogRate(ok, 0)).toBe(0);
  });
});

/** A small app with the access log, the error funnel and a route that succeeds or fails on demand. */
function appWith(random: () => number, sampleRate: string) {
  const app = new Hono<AppEnv>();
  app.use(requestId(), accessLog({ random }));
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/ok', (c) => c.text('fine'));
  app.get('/fail', () => {
    throw new DomainError('invalid_input', 'no');
  });
  app.onError(toHttpResponse);
  const sampled = { ...env, ACCESS_LOG_SAMPLE_RATE: sampleRate } as Env;
  return async (path: string) => app.request(path, {}, sampled, { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext);
}

async function logged(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((event) => event.event === 'request');
}

describe('the access log middleware samples successful requests only', () => {
  it('skips a successful request whose draw is above the rate, and logs one below it with its sampleRate', async () => {
    const above = appWith(() => 0.5, '0.25');
    expect(await logged(() => above('/ok'))).toEqual([]);
    const below = appWith(() => 0.1, '0.25');
    expect(await logged(() => below('/ok'))).toEqual([expect.objectContaining({ path: '/ok', status: 200, outcome: 'ok', sampleRate: 0.25 })]);
  });

  it('logs every failed request whatever the draw, with sampleRate 1', async () => {
    const request = appWith(() => 0.99, '0');
    expect(await logged(() => request('/fail'))).toEqual([
      expect.objectContaining({ path: '/fail', status: 400, outcome: 'invalid_input', sampleRate: 1 }),
    ]);
    expect(await logged(() => request('/nowhere'))).toEqual([expect.objectContaining({ path: '/nowhere', status: 404, sampleRate: 1 })]);
  });

  it('never logs a successful /healthz, even at rate 1', async () => {
    const request = appWith(() => 0, '1');
    const response = await request('/healthz');
    expect(response.status).toBe(200);
    expect(await logged(() => request('/healthz'))).toEqual([]);
  });

  it('logs every request of the Worker at rate 1 (the tests\' setting), never a key', async () => {
    expect(env.ACCESS_LOG_SAMPLE_RATE).toBe('1');
    const events = await logged(() => call('/api/v1/commands', { key: 'rk_live_not_a_real_key_000000000000000000000000' }));
    expect(events).toEqual([expect.objectContaining({ path: '/api/v1/commands', status: 401, outcome: 'unauthorized', sampleRate: 1 })]);
    expect(JSON.stringify(events)).not.toContain('rk_live_not_a_real_key');
  });
});
