import { checkUrl, URL_MAX_LENGTH, type UrlCheck, type UrlPolicy } from '../../ground/url-policy.ts';

/**
 * Which URLs a watch may send its webhooks to: the one URL check (src/ground/url-policy.ts) with the
 * webhooks' options. Only `https:` to a public host; no spaces around the URL; no fragment; no
 * credentials (deliveries are signed instead). `allowLocalHttp` is set by `npm run dev` and the
 * Workers test pool through the `WEBHOOK_ALLOW_LOCAL_HTTP` var. Delivery never follows redirects
 * (src/watches/webhooks/delivery.ts), so a public name is all that is checked.
 */

export const WEBHOOK_URL_MAX_LENGTH = URL_MAX_LENGTH;

export type WebhookUrlOptions = Pick<UrlPolicy, 'allowLocalHttp'>;

/** The verdict on a webhook URL: the URL as it will be called, or a message that reads after the field's name and says what to send instead. */
export type WebhookUrlCheck = UrlCheck;

const WEBHOOK_URLS: Omit<UrlPolicy, 'allowLocalHttp'> = {
  example: 'https://hooks.example.com/recon',
  https: 'required',
  spaces: 'refused',
  fragment: 'refused',
  credentialsHint: 'authenticate deliveries with the webhook-signature header instead',
  addressHint: 'use the public host name of your receiver',
};

export function checkWebhookUrl(input: unknown, options: WebhookUrlOptions): WebhookUrlCheck {
  return checkUrl(input, { ...WEBHOOK_URLS, allowLocalHttp: options.allowLocalHttp });
}
