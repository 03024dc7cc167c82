import { LOCAL_DEVELOPMENT_HOSTS, nonPublicHost, nonPublicHostMessage } from '../ground/public-address.ts';

/**
 * Which URLs Recon may fetch to add a source (POST /api/v1/oms/sources), checked before the first
 * request and again at every redirect. Pure: no I/O, so the policy is a table of cases.
 *
 * Production (`allowLocalHttp` false): `http:` or `https:` URLs of at most 2048 characters, without
 * credentials, to a public host (src/ground/public-address.ts: no local or internal names, no IP
 * literal outside public unicast, in any spelling the URL parser reads). A fragment is allowed and
 * dropped (it is never sent).
 *
 * Development (`allowLocalHttp` true, set by `npm run dev` and the Workers test pool through the
 * `SOURCES_ALLOW_LOCAL_HTTP` var): `localhost`, `127.0.0.1` and `[::1]` (any port) are allowed too,
 * and nothing else that is not public.
 *
 * Host names are not resolved: a public name whose DNS answer is a private address passes. That is
 * safe on Workers, whose `fetch` reaches only the public Internet (never the account's or
 * Cloudflare's private networks).
 */

export const SOURCE_URL_MAX_LENGTH = 2048;

export interface SourceUrlOptions {
  /** Also allow http(s)://localhost, 127.0.0.1 and [::1]: local development only. */
  allowLocalHttp: boolean;
}

/**
 * The verdict on a URL: the URL as it will be fetched (normalized by the URL parser, without its
 * fragment), or a message that reads after the field's name (`urls.0 must use http or https, ...`).
 */
export type SourceUrlCheck = { ok: true; url: string } | { ok: false; message: string };

const refuse = (message: string): SourceUrlCheck => ({ ok: false, message });

export function checkSourceUrl(input: string, options: SourceUrlOptions): SourceUrlCheck {
  const text = input.trim();
  if (text.length > SOURCE_URL_MAX_LENGTH) return refuse(`must be at most ${SOURCE_URL_MAX_LENGTH} characters, not ${text.length}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('must be an absolute URL, e.g. "https://acme.com/pricing"');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse(`must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  }
  url.hash = '';
  if (url.href.length > SOURCE_URL_MAX_LENGTH) return refuse(`must be at most ${SOURCE_URL_MAX_LENGTH} characters once encoded, not ${url.href.length}`);
  if (url.username || url.password) return refuse('must not carry a user name or password (user:pass@)');

  const host = url.hostname;
  if (options.allowLocalHttp && LOCAL_DEVELOPMENT_HOSTS.has(host)) return { ok: true, url: url.href };
  const refusal = nonPublicHost(host);
  if (!refusal) return { ok: true, url: url.href };
  const local = options.allowLocalHttp ? '; in local development, only localhost, 127.0.0.1 and [::1] are allowed besides public hosts' : '';
  return refuse(`${nonPublicHostMessage(refusal, 'acme.com')}${local}`);
}
