import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';

describe('REST authentication', () => {
  it.each(['/api/v1/commands', '/api/v1/profile', '/api/v1/runs', '/api/v1/no-such-route'])(
    'answers %s without a key with 401 JSON and WWW-Authenticate',
    async (path) => {
      const response = await call(path);
      expect(response.status).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
      expect(response.headers.get('Content-Type')).toMatch(/application\/json/);
      const body = await response.json<{ error: string; message: string; requestId: string }>();
      expect(body.error).toBe('unauthorized');
      expect(body.message).toMatch(/Authorization: Bearer/);
      expect(body.requestId).toBe(response.headers.get('X-Request-Id'));
    },
  );

  it('rejects an invalid key', async () => {
    const response = await call('/api/v1/commands', { key: 'rk_live_thisisnotarealkeybutlooksfine000000000000' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      error: 'unauthorized',
      message:
        "Invalid API key: send the header Authorization: Bearer rk_... with an API key of your organization (your organization's admin creates keys).",
    });
  });

  it('accepts a valid key', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands', { key: org.key });
    expect(response.status).toBe(200);
  });

  it('rejects a key revoked before this isolate first saw it', async () => {
    const org = await createOrganization();
    const { env } = await import('cloudflare:workers');
    await env.DB.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').bind(new Date().toISOString(), org.keyId).run();
    const response = await call('/api/v1/commands', { key: org.key });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'unauthorized', message: expect.stringMatching(/revoked/) });
  });
});
