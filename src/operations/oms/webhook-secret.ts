import { z } from 'zod';
import type { CoreContext } from '../../ground/context.ts';
import { assertScope } from '../../ground/scopes.ts';
import { rotateWebhookSecret } from '../../watches/webhooks/secrets.ts';

/**
 * POST /api/v1/oms/webhooks/secret: creates the organization's webhook secret, or rotates it (the
 * old one stops signing at once). The answer is the only time the secret is shown; no endpoint
 * reads it back. A watch create that makes the first secret shows it too (ensureWebhookSecret).
 */

/** The body: nothing (an empty body or `{}`); any field is refused, so a typo is not ignored. */
export const WebhookSecretInput = z.strictObject({});

export interface WebhookSecretView {
  /** `whsec_` + base64 of 32 random bytes: verify deliveries with it (any Standard Webhooks library). */
  secret: string;
  createdAt: string;
}

export async function createWebhookSecret(ctx: CoreContext, now = new Date()): Promise<WebhookSecretView> {
  assertScope(ctx, 'oms:write');
  return rotateWebhookSecret(ctx.db, ctx.principal.organization.id, now);
}
