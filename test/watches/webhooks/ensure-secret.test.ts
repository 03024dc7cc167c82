import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readWebhookSecret } from '../../../src/db/webhook-secrets.ts';
import { ensureWebhookSecret, rotateWebhookSecret, webhookSecretOf } from '../../../src/watches/webhooks/secrets.ts';
import { call, createOrganization } from '../../helpers/fixtures.ts';

describe('ensureWebhookSecret (for the first watch created with a webhook)', () => {
  it('creates the secret once: created is true for that call only, and later calls get the same secret', async () => {
    const org = await createOrganization();
    expect(await webhookSecretOf(env.DB, org.id)).toBeNull();
    const first = await ensureWebhookSecret(env.DB, org.id);
    expect(first.created).toBe(true);
    expect(first.secret).toMatch(/^whsec_/);
    expect(await ensureWebhookSecret(env.DB, org.id)).toEqual({ secret: first.secret, created: false });
    expect(await webhookSecretOf(env.DB, org.id)).toBe(first.secret);
  });

  it('of many racing calls, exactly one creates, and all get the one stored secret', async () => {
    const org = await createOrganization();
    const results = await Promise.all(Array.from({ length: 8 }, () => ensureWebhookSecret(env.DB, org.id)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const stored = (await readWebhookSecret(env.DB, org.id))!.secret;
    for (const result of results) expect(result.secret).toBe(stored);
  });

  it('keeps a secret made by the endpoint, and after a rotation answers the new one', async () => {
    const org = await createOrganization();
    const shown = await (await call('/api/v1/oms/webhooks/secret', { key: org.key, method: 'POST' })).json<{ secret: string }>();
    expect(await ensureWebhookSecret(env.DB, org.id)).toEqual({ secret: shown.secret, created: false });
    const rotated = await rotateWebhookSecret(env.DB, org.id);
    expect(await ensureWebhookSecret(env.DB, org.id)).toEqual({ secret: rotated.secret, created: false });
  });

  it('keeps organizations apart', async () => {
    const a = await createOrganization();
    const b = await createOrganization();
    const secretA = await ensureWebhookSecret(env.DB, a.id);
    const secretB = await ensureWebhookSecret(env.DB, b.id);
    expect(secretB.created).toBe(true);
    expect(secretB.secret).not.toBe(secretA.secret);
  });
});
