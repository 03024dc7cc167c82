import { readBody, untilAborted } from '../ground/body-reading.ts';
import { messageOf } from '../ground/errors.ts';
import { discard, mib, REDIRECT_STATUSES, shown, SOURCE_FETCH, sourceTimeoutMs } from '../oms/fetch-source.ts';
import { checkSourceUrl } from '../oms/source-url-policy.ts';
import { MAX_URL_LENGTH, siteDomain, siteUrl, type SiteUrlRefusal } from './frontier.ts';
import { hostOf, hostServedBy, overrideFor, readsHost } from './hosts.ts';

/**
 * One page request of a site read: `fetchSitePage` GETs a same-site URL and says what came back, as
 * data (it never throws for anything the site or the network does). The run object decides what to
 * do with it: store the body, keep the stored copy (304), forget the page (404/410), count a skip
 * or a failure. Reading links and text out of the body is links.ts's business, not this one's.
 *
 * Bounds are those of the page fetcher of sources (SOURCE_FETCH in src/oms/fetch-source.ts), reused:
 * one deadline of 10 s for the whole page, redirects and body included (`timeoutMs` may shorten it,
 * never lengthen it); at most 2 MiB of body (a Content-Length over it is refused before reading);
 * at most 5 redirects, followed by hand, a URL already requested ending the chain as a loop.
 *
 * Where a request goes:
 * - With origin overrides (SITE_ORIGIN_OVERRIDES, development and tests: host -> loopback origin,
 *   see hosts.ts), the override origin of the URL's host + the URL's path is requested; every URL
 *   in the result stays the host's. A redirect to an override origin itself is read as a redirect
 *   to the host it serves. A host the overrides do not serve is not requested.
 * - Without one, the URL must pass the public-address policy of sources (checkSourceUrl, without
 *   local http) before it is requested, and so must every redirect target.
 * A redirect target must also be on the site (siteUrl: the domain or `www.` + domain); one to
 * another site, to a non-http scheme or to a file that is not a page is `skipped`, never requested.
 * Redirects between the site's hosts (apex to `www.`, http to https) are followed, each hop asked of
 * `allows` (the robots.txt of the host it lands on) before it is requested.
 *
 * Besides HTML, a page request reads a PDF (application/pdf, up to MAX_DOCUMENT_BYTES) when
 * `documents` is set: linked price sheets and datasheets are sources too.
 */

/** Headers sent with every request (the user agent is the caller's: SITE_READER_USER_AGENT). */
export const SITE_PAGE_ACCEPT = 'text/html,application/xhtml+xml';
/** An ETag or Last-Modified longer than this is neither sent nor returned (no real validator is). */
export const MAX_VALIDATOR_LENGTH = 1_024;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** The largest document (PDF) a page request reads. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Document types a page request with `documents` reads, and the most bytes of each. */
const DOCUMENT_TYPES: ReadonlyMap<string, number> = new Map([['application/pdf', MAX_DOCUMENT_BYTES]]);
/** Of an X-Robots-Tag header, the characters kept (the page's directives are a few words). */
const MAX_ROBOTS_TAG_LENGTH = 4_096;

