/**
 * Webhook signing the Standard Webhooks way (https://www.standardwebhooks.com), with WebCrypto only.
 *
 * A message carries three headers: `webhook-id` (unique per message, the same on every retry of it),
 * `webhook-timestamp` (unix seconds of this attempt) and `webhook-signature`:
 * `v1,<base64(HMAC-SHA256(secretBytes, "<id>.<timestamp>.<body>"))>`. The secret is
 * `whsec_<base64 of 32 random bytes>`; secretBytes are those 32 bytes. A receiver verifies with any
 * Standard Webhooks library (`new Webhook(secret).verify(body, headers)` in the `standardwebhooks`
 * npm package), which also refuses timestamps more than 5 minutes away from its clock.
 */
import { fromBase64, toBase64 } from '../../ground/encoding.ts';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new organization secret: `whsec_` + base64 of 32 random bytes (50 characters). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
}

/** The key bytes of a `whsec_` secret; throws when it is not one (never for a generated secret). */
export function webhookSecretBytes(secret: string): Uint8Array<ArrayBuffer> {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error('A webhook secret starts with whsec_.');
  const bytes = fromBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length));
  if (!bytes) throw new Error('A webhook secret is whsec_ followed by base64.');
  if (bytes.length === 0) throw new Error('A webhook secret cannot be empty.');
  return bytes;
}

/** The three Standard Webhooks headers of one attempt. */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The headers that sign `body` (the exact string sent) as message `messageId` at `timestamp`
 * (unix seconds). Sign every attempt afresh: the id stays, the timestamp is the attempt's own.
 */
export async function signWebhook(input: { secret: string; messageId: string; timestamp: number; body: string }): Promise<WebhookSignatureHeaders> {
  const { secret, messageId, timestamp, body } = input;
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new Error('A webhook timestamp is a whole number of unix seconds.');
  const key = await crypto.subtle.importKey('raw', webhookSecretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${messageId}.${timestamp}.${body}`));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${toBase64(new Uint8Array(mac))}`,
  };
}
