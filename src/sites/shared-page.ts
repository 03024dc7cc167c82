import type { SitePage, SitePageOptions } from './fetch-page.ts';

/**
 * The shared copy of a site's public pages (kept by the site's SiteHostGate): what may enter it,
 * under which key, and what a caller is answered from it. Pure policy; the storage is
 * src/db/shared-page-store.ts.
 *
 * Only answers that are the same for every reader enter it: a page with a body (`page`, HTML, a
 * document or a file) and a page that is gone (404/410). Failures, skips and unfollowed redirects
 * do not: a failure may be gone in a second, and a skip or a redirect can depend on the reader
 * (its robots.txt as read, the URLs its frontier claimed).
 */

/** The validators of one copy of a page, as a conditional request sends them. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

import type { SharedCopy } from '../db/shared-page-store.ts';

export type { SharedCopy };

/** The largest body the shared copy keeps: the largest a read fetches (a sitemap or a PDF, 10 MiB). */
export const MAX_SHARED_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The key of a request in the shared copy: the URL and what the request accepts, since one URL asked
 * as a page (HTML only), as a page or document (PDF too), or as a file of at most N bytes can be
 * answered differently. `html https://acme.com/pricing`, `file:2097152 https://acme.com/robots.txt`.
 */
export function sharedKey(url: string, mode: Pick<SitePageOptions, 'file' | 'documents'>): string {
  const kind = mode.file !== undefined ? `file:${mode.file.maxBytes}` : mode.documents ? 'documents' : 'html';
  return `${kind} ${url}`;
}

/** The copy to keep of an answer, or undefined when it is not kept (see above; a body over MAX_SHARED_BODY_BYTES neither). */
export function copyOf(page: SitePage, fetchedAt: number, madeBy?: string): SharedCopy | undefined {
  const by = madeBy === undefined ? {} : { madeBy };
  if (page.kind === 'gone') return { kind: 'gone', url: page.url, status: page.status, fetchedAt, ...by };
  if (page.kind !== 'page' || page.body.byteLength > MAX_SHARED_BODY_BYTES) return undefined;
  return {
    kind: 'page',
    url: page.url,
    body: page.body,
    contentType: page.contentType,
    ...(page.robotsTag === undefined ? {} : { robotsTag: page.robotsTag }),
    ...(page.etag === undefined ? {} : { etag: page.etag }),
    ...(page.lastModified === undefined ? {} : { lastModified: page.lastModified }),
    fetchedAt,
    ...by,
  };
}

/**
 * Whether the copy may answer `reader` without asking the site: fetched less than `freshMs` ago, and
 * for another reader. A read never takes a copy its own organization's read made: reading a site
 * again is asking what changed since, so it revalidates (a conditional request; a 304 costs the site
 * little). Other organizations, reading the same site around the same time, share the one fetch.
 */
export function isFresh(copy: Pick<SharedCopy, 'fetchedAt' | 'madeBy'>, freshMs: number, now: number, reader?: string): boolean {
  return now - copy.fetchedAt < freshMs && (reader === undefined || copy.madeBy !== reader);
}

/** The validators to revalidate a copy with: its own (never a caller's), none for a copy that is gone. */
export function validatorsOf(copy: SharedCopy | undefined): Validators | undefined {
  if (copy?.kind !== 'page' || (copy.etag === undefined && copy.lastModified === undefined)) return undefined;
  return { ...(copy.etag === undefined ? {} : { etag: copy.etag }), ...(copy.lastModified === undefined ? {} : { lastModified: copy.lastModified }) };
}

/**
 * What a caller is answered from a copy: `not-modified` when the caller's own validators name this
 * very copy (as the site would have answered its conditional request), otherwise the page (or gone).
 */
export function answerFrom(copy: SharedCopy, url: string, caller: Validators | undefined): SitePage {
  if (copy.kind === 'gone') return { kind: 'gone', url: copy.url, status: copy.status };
  if (copy.url === url && callerHoldsCopy(caller, copy)) return { kind: 'not-modified', url };
  return {
    kind: 'page',
    url: copy.url,
    body: copy.body,
    contentType: copy.contentType,
    ...(copy.robotsTag === undefined ? {} : { robotsTag: copy.robotsTag }),
    ...(copy.etag === undefined ? {} : { etag: copy.etag }),
    ...(copy.lastModified === undefined ? {} : { lastModified: copy.lastModified }),
    bytes: copy.body.byteLength,
  };
}

/**
 * RFC 9110 13.2.2, as the site would judge the caller's conditional request against this copy: the
 * ETag decides when the caller has one (weak comparison, as for If-None-Match); otherwise an
 * If-Modified-Since at or after the copy's Last-Modified.
 */
function callerHoldsCopy(caller: Validators | undefined, copy: Extract<SharedCopy, { kind: 'page' }>): boolean {
  if (caller?.etag !== undefined) return copy.etag !== undefined && opaque(caller.etag) === opaque(copy.etag);
  if (caller?.lastModified === undefined || copy.lastModified === undefined) return false;
  const since = Date.parse(caller.lastModified);
  const modified = Date.parse(copy.lastModified);
  return Number.isFinite(since) && Number.isFinite(modified) && modified <= since;
}

/** An entity tag without its weakness mark. */
function opaque(etag: string): string {
  return etag.trim().replace(/^W\//, '');
}
