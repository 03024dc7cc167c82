/**
 * A web site described as data, and what its loopback server (scripts/lib/site-server.ts) reports
 * over HTTP. Types only, with no Node or Workers API, so Workers-pool tests may import them too.
 */

/** One answer of a site: a page, a redirect, an error, a file. */
export interface SitePage {
  /** The body (default empty). */
  body?: string | Uint8Array;
  /** Content-Type (default `text/html; charset=utf-8`). */
  type?: string;
  /** HTTP status (default 200). */
  status?: number;
  /** A Location header, for a redirect (with `status` 301, 302, 303, 307 or 308). */
  location?: string;
  /** Milliseconds to wait before answering (at most MAX_DELAY_MS); 'hang' never answers until the client gives up. */
  delayMs?: number | 'hang';
  /** Last-Modified as a date (default: the time the server started, or the page last changed). */
  lastModified?: Date;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** A sitemap file: its XML (or plain text), optionally served gzip-compressed (the bytes, not a Content-Encoding). */
export interface SitemapFile {
  xml: string;
  gzip?: boolean;
  /** Spaces appended to the XML up to this many bytes before compressing (at most 256 MiB): with gzip, a gzip bomb. */
  padTo?: number;
}

/**
 * A site: its pages by path (`/pricing`; a key with a query, `/search?q=a`, is matched before the
 * bare path), its robots.txt (absent: 404), its sitemap files by path (`/sitemap.xml`), and pages
 * made on request for paths no key names (traps, large sites), or undefined for a 404.
 */
export interface SiteSpec {
  pages: Record<string, SitePage>;
  robots?: string;
  sitemaps?: Record<string, SitemapFile>;
  generate?: (path: string, query: URLSearchParams) => SitePage | undefined;
}

/** One request the site answered (control paths under /__site/ are never logged). */
export interface SiteRequest {
  method: string;
  /** Path and query as requested (`/search?q=a`), at most 2,048 characters. */
  path: string;
  /** Arrival time, ms since the epoch. */
  at: number;
  /** The status sent, or null while the answer is pending (or never came). */
  status: number | null;
  /** Requests of this site in flight at its arrival, itself included. */
  inFlight: number;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  userAgent?: string;
}

/** `GET /__site/log`: the requests since the start or the last reset (the latest MAX_LOG_ENTRIES). */
export interface SiteLog {
  requests: SiteRequest[];
  /** Requests since the start or the last reset, including ones dropped from `requests`. */
  total: number;
  /** Oldest requests dropped past MAX_LOG_ENTRIES. */
  dropped: number;
  /** Requests in flight now. */
  inFlight: number;
  /** The most requests in flight at once since the start or the last reset. */
  maxInFlight: number;
}

/** Requests kept in the log; older ones are dropped (and counted). */
export const MAX_LOG_ENTRIES = 20_000;
/** The longest delay a page may have. */
export const MAX_DELAY_MS = 120_000;
/** The largest body `PUT /__site/pages` accepts. */
export const MAX_CONTROL_BODY_BYTES = 4 * 1024 * 1024;
/** The most extra response headers `PUT /__site/pages` may give a page (`&headers=`). */
export const MAX_CONTROL_HEADERS = 20;
/** The most pages a site may hold after changes over HTTP. */
export const MAX_SITE_PAGES = 20_000;
/** The longest path (with query) a control request may name, and a log entry keeps. */
export const MAX_PATH_LENGTH = 2_048;
/** Where the control paths live on every site server. */
export const CONTROL_PREFIX = '/__site/';
