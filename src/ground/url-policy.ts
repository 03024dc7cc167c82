import { LOCAL_DEVELOPMENT_HOSTS, nonPublicHost, nonPublicHostMessage } from './public-address.ts';

/**
 * Which URLs Recon may call, for one purpose: a source it fetches (src/oms/source-url-policy.ts), a
 * webhook it posts to (src/watches/webhooks/url-policy.ts). One check, with the policy's options.
 * Pure: no I/O, so each policy is a table of cases.
 *
 * Every policy: an absolute `http:` or `https:` URL of at most URL_MAX_LENGTH characters (as sent
 * and once encoded), without credentials, to a public host (src/ground/public-address.ts: no local
 * or internal names, no IP literal outside public unicast, in any spelling the URL parser reads).
 * With `allowLocalHttp` (local development and the tests: `npm run dev`, the Workers test pool),
 * `localhost`, `127.0.0.1` and `[::1]` (any port, http or https) are allowed too, and nothing else
 * that is not public.
 *
 * Host names are not resolved: a public name whose DNS answer is a private address passes. That is
 * safe on Workers, whose `fetch` reaches only the public Internet (never the account's or
 * Cloudflare's private networks).
 */

export const URL_MAX_LENGTH = 2048;

export interface UrlPolicy {
  /** A URL of the kind the policy wants, for messages (`https://acme.com/pricing`). */
  example: string;
  /** `required`: https only to a public host; `or-http`: either. */
  https: 'required' | 'or-http';
  /** Spaces around the URL: `trimmed` away, or `refused`. */
  spaces: 'trimmed' | 'refused';
  /** A `#fragment` (never sent): `dropped` from the URL, or `refused`. */
  fragment: 'dropped' | 'refused';
  /** Said after the refusal of `user:pass@` (how the receiver authenticates instead). */
  credentialsHint?: string;
  /** Said after the refusal of a non-public IP literal (what to send instead). */
  addressHint?: string;
  /** Also allow http(s)://localhost, 127.0.0.1 and [::1]: local development only. */
  allowLocalHttp: boolean;
}

/**
 * The verdict on a URL: the URL as it will be called (normalized by the URL parser), or a message
 * that reads after the field's name (`urls.0 must use http or https, ...`) and says what to send.
 */
export type UrlCheck = { ok: true; url: string } | { ok: false; message: string };

const refuse = (message: string): UrlCheck => ({ ok: false, message });

export function checkUrl(input: unknown, policy: UrlPolicy): UrlCheck {
  const example = `e.g. "${policy.example}"`;
  if (typeof input !== 'string') return refuse(`must be a URL string, ${example}`);
  const text = policy.spaces === 'trimmed' ? input.trim() : input;
  if (text.length > URL_MAX_LENGTH) return refuse(`must be at most ${URL_MAX_LENGTH} characters, not ${text.length}`);
  if (text !== text.trim()) return refuse('must not start or end with spaces');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse(`must be an absolute URL, ${example}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    const scheme = url.protocol.replace(/:$/, '');
    return refuse(policy.https === 'required' ? `must use https, not ${scheme}: ${example}` : `must use http or https, not ${scheme}`);
  }
  if (policy.fragment === 'dropped') url.hash = '';
  if (url.href.length > URL_MAX_LENGTH) return refuse(`must be at most ${URL_MAX_LENGTH} characters once encoded, not ${url.href.length}`);
  if (url.username || url.password) return refuse(`must not carry a user name or password (user:pass@)${policy.credentialsHint ? `; ${policy.credentialsHint}` : ''}`);
  if (url.hash) return refuse('must not have a #fragment (it is never sent to the server)');

  const host = url.hostname;
  if (policy.allowLocalHttp && LOCAL_DEVELOPMENT_HOSTS.has(host)) return { ok: true, url: url.href };
  const localNote = policy.allowLocalHttp ? 'in local development, only localhost, 127.0.0.1 and [::1] are allowed besides public hosts' : undefined;
  if (policy.https === 'required' && url.protocol !== 'https:') {
    return refuse(`must use https, not http${policy.allowLocalHttp ? ' (http is allowed only for localhost, 127.0.0.1 and [::1] in local development)' : ''}`);
  }
  const refusal = nonPublicHost(host);
  if (!refusal) return { ok: true, url: url.href };
  const hint = refusal.kind === 'address' && policy.addressHint ? `; ${policy.addressHint}` : '';
  return refuse(`${nonPublicHostMessage(refusal, new URL(policy.example).hostname)}${hint}${localNote ? `; ${localNote}` : ''}`);
}
