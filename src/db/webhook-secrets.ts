import type { Db } from '../ground/db-session.ts';
/**
 * Organization webhook secrets (table webhook_secrets): one `whsec_` secret per organization, which
 * signs every webhook of its watches. Written by POST /api/v1/oms/webhooks/secret (create or
 * rotate) and by the first watch created with a webhook; read only to sign deliveries, never by an
 * endpoint.
 */

export interface WebhookSecretRow {
  secret: string;
  createdAt: string;
}

/** Stores `secret` unless the organization has one; true when it was stored. */
export async function insertWebhookSecretIfAbsent(db: Db, organizationId: string, secret: string, createdAt: string): Promise<boolean> {
  const result = await db
    .prepare('INSERT INTO webhook_secrets (organization_id, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (organization_id) DO NOTHING')
    .bind(organizationId, secret, createdAt)
    .run();
  return result.meta.changes === 1;
}

/** Stores `secret` as the organization's, replacing any it had. */
export async function replaceWebhookSecret(db: Db, organizationId: string, secret: string, createdAt: string): Promise<void> {
  await db
    .prepare(
      `INSERT INTO webhook_secrets (organization_id, secret, created_at) VALUES (?, ?, ?)
       ON CONFLICT (organization_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at`,
    )
    .bind(organizationId, secret, createdAt)
    .run();
}

/** The organization's secret, if it has one. */
export async function readWebhookSecret(db: Db, organizationId: string): Promise<WebhookSecretRow | null> {
  return db
    .prepare('SELECT secret, created_at AS createdAt FROM webhook_secrets WHERE organization_id = ?')
    .bind(organizationId)
    .first<WebhookSecretRow>();
}