export interface SitePageOptions {
  /** The site read (`acme.com`; `www.` and case do not matter): the URL and every redirect must stay on it. */
  domain: string;
  /** The site's hosts besides the apex and `www.` that the read names (`docs.acme.com`): on the site too. */
  hosts?: readonly string[];
  /** Host -> loopback origin (readConfig(env).SITE_ORIGIN_OVERRIDES; see hosts.ts); none in production. */
  originOverrides?: ReadonlyMap<string, string>;
  /** Validators of the copy already stored, sent as If-None-Match and If-Modified-Since on the first request. */
  conditional?: { etag?: string; lastModified?: string };
  /** Outbound fetch (default: the global one); tests pass their own. */
  fetch?: typeof fetch;
  /** The deadline of the whole page in ms; default and maximum SOURCE_FETCH.timeoutMs (10 s). */
  timeoutMs?: number;
  /** The User-Agent header: SITE_READER_USER_AGENT (src/sites/robots.ts). */
  userAgent: string;
  /**
   * Whether robots.txt lets us request a URL of the site: asked before each redirect is followed
   * (the URL itself was checked by the caller); a refused redirect is `skipped`, never requested.
   * `unknown` when the redirect lands on a host whose robots.txt the caller has not read yet: the
   * redirect is then returned (`redirect`), not followed, so the caller reads that robots.txt first
   * (without holding this request's slot) and goes on from there. It may answer later (a promise):
   * the site's gate fetches for a read and asks the read's own robots.txt across objects.
   */
  allows?: (url: string) => boolean | 'unknown' | Promise<boolean | 'unknown'>;
  /** Redirects already followed before this request (a caller going on from a `redirect`): they count towards the 5. */
  redirectsBefore?: number;
  /**
   * Claims a URL of the site a redirect leads to, before it is followed: false when the read has
   * requested it already (or will not), so it is `skipped`, not requested twice. It may answer
   * later (a promise), as `allows` may.
   */
  claim?: (url: string) => boolean | Promise<boolean>;
  /**
   * Read a file of the site rather than a page (robots.txt, a sitemap): any content type is read, up
   * to `maxBytes` of body (at most PROTOCOL file sizes the caller bounds), and a failure carries its HTTP status.
   */
  file?: { maxBytes: number };
  /** Read a PDF answered to a page request too (DOCUMENT_TYPES), not only HTML. */
  documents?: boolean;
}

/**
 * What one page request gave. `url` is always a URL of the site as siteUrl normalizes it (never
 * the override's loopback one): for a page or a 304, the URL read after redirects; otherwise the
 * last URL of the site that was reached (or, when the URL itself was refused, the URL as given).
 */
export type SitePage =
  | {
      kind: 'page';
      url: string;
      /** The body as sent (decoded from any Content-Encoding), at most SOURCE_FETCH.maxBodyBytes. */
      body: Uint8Array;
      /** The Content-Type header as sent (`text/html; charset=utf-8`): text/html, application/xhtml+xml, a document type, or (files) any. */
      contentType: string;
      /** The X-Robots-Tag header(s) as sent, joined, at most MAX_ROBOTS_TAG_LENGTH characters. */
      robotsTag?: string;
      etag?: string;
      lastModified?: string;
      /** body.byteLength. */
      bytes: number;
    }
  /** 304 Not Modified to a conditional request: the stored copy is current. */
  | { kind: 'not-modified'; url: string }
  /** 404 or 410: the page is no longer there. */
  | { kind: 'gone'; url: string; status: 404 | 410 }
  /**
   * A redirect to `location` (a URL of the site) on a host whose robots.txt is not read yet: not
   * followed; `redirects` counts the hops so far, for the caller's `redirectsBefore`.
   */
  | { kind: 'redirect'; url: string; location: string; redirects: number }
  /** Not read by choice: not HTML, or a redirect off the site (to another host, scheme or to a file). */
  | { kind: 'skipped'; url: string; reason: string }
  /**
   * Not read: a timeout, another HTTP status (`status`, only then), too large, a network error, a redirect loop or a
   * URL the policy refuses.
   */
  | {
      kind: 'failed';
      url: string;
      reason: string;
      status?: number;
      /** The Retry-After header as sent (at most MAX_VALIDATOR_LENGTH characters), with a 429 or 503. */
      retryAfter?: string;
      /** The redirects never reached an answer: more than 5, or a loop (robots.txt then counts as unavailable, RFC 9309 2.3.1.2). */
      redirectsExhausted?: true;
    };

