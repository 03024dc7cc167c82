/**
 * Watch webhooks: after each execution the watch object POSTs the execution record to the watch's
 * `webhook.url`, signed with the organization's secret the Standard Webhooks way, and retries
 * failures on its own alarm (retry-policy.ts). Delivery never blocks or undoes the execution or its
 * charge.
 */
export { deliverWebhook, WEBHOOK_MAX_PAYLOAD_BYTES, WEBHOOK_TIMEOUT_MS, type DeliveryInput, type DeliveryResult } from './delivery.ts';
export { nextDelivery, WEBHOOK_MAX_ATTEMPTS, webhookRetryDelayMs, type NextDelivery } from './retry-policy.ts';
export { ensureWebhookSecret, rotateWebhookSecret, webhookSecretOf } from './secrets.ts';
export { generateWebhookSecret, signWebhook, type WebhookSignatureHeaders } from './signing.ts';
export { webhookUrlOptions } from './url-options.ts';
export { checkWebhookUrl, WEBHOOK_URL_MAX_LENGTH, type WebhookUrlCheck, type WebhookUrlOptions } from './url-policy.ts';
