import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook, webhookSecretBytes } from '../../../src/watches/webhooks/signing.ts';

// The independent verifier is the official `standardwebhooks` npm package (the reference
// JavaScript library of https://www.standardwebhooks.com), never our own code.

const now = () => Math.floor(Date.now() / 1000);

describe('Standard Webhooks signing', () => {
  it('makes whsec_ secrets of 32 random bytes in base64, a new one each time', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateWebhookSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(webhookSecretBytes(secret)).toHaveLength(32);
    }
  });

  it('signs the spec example exactly as the reference library does', async () => {
    // The example of the Standard Webhooks libraries' own tests.
    const headers = await signWebhook({
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      messageId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
    const reference = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330_000), '{"test": 2432232314}');
    expect(headers['webhook-signature']).toBe(reference);
  });

  it('is verified by the reference library for generated secrets and bodies of every kind', async () => {
    const bodies = ['{}', JSON.stringify({ id: 'exe_1', outcome: 'succeeded', changes: [{ property: 'name', from: 'Ä', to: '名前 🚀' }] }), '"a\\nb"', JSON.stringify('x'.repeat(100_000))];
    for (const body of bodies) {
      const secret = generateWebhookSecret();
      const headers = await signWebhook({ secret, messageId: `msg_${crypto.randomUUID()}`, timestamp: now(), body });
      expect(new Webhook(secret).verify(body, { ...headers }), body.slice(0, 40)).toEqual(JSON.parse(body));
    }
  });

  it('fails the reference verification when the body, id, timestamp or secret differ', async () => {
    const secret = generateWebhookSecret();
    const body = '{"outcome":"succeeded"}';
    const headers = await signWebhook({ secret, messageId: 'msg_1', timestamp: now(), body });
    const refused = (verify: () => unknown) => expect(verify).toThrow(WebhookVerificationError);
    refused(() => new Webhook(secret).verify('{"outcome":"failed"}', { ...headers }));
    refused(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' }));
    refused(() => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) }));
    refused(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers }));
    // A timestamp older than the verifier's 5-minute tolerance is refused even when correctly signed.
    const old = await signWebhook({ secret, messageId: 'msg_1', timestamp: now() - 600, body });
    refused(() => new Webhook(secret).verify(body, { ...old }));
  });

  it('refuses a secret that is not whsec_ base64, and a timestamp that is not whole seconds', async () => {
    for (const secret of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_', 'whsec_%%%']) {
      await expect(signWebhook({ secret, messageId: 'm', timestamp: 1, body: '{}' }), secret).rejects.toThrow(/webhook secret/);
    }
    await expect(signWebhook({ secret: generateWebhookSecret(), messageId: 'm', timestamp: 1.5, body: '{}' })).rejects.toThrow(/unix seconds/);
  });
});
