import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../env.ts';
import { createWebhookSecret, WebhookSecretInput } from '../operations/webhook-secret.ts';
import { readJsonObject } from './json-body.ts';
import { documentedBody, errors, headers, KEYED } from './openapi-parts.ts';

/** POST /api/v1/oms/webhooks/secret: a thin adapter over operations/webhook-secret.ts (scope oms:write). */
export const webhookSecret = new OpenAPIHono<AppEnv>();

const WebhookSecret = z
  .object({
    secret: z
      .string()
      .describe('whsec_ followed by base64 of 32 random bytes. Shown only now: store it where your receiver verifies webhook-signature.'),
    createdAt: z.string().describe('When this secret was made; it signs every webhook from now on.'),
  })
  .openapi('WebhookSecret');

webhookSecret.openapi(
  createRoute({
    method: 'post',
    path: '/secret',
    operationId: 'createWebhookSecret',
    summary: "Create or rotate the organization's webhook signing secret",
    description:
      'Watch webhooks are signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature: v1, HMAC-SHA256 with this secret). ' +
      'Creates the secret, or replaces the current one, which stops signing at once (retries of earlier deliveries are signed with the new one). ' +
      'The answer is the only time the secret is shown; no endpoint reads it back. Send no body, or {}.',
    'x-required-scope': 'oms:write',
    request: { body: documentedBody(webhookSecret, 'WebhookSecretRequest', WebhookSecretInput, { example: {} }) },
    responses: {
      201: {
        description: 'The new secret',
        headers: headers({ 'Cache-Control': z.string().describe('no-store: the secret must not be cached.') }),
        content: { 'application/json': { schema: WebhookSecret } },
      },
      ...errors(400, ...KEYED, 413),
    },
  }),
  async (c) => c.json(await createWebhookSecret(c.var.core, await readJsonObject(c)), 201, { 'Cache-Control': 'no-store' }),
);
