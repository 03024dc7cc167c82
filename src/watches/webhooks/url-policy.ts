import { LOCAL_DEVELOPMENT_HOSTS, nonPublicHost, nonPublicHostMessage, type NonPublicHost } from '../../ground/public-address.ts';

/**
 * Which URLs a watch may send its webhooks to. Pure: no I/O, so the policy is a table of cases.
 *
 * Production (`allowLocalHttp` false): only `https:` URLs to a public host name or a public IP
 * literal, without credentials, at most 2048 characters. Which hosts are public (no local or
 * internal names, no IP literal outside public unicast, in any spelling the URL parser reads) is
 * decided by src/ground/public-address.ts, the one classification shared with sources added by URL.
 *
 * Development (`allowLocalHttp` true, set by `npm run dev` and the Workers test pool through the
 * `WEBHOOK_ALLOW_LOCAL_HTTP` var): `http:` or `https:` to `localhost`, `127.0.0.1` or `[::1]` (any
 * port) are allowed as well.
 *
 * Host names are not resolved: a public name whose DNS answer is a private address
 * (`https://10.0.0.1.nip.io`) passes. That is safe on Workers, whose `fetch` reaches only the
 * public Internet (never the account's or Cloudflare's private networks), and delivery never
 * follows redirects (src/watches/webhooks/delivery.ts).
 */

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export interface WebhookUrlOptions {
  /** Also allow http(s)://localhost, 127.0.0.1 and [::1]: local development only. */
  allowLocalHttp: boolean;
}

/**
 * The verdict on a webhook URL: the URL as it will be called (normalized by the URL parser), or a
 * message that reads after the field's name (`webhook.url must use https: ...`) and says what to
 * send instead.
 */
export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; message: string };

const refuse = (message: string): WebhookUrlCheck => ({ ok: false, message });

export function checkWebhookUrl(input: unknown, options: WebhookUrlOptions): WebhookUrlCheck {
  if (typeof input !== 'string') return refuse('must be a URL string, e.g. "https://hooks.example.com/recon"');
  if (input.length > WEBHOOK_URL_MAX_LENGTH) return refuse(`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters, not ${input.length}`);
  if (input !== input.trim()) return refuse('must not start or end with spaces');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('must be an absolute URL, e.g. "https://hooks.example.com/recon"');
  }
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return refuse(`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters once encoded, not ${url.href.length}`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(`must use https, not ${url.protocol.replace(/:$/, '')}: e.g. "https://hooks.example.com/recon"`);
  }
  if (url.username || url.password) {
    return refuse('must not carry a user name or password (user:pass@); authenticate deliveries with the webhook-signature header instead');
  }
  if (url.hash) return refuse('must not have a #fragment (it is never sent to the server)');

  const host = url.hostname;
  if (options.allowLocalHttp && LOCAL_DEVELOPMENT_HOSTS.has(host)) return { ok: true, url: url.href };
  if (url.protocol !== 'https:') {
    const local = options.allowLocalHttp ? ' (http is allowed only for localhost, 127.0.0.1 and [::1] in local development)' : '';
    return refuse(`must use https, not http${local}`);
  }
  const refusal = nonPublicHost(host);
  return refusal ? refuse(messageOf(refusal)) : { ok: true, url: url.href };
}

/** The shared wording, with a hint for the one case a receiver's owner can fix by sending another URL. */
function messageOf(refusal: NonPublicHost): string {
  const message = nonPublicHostMessage(refusal, 'hooks.example.com');
  return refusal.kind === 'address' ? `${message}; use the public host name of your receiver` : message;
}
