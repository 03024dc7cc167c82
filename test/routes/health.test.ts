import { describe, expect, it } from 'vitest';
import { call } from '../helpers/fixtures.ts';

describe('GET /healthz', () => {
  it('answers without a key and carries a request id', async () => {
    const response = await call('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('X-Request-Id')).toMatch(/\S+/);
  });
});
