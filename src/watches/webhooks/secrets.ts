import { insertWebhookSecretIfAbsent, readWebhookSecret, replaceWebhookSecret, type WebhookSecretRow } from '../../db/webhook-secrets.ts';
import { generateWebhookSecret } from './signing.ts';
import type { Db } from '../../ground/db-session.ts';

/**
 * The organization's webhook secret: created on demand, rotated on request, shown once. Only the
 * operation that creates or rotates it, and the watch create that makes the first one, answer it;
 * everything else reads it only to sign a delivery.
 */

/**
 * The organization's secret, created if it has none. `created` is true only for the call that
 * created it (of two racing calls, one creates and both get the same secret), so a watch create
 * shows the secret exactly once: in the answer of the first watch with a webhook.
 */
export async function ensureWebhookSecret(db: Db, organizationId: string, now = new Date()): Promise<{ secret: string; created: boolean }> {
  const fresh = generateWebhookSecret();
  if (await insertWebhookSecretIfAbsent(db, organizationId, fresh, now.toISOString())) return { secret: fresh, created: true };
  const stored = await readWebhookSecret(db, organizationId);
  if (!stored) throw new Error(`The webhook secret of ${organizationId} was neither inserted nor found.`);
  return { secret: stored.secret, created: false };
}

/** A new secret for the organization, replacing its old one at once (deliveries from now on, retries included, are signed with it). */
export async function rotateWebhookSecret(db: Db, organizationId: string, now = new Date()): Promise<WebhookSecretRow> {
  const row = { secret: generateWebhookSecret(), createdAt: now.toISOString() };
  await replaceWebhookSecret(db, organizationId, row.secret, row.createdAt);
  return row;
}

/** The secret that signs the organization's deliveries, or null when it has none (then nothing is sent). */
export async function webhookSecretOf(db: Db, organizationId: string): Promise<string | null> {
  return (await readWebhookSecret(db, organizationId))?.secret ?? null;
}
