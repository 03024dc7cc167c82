import { env } from 'cloudflare:workers';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { readWebhookSecret } from '../../../src/db/webhook-secrets.ts';
import { signWebhook } from '../../../src/watches/webhooks/signing.ts';
import { call, createKey, createOrganization } from '../../helpers/fixtures.ts';

const PATH = '/api/v1/oms/webhooks/secret';

async function createSecret(key: string, body?: unknown) {
  const response = await call(PATH, { key, method: 'POST', ...(body === undefined ? {} : { body }) });
  return { response, body: await response.json<Record<string, unknown>>() };
}

describe('POST /api/v1/oms/webhooks/secret', () => {
  it('answers 201 with a new whsec_ secret, not cached, and stores exactly that secret for the organization', async () => {
    const org = await createOrganization();
    const { response, body } = await createSecret(org.key);
    expect(response.status).toBe(201);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'secret']);
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Date.parse(body.createdAt as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(await readWebhookSecret(env.DB, org.id)).toEqual({ secret: body.secret, createdAt: body.createdAt });
    // What the organization's receiver is given verifies what Recon signs with the stored secret.
    const stored = (await readWebhookSecret(env.DB, org.id))!.secret;
    const headers = await signWebhook({ secret: stored, messageId: 'exe_1', timestamp: Math.floor(Date.now() / 1000), body: '{"ok":true}' });
    expect(new Webhook(body.secret as string).verify('{"ok":true}', { ...headers })).toEqual({ ok: true });
  });

  it('rotates: each call replaces the secret, and the old one no longer verifies', async () => {
    const org = await createOrganization();
    const first = (await createSecret(org.key, {})).body.secret as string;
    const second = await createSecret(org.key);
    expect(second.response.status).toBe(201);
    expect(second.body.secret).not.toBe(first);
    const stored = (await readWebhookSecret(env.DB, org.id))!.secret;
    expect(stored).toBe(second.body.secret);
    const headers = await signWebhook({ secret: stored, messageId: 'm', timestamp: Math.floor(Date.now() / 1000), body: '{}' });
    expect(() => new Webhook(first).verify('{}', { ...headers })).toThrow();
  });

  it('needs oms:write, and a refused key changes nothing', async () => {
    const org = await createOrganization();
    const { body: made } = await createSecret(org.key);
    for (const scopes of [['oms:read'], ['commands'], ['oms:approve']] as const) {
      const { key } = await createKey(org.id, scopes);
      const { response, body } = await createSecret(key);
      expect(response.status, scopes.join()).toBe(403);
      expect(body).toMatchObject({ error: 'access_denied', message: expect.stringContaining("lacks the 'oms:write' scope") });
    }
    expect((await readWebhookSecret(env.DB, org.id))!.secret).toBe(made.secret);
    const writer = await createKey(org.id, ['oms:write']);
    expect((await createSecret(writer.key)).response.status).toBe(201);
    expect((await call(PATH, { method: 'POST' })).status).toBe(401);
  });

  it('refuses a body with fields or that is not a JSON object, storing nothing', async () => {
    const org = await createOrganization();
    const unknown = await createSecret(org.key, { secret: 'whsec_mine' });
    expect(unknown.response.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'invalid_input', details: [{ path: 'secret', message: "unknown field 'secret'" }] });
    const notObject = await call(PATH, { key: org.key, method: 'POST', rawBody: '[1]' });
    expect(notObject.status).toBe(400);
    const malformed = await call(PATH, { key: org.key, method: 'POST', rawBody: '{' });
    expect(malformed.status).toBe(400);
    expect(await readWebhookSecret(env.DB, org.id)).toBeNull();
  });

  it('keeps organizations apart: rotating one leaves the other as it was', async () => {
    const a = await createOrganization();
    const b = await createOrganization();
    const secretA = (await createSecret(a.key)).body.secret;
    const secretB = (await createSecret(b.key)).body.secret;
    expect(secretA).not.toBe(secretB);
    await createSecret(a.key);
    expect((await readWebhookSecret(env.DB, b.id))!.secret).toBe(secretB);
    expect((await readWebhookSecret(env.DB, a.id))!.secret).not.toBe(secretA);
  });

  it('has no way to read the secret back: no GET, and nothing else under /oms/webhooks', async () => {
    const org = await createOrganization();
    const { body } = await createSecret(org.key);
    for (const [method, path] of [
      ['GET', PATH],
      ['GET', '/api/v1/oms/webhooks'],
      ['PUT', PATH],
      ['DELETE', PATH],
    ] as const) {
      const response = await call(path, { key: org.key, method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.text()).not.toContain(body.secret as string);
    }
  });

  it('is in the OpenAPI document with its scope, 201 body and errors', async () => {
    const document = await (await call('/api/v1/openapi.json')).json<{
      paths: Record<string, Record<string, { operationId: string; 'x-required-scope': string; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    }>();
    const operation = document.paths['/api/v1/oms/webhooks/secret']?.post;
    expect(operation).toMatchObject({ operationId: 'createWebhookSecret', 'x-required-scope': 'oms:write' });
    expect(Object.keys(operation!.responses).sort()).toEqual(['201', '400', '401', '403', '413', '429', '500']);
    expect(Object.keys(document.components.schemas.WebhookSecret?.properties ?? {}).sort()).toEqual(['createdAt', 'secret']);
    expect(document.paths['/api/v1/oms/webhooks/secret']?.get).toBeUndefined();
  });
});
