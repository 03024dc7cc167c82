import type { Config } from '../ground/config.ts';
import { percentEncode } from '../ground/encoding.ts';
import { SITE_READER_PRODUCT_TOKEN } from './robots.ts';

/**
 * Who a site read says it is: `ReconBot/<version> (+<contact URL>)`, the contact URL being the page
 * a site's owner reads about the crawler and how to stop it. That page is SITE_READ_CONTACT_URL when
 * the deployment sets one, else the deployment's own `/bot` (src/routes/bot.ts).
 *
 * A Worker knows its own origin only from a request it answers, so the origin travels with the work:
 * a read started by a request (REST, MCP, the dashboard, onboarding) is given that request's origin,
 * and a watch keeps the origin of the request that created it for the reads its executions start
 * (an alarm has no request). A read that has neither (a watch made before origins were kept) names
 * no URL rather than one that does not resolve: `ReconBot/<version>` alone still matches a
 * `User-agent: ReconBot` group in robots.txt.
 */

/** The site reader's version, in its user agent: raised when what it reads or how it reads changes. */
export const SITE_READER_VERSION = '1.1';

/** The path of the page about the crawler, on every deployment. */
export const BOT_PAGE_PATH = '/bot';

/** `url`'s origin (`https://recon.example.com`) when it is an http(s) URL, else undefined. */
export function httpOrigin(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const { protocol, origin } = new URL(url);
  return protocol === 'http:' || protocol === 'https:' ? origin : undefined;
}

/**
 * A URL as a user-agent comment may carry it (RFC 9110, 5.6.5): parentheses and backslashes, which
 * would end or escape the comment, and anything but visible ASCII, percent-encoded.
 */
function commentSafe(url: string): string {
  return url.replace(/[()\\]|[^\x21-\x7e]/gu, percentEncode);
}

/**
 * The User-Agent header of every request of a site read. Without a contact URL, the product and
 * version alone.
 *
 * @example siteReaderUserAgent('https://recon.example.com/bot') // 'ReconBot/1.1 (+https://recon.example.com/bot)'
 */
export function siteReaderUserAgent(contactUrl: string | undefined): string {
  const product = `${SITE_READER_PRODUCT_TOKEN}/${SITE_READER_VERSION}`;
  return contactUrl ? `${product} (+${commentSafe(contactUrl)})` : product;
}

/**
 * The page a site's owner is sent to: SITE_READ_CONTACT_URL when set, else `/bot` on the origin of
 * `fallbackOrigin` (an origin or any http(s) URL of this deployment, such as the URL of the request
 * that started the read), else undefined: no URL this deployment knows to resolve.
 *
 * @example botPageUrl(readConfig(env), 'https://recon.example.com/api/v1/oms/sites') // 'https://recon.example.com/bot'
 */
export function botPageUrl(config: Pick<Config, 'SITE_READ_CONTACT_URL'>, fallbackOrigin?: string): string | undefined {
  if (config.SITE_READ_CONTACT_URL) return config.SITE_READ_CONTACT_URL;
  const origin = httpOrigin(fallbackOrigin);
  return origin ? `${origin}${BOT_PAGE_PATH}` : undefined;
}