/** Fetches the same-site `url` (as frontier's siteUrl gives it) for a site read; see SitePage. */
export async function fetchSitePage(url: string, options: SitePageOptions): Promise<SitePage> {
  const site = siteDomain(options.domain);
  if (site === undefined) return { kind: 'failed', url, reason: `the domain ${shown(JSON.stringify(options.domain))} is not a host name` };
  const asFile = { file: options.file !== undefined, ...(options.hosts ? { hosts: options.hosts } : {}) };
  const first = siteUrl(site, url, undefined, asFile);
  if (!first.ok) return refused(url, first.reason, `the URL ${shown(url)}`);
  const timeoutMs = sourceTimeoutMs(options.timeoutMs);
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const conditional = conditionalHeaders(options.conditional);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const { signal } = controller;
  // `current` is the URL of the site requested (query kept, as a redirect gave it); `page` is it as siteUrl normalizes it.
  let current = first.url;
  let page = first.url;
  try {
    const visited = new Set([current]);
    for (let redirects = 0; ; redirects++) {
      let target: string;
      const currentUrl = new URL(current);
      const override = overrideFor(options.originOverrides, hostOf(currentUrl));
      if (override !== undefined) {
        target = `${override}${currentUrl.pathname}${currentUrl.search}`;
      } else if (!readsHost(options.originOverrides, hostOf(currentUrl))) {
        return { kind: 'failed', url: page, reason: `${shown(current)} was not requested: this deployment reads only the hosts SITE_ORIGIN_OVERRIDES names` };
      } else {
        const check = checkSourceUrl(current, { allowLocalHttp: false });
        if (!check.ok) return { kind: 'failed', url: page, reason: `${shown(current)} was not requested: the URL ${check.message}` };
        target = check.url;
      }
      const sent = redirects === 0 ? conditional : {};
      const response = await untilAborted(
        fetchFn(target, {
          method: 'GET',
          redirect: 'manual',
          signal,
          headers: { accept: options.file ? '*/*' : SITE_PAGE_ACCEPT, 'user-agent': options.userAgent, ...sent },
        }),
        signal,
      );
      const { status } = response;
      if (REDIRECT_STATUSES.has(status)) {
        discard(response);
        const location = response.headers.get('location');
        if (!location) return { kind: 'failed', url: page, reason: `HTTP ${status} without a Location to follow` };
        const resolved = URL.canParse(location, target) ? new URL(location, target) : undefined;
        if (!resolved) return { kind: 'failed', url: page, reason: `HTTP ${status} to a Location that is not a URL: ${shown(location)}` };
        resolved.hash = '';
        // An override server naming itself means the host it serves: the same path there.
        let next = resolved.href;
        const servedHost = override === undefined ? undefined : hostServedBy(options.originOverrides, resolved.origin, hostOf(currentUrl));
        if (servedHost !== undefined) {
          const onSiteUrl = new URL(current);
          onSiteUrl.hostname = servedHost;
          onSiteUrl.pathname = resolved.pathname;
          onSiteUrl.search = resolved.search;
          next = onSiteUrl.href;
        }
        if (redirects + (options.redirectsBefore ?? 0) >= SOURCE_FETCH.maxRedirects) {
          return { kind: 'failed', url: page, reason: `more than ${SOURCE_FETCH.maxRedirects} redirects; the last one pointed to ${shown(next)}`, redirectsExhausted: true };
        }
        const onSite = siteUrl(site, next, undefined, asFile);
        if (!onSite.ok) return refused(page, onSite.reason, `the redirect to ${shown(next)}`);
        if (next.length > MAX_URL_LENGTH) return { kind: 'failed', url: page, reason: `the redirect to ${shown(next)} is longer than ${MAX_URL_LENGTH} characters` };
        if (visited.has(next)) return { kind: 'failed', url: page, reason: `a redirect loop: ${shown(next)} was already requested`, redirectsExhausted: true };
        // The page's deadline bounds a caller's answer too (it may come from another object).
        const allowed = options.allows ? await untilAborted(Promise.resolve(options.allows(onSite.url)), signal) : true;
        if (allowed === 'unknown') return { kind: 'redirect', url: page, location: onSite.url, redirects: redirects + 1 + (options.redirectsBefore ?? 0) };
        if (!allowed) return { kind: 'skipped', url: page, reason: `the redirect to ${shown(next)} is disallowed by robots.txt` };
        if (options.claim && !(await untilAborted(Promise.resolve(options.claim(onSite.url)), signal))) {
          return { kind: 'skipped', url: page, reason: `the redirect leads to ${shown(onSite.url)}, which this read requests anyway` };
        }
        visited.add(next);
        current = next;
        page = onSite.url;
        continue;
      }
      if (status === 304) {
        discard(response);
        if (Object.keys(sent).length > 0) return { kind: 'not-modified', url: page };
        return { kind: 'failed', url: page, reason: 'HTTP 304 to a request that was not conditional' };
      }
      if (status === 404 || status === 410) {
        discard(response);
        return { kind: 'gone', url: page, status };
      }
      if (status < 200 || status > 299) {
        discard(response);
        const retryAfter = status === 429 || status === 503 ? validator(response.headers.get('retry-after')) : undefined;
        return {
          kind: 'failed',
          url: page,
          status,
          reason: `HTTP ${status}${response.statusText ? ` ${shown(response.statusText)}` : ''}`,
          ...(retryAfter === undefined ? {} : { retryAfter }),
        };
      }
      const contentType = response.headers.get('content-type') ?? '';
      const type = contentType.split(';')[0]!.trim().toLowerCase();
      const documentBytes = options.documents ? DOCUMENT_TYPES.get(type) : undefined;
      const maxBytes = options.file?.maxBytes ?? documentBytes ?? SOURCE_FETCH.maxBodyBytes;
      if (!options.file && !HTML_TYPES.has(type) && documentBytes === undefined) {
        discard(response);
        return {
          kind: 'skipped',
          url: page,
          reason: type ? `the page is ${shown(type)}, not HTML` : 'the page has no Content-Type, so it is not read as HTML',
        };
      }
      const declared = Number(response.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard(response);
        return { kind: 'failed', url: page, reason: `the ${options.file ? 'file' : 'page'} is ${mib(declared)} (Content-Length); at most ${mib(maxBytes)} is read` };
      }
      const read = await readBody(response.body, maxBytes, signal);
      if ('error' in read) throw read.error;
      if (read.over) return { kind: 'failed', url: page, reason: `the ${options.file ? 'file' : 'page'} is larger than ${mib(maxBytes)}, the most that is read` };
      const body = read.bytes;
      const etag = validator(response.headers.get('etag'));
      const lastModified = validator(response.headers.get('last-modified'));
      const robotsTag = response.headers.get('x-robots-tag')?.slice(0, MAX_ROBOTS_TAG_LENGTH);
      return {
        kind: 'page',
        url: page,
        body,
        contentType,
        ...(robotsTag ? { robotsTag } : {}),
        ...(etag === undefined ? {} : { etag }),
        ...(lastModified === undefined ? {} : { lastModified }),
        bytes: body.byteLength,
      };
    }
  } catch (error) {
    if (signal.aborted) return { kind: 'failed', url: page, reason: `timed out after ${timeoutMs / 1000} s` };
    return { kind: 'failed', url: page, reason: `could not be fetched: ${shown(messageOf(error))}` };
  } finally {
    clearTimeout(timer);
  }
}

