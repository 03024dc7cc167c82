import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import { call } from '../helpers/fixtures.ts';

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

describe('GET /healthz', () => {
  it('answers without a key and carries a request id', async () => {
    const response = await call('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('X-Request-Id')).toMatch(/\S+/);
  });

  it('is answered by the Worker entry as the app answers it, and anything else near it goes to the app', async () => {
    const requests: [string, string][] = [
      ['GET', '/healthz'],
      ['GET', '/healthz?probe=1'],
      ['HEAD', '/healthz'],
      ['POST', '/healthz'],
      ['GET', '/healthz/'],
      ['GET', '/healthzz'],
      ['GET', '/api/healthz'],
    ];
    for (const [method, path] of requests) {
      const make = () => new Request(`https://recon.test${path}`, { method, headers: { 'X-Request-Id': 'probe-1', 'CF-Connecting-IP': '198.18.200.1' } });
      const [viaEntry, viaApp] = [await exports.default.fetch(make()), await app.fetch(make(), env, ctx)];
      expect({ method, path, status: viaEntry.status, body: await viaEntry.text() }).toEqual({ method, path, status: viaApp.status, body: await viaApp.text() });
      expect([...viaEntry.headers].filter(([name]) => name !== 'date')).toEqual([...viaApp.headers].filter(([name]) => name !== 'date'));
    }
  });
});
