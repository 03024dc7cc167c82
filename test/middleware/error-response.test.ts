import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../src/ground/errors.ts';
import type { AppEnv } from '../../src/env.ts';
import { toHttpResponse } from '../../src/middleware/error-response.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';

function appThrowing(error: unknown) {
  const app = new Hono<AppEnv>();
  app.use(requestId());
  app.get('/boom', () => {
    throw error;
  });
  app.onError(toHttpResponse);
  return app;
}

describe('the error funnel', () => {
  it('turns an unexpected error into 500 internal without leaking its message or stack', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await appThrowing(new Error('db password is hunter2')).request('/boom');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(text).not.toMatch(/at .*\.ts/);
    const body = JSON.parse(text) as { error: string; message: string; requestId: string };
    expect(body.error).toBe('internal');
    expect(body.message).toContain(body.requestId);
    // The detail goes to the log, with the request id to find it by.
    const logs = logged.mock.calls.map((args) => JSON.parse(String(args[0])) as Record<string, unknown>);
    expect(logs).toContainEqual(
      expect.objectContaining({ event: 'unexpected_error', requestId: body.requestId, error: 'db password is hunter2' }),
    );
    logged.mockRestore();
  });

  it('sends a DomainError as its status, code, details and the headers its facts imply', async () => {
    const error = new DomainError('rate_limited', 'Slow down.', { retryAfterSeconds: 60 });
    const response = await appThrowing(error).request('/boom');
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('60');
    expect(await response.json()).toMatchObject({ error: 'rate_limited', message: 'Slow down.' });

    const timedOut = await appThrowing(new DomainError('timeout', 'Still running.', { run: { id: 'abc', kind: 'audit' } })).request('/boom');
    expect(timedOut.status).toBe(504);
    expect(Object.fromEntries(['X-Run-Id', 'X-Audit-Id', 'Location'].map((name) => [name, timedOut.headers.get(name)]))).toEqual({
      'X-Run-Id': 'abc',
      'X-Audit-Id': 'abc',
      Location: '/api/v1/runs/audit/abc',
    });
    const refused = await appThrowing(new DomainError('method_not_allowed', 'Use GET.', { allow: 'GET' })).request('/boom');
    expect(refused.status).toBe(405);
    expect(refused.headers.get('Allow')).toBe('GET');
    expect(await refused.json()).toMatchObject({ error: 'method_not_allowed', message: 'Use GET.', requestId: expect.any(String) });
  });
});

describe('the Worker never answers with HTML or a stack trace', () => {
  it('answers an unknown path with JSON 404 not_found', async () => {
    const response = await call('/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('Content-Type')).toMatch(/application\/json/);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers an unknown authenticated route with JSON 404 not_found', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/nothing-here', { key: org.key });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers a method the route does not serve with JSON 404 not_found', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands', { key: org.key, method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});
