import { checkUrl, URL_MAX_LENGTH, type UrlCheck, type UrlPolicy } from '../ground/url-policy.ts';

/**
 * Which URLs Recon may fetch to add a source (POST /api/v1/oms/sources), checked before the first
 * request and again at every redirect: the one URL check (src/ground/url-policy.ts) with the
 * sources' options. `http:` or `https:`; spaces around the URL trimmed; a fragment allowed and
 * dropped (it is never sent). `allowLocalHttp` is set by `npm run dev` and the Workers test pool
 * through the `SOURCES_ALLOW_LOCAL_HTTP` var.
 */

export const SOURCE_URL_MAX_LENGTH = URL_MAX_LENGTH;

export type SourceUrlOptions = Pick<UrlPolicy, 'allowLocalHttp'>;

/** The verdict on a URL: the URL as it will be fetched (normalized, without its fragment), or a message that reads after the field's name. */
export type SourceUrlCheck = UrlCheck;

const SOURCE_URLS: Omit<UrlPolicy, 'allowLocalHttp'> = { example: 'https://acme.com/pricing', https: 'or-http', spaces: 'trimmed', fragment: 'dropped' };

export function checkSourceUrl(input: string, options: SourceUrlOptions): SourceUrlCheck {
  return checkUrl(input, { ...SOURCE_URLS, allowLocalHttp: options.allowLocalHttp });
}