/** A URL siteUrl refuses: another site, scheme or a file is a choice (`skipped`); a broken URL is a failure. */
function refused(url: string, reason: SiteUrlRefusal, what: string): SitePage {
  switch (reason) {
    case 'off-site':
      return { kind: 'skipped', url, reason: `${what} is on another site` };
    case 'scheme':
      return { kind: 'skipped', url, reason: `${what} is not http or https` };
    case 'non-html':
      return { kind: 'skipped', url, reason: `${what} names a file that is not a page` };
    case 'credentials':
      return { kind: 'failed', url, reason: `${what} carries a user name or password` };
    case 'too-long':
      return { kind: 'failed', url, reason: `${what} is longer than ${MAX_URL_LENGTH} characters` };
    case 'invalid':
      return { kind: 'failed', url, reason: `${what} is not a URL` };
  }
}

/** A header value we may send or keep: non-empty, at most MAX_VALIDATOR_LENGTH, no control characters. */
function validator(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  // eslint-disable-next-line no-control-regex
  return text !== '' && text.length <= MAX_VALIDATOR_LENGTH && !/[\u0000-\u001f\u007f]/.test(text) ? text : undefined;
}

function conditionalHeaders(conditional: SitePageOptions['conditional']): Record<string, string> {
  const etag = validator(conditional?.etag);
  const lastModified = validator(conditional?.lastModified);
  return {
    ...(etag === undefined ? {} : { 'if-none-match': etag }),
    ...(lastModified === undefined ? {} : { 'if-modified-since': lastModified }),
  };
}
