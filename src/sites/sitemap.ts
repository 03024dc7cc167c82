import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Gunzip } from 'fflate';
import { forEachChunk, joined, type ChunksRead } from '../ground/body-reading.ts';
import { messageOf } from '../ground/errors.ts';
import { MAX_URL_LENGTH } from './frontier.ts';

/**
 * Reading a site's sitemaps (https://www.sitemaps.org/protocol.html) for a site read: parse one
 * file (XML urlset, XML sitemap index, or the protocol's plain-text list of URLs), read a response
 * body with gzip and a size bound, and follow index files breadth-first within a budget.
 *
 * Every input is hostile until read: sizes, URL counts, nesting and loops are bounded, and what is
 * refused or left out is reported (`unreadable` with a reason, `skipped` entries, counts), never
 * thrown. XML is parsed by `fast-xml-parser`; a document declaring a DOCTYPE is refused before
 * parsing (a sitemap has no DTD, and that is where entity-expansion attacks live), so only XML's
 * five predefined entities are ever decoded (numeric character references such as `&#38;` are
 * left as written: the parser decodes them only with its HTML entities, which a sitemap needs not).
 */

/** The protocol's own bounds for one sitemap file. */
export const PROTOCOL_MAX_URLS = 50_000;
export const PROTOCOL_MAX_BYTES = 50 * 1024 * 1024;
/** Our defaults, tighter than the protocol's: a site read needs far fewer URLs than a crawler. */
export const DEFAULT_MAX_URLS = 5_000;
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Sitemap files read per `expandSitemaps` call, and how deep index files may nest, by default. */
export const DEFAULT_MAX_FILES = 20;
export const DEFAULT_MAX_DEPTH = 2;
/** `expandSitemaps` lists at most this many skipped files; the rest are only counted. */
export const MAX_SKIPPED_LISTED = 200;

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

/**
 * One parsed file. `dropped` counts entries left out (not http(s), too long, not a URL);
 * `truncated` says entries past `maxUrls` were not read.
 */
export type ParsedSitemap =
  | { kind: 'urlset'; urls: SitemapUrl[]; dropped: number; truncated: boolean }
  | { kind: 'index'; sitemaps: string[]; dropped: number; truncated: boolean }
  | { kind: 'unreadable'; reason: string };

export interface ParseSitemapOptions {
  /** Entries kept from one file, default 5,000, never more than the protocol's 50,000. */
  maxUrls?: number;
  /** Largest body read (bytes; characters for a string), default 10 MiB, never more than 50 MiB. */
  maxBytes?: number;
}

function clamp(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.max(1, Math.min(Math.floor(value), max));
}

/** The URL's normalized form if it is an absolute http(s) URL of at most 2,048 characters, else null. */
export function normalizeLoc(raw: string): string | null {
  const trimmed = raw.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.href.length > MAX_URL_LENGTH ? null : url.href;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  // Every value stays a string: a <loc> of digits is still a URL, a <lastmod> of a year is not a number.
  parseTagValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
  // DOCTYPEs are refused before parsing; these limits are a second fence should one ever get through.
  processEntities: { enabled: true, maxEntityCount: 1, maxEntitySize: 1, maxExpansionDepth: 1, maxExpandedLength: 10_000 },
});

/** The first string of a parsed element (a repeated element comes as an array), or undefined. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return textOf(value[0]);
  return undefined;
}

function entriesOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * Parses one sitemap file: `urlset` (page URLs with their `lastmod`), `index` (sitemap URLs), or
 * `unreadable` with a reason (too large, malformed XML, a DOCTYPE, an unknown root element, a text
 * file with no URL in it). A body not starting with `<` is read as the protocol's plain-text form,
 * one URL per line. Locs are trimmed and kept only when absolute http(s) URLs of at most 2,048
 * characters; entries past `maxUrls` are not read.
 */
export function parseSitemap(body: Uint8Array | string, options: ParseSitemapOptions = {}): ParsedSitemap {
  const maxUrls = clamp(options.maxUrls, DEFAULT_MAX_URLS, PROTOCOL_MAX_URLS);
  const maxBytes = clamp(options.maxBytes, DEFAULT_MAX_BYTES, PROTOCOL_MAX_BYTES);
  const size = typeof body === 'string' ? body.length : body.byteLength;
  if (size > maxBytes) return { kind: 'unreadable', reason: `larger than ${maxBytes} bytes` };
  const text = (typeof body === 'string' ? body : new TextDecoder().decode(body)).replace(/^\uFEFF/, '');
  const start = text.trimStart();
  if (start.length === 0) return { kind: 'unreadable', reason: 'empty' };
  // Whitespace before the XML declaration is a common slip, harmless to forgive.
  return start.startsWith('<') ? parseXml(start, maxUrls) : parseText(text, maxUrls);
}

/** The locs of a sitemap's entries: each normalized (dropped when it is not one), deduplicated, at most `maxUrls`. */
function collectLocs(entries: Iterable<{ raw: string | undefined; lastmod?: string }>, maxUrls: number) {
  const urls: SitemapUrl[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  let truncated = false;
  for (const { raw, lastmod } of entries) {
    const loc = raw === undefined ? null : normalizeLoc(raw);
    if (loc === null) {
      dropped++;
      continue;
    }
    if (seen.has(loc)) continue;
    if (urls.length >= maxUrls) {
      truncated = true;
      break;
    }
    seen.add(loc);
    urls.push(lastmod !== undefined && lastmod.length > 0 && lastmod.length <= 40 ? { loc, lastmod } : { loc });
  }
  return { urls, dropped, truncated };
}

function parseText(text: string, maxUrls: number): ParsedSitemap {
  const { urls, dropped, truncated } = collectLocs(
    (function* () {
      for (const line of text.split('\n')) if (line.trim().length > 0) yield { raw: line };
    })(),
    maxUrls,
  );
  if (urls.length === 0) return { kind: 'unreadable', reason: 'neither XML nor a list of http(s) URLs' };
  return { kind: 'urlset', urls, dropped, truncated };
}

function parseXml(text: string, maxUrls: number): ParsedSitemap {
  if (/<!DOCTYPE|<!ENTITY/.test(text)) return { kind: 'unreadable', reason: 'a DOCTYPE or entity declaration (not allowed in a sitemap)' };
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { kind: 'unreadable', reason: `malformed XML: ${valid.err.msg} (line ${valid.err.line})` };
  let doc: unknown;
  try {
    doc = parser.parse(text);
  } catch (error) {
    // The parser refuses what its own limits forbid (entities, say): a property of the file.
    return { kind: 'unreadable', reason: `unreadable XML: ${messageOf(error)}` };
  }
  const root = doc !== null && typeof doc === 'object' ? (doc as Record<string, unknown>) : {};
  const isIndex = 'sitemapindex' in root;
  if (!isIndex && !('urlset' in root)) {
    const name = Object.keys(root)[0];
    return { kind: 'unreadable', reason: `root element ${name === undefined ? '(none)' : `<${name}>`} is neither <urlset> nor <sitemapindex>` };
  }
  const container = root[isIndex ? 'sitemapindex' : 'urlset'];
  const entries = container !== null && typeof container === 'object' ? entriesOf((container as Record<string, unknown>)[isIndex ? 'sitemap' : 'url']) : [];

  const { urls, dropped, truncated } = collectLocs(
    (function* () {
      // Lazily: the collector stops at maxUrls, and the fields of the rest are never read.
      for (const entry of entries) {
        const fields = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
        yield { raw: textOf(fields.loc), lastmod: textOf(fields.lastmod)?.trim() };
      }
    })(),
    maxUrls,
  );
  return isIndex
    ? { kind: 'index', sitemaps: urls.map((u) => u.loc), dropped, truncated }
    : { kind: 'urlset', urls, dropped, truncated };
}

export type SitemapBody = { ok: true; body: Uint8Array } | { ok: false; reason: string };

/** Compressed bytes handed to the inflater at once: deflate inflates at most ~1,032:1, so about 1 MiB of output per step. */
const INFLATE_STEP = 1024;

/**
 * Reads a sitemap response's body, at most `maxBytes` (default 10 MiB) of it once decompressed:
 * a larger body, or a gzip stream that inflates past it (a gzip bomb), is refused with a reason as
 * soon as the bound is passed, without reading or inflating the rest. Gzip is recognized by its
 * magic bytes rather than by `.gz`, `Content-Type` or `Content-Encoding`: `fetch` may already have
 * decoded a `Content-Encoding: gzip` body while the header stays, and `.gz` files are often served
 * as `application/octet-stream`. A status other than 2xx and corrupt gzip data are refused too.
 *
 * Gzip is inflated by `fflate`, 1 KiB of input at a time, not by the runtime's
 * `DecompressionStream`: in workerd the latter accepts writes ahead of its reader and inflates them
 * all into memory (a 1 MiB bomb fed to it took the runtime past 800 MB while the reader had taken
 * 4 MB), so a bound checked on its output comes too late.
 */
export async function readSitemapBody(response: Response, maxBytes: number = DEFAULT_MAX_BYTES): Promise<SitemapBody> {
  const limit = clamp(maxBytes, DEFAULT_MAX_BYTES, PROTOCOL_MAX_BYTES);
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, reason: `HTTP ${response.status}` };
  }
  const output: Uint8Array[] = [];
  let outputBytes = 0;
  let gunzip: Gunzip | null = null;
  let sniffed: Uint8Array | null = new Uint8Array(); // the first bytes, until there are two to tell gzip apart
  let over = false;
  const keep = (chunk: Uint8Array): void => {
    outputBytes += chunk.byteLength;
    if (outputBytes > limit) over = true;
    else output.push(chunk);
  };
  const feed = (chunk: Uint8Array, final: boolean): void => {
    if (sniffed !== null) {
      chunk = joined([sniffed, chunk]);
      if (chunk.byteLength < 2 && !final) {
        sniffed = chunk;
        return;
      }
      sniffed = null;
      if (chunk[0] === 0x1f && chunk[1] === 0x8b) gunzip = new Gunzip((data) => keep(data));
    }
    if (gunzip === null) return keep(chunk);
    for (let at = 0; at < chunk.byteLength && !over; at += INFLATE_STEP) {
      gunzip.push(chunk.subarray(at, at + INFLATE_STEP), final && at + INFLATE_STEP >= chunk.byteLength);
    }
    if (final && chunk.byteLength === 0) gunzip.push(chunk, true);
  };
  let read: ChunksRead;
  try {
    read = await forEachChunk(response.body, limit, (chunk) => (feed(chunk, false), over ? 'stop' : undefined));
    if (read.ended === 'whole') feed(new Uint8Array(), true);
  } catch (error) {
    // fflate throws on data that is not valid gzip (a truncated or corrupt file).
    return { ok: false, reason: `corrupt gzip data: ${messageOf(error)}` };
  }
  // The body's stream errors when the connection breaks: the remote file's failing, reported.
  if (read.ended === 'failed') return { ok: false, reason: `reading the body failed: ${messageOf(read.error)}` };
  if (read.ended === 'over') return { ok: false, reason: `larger than ${limit} bytes` };
  if (over) return { ok: false, reason: `more than ${limit} bytes once decompressed` };
  return { ok: true, body: joined(output) };
}


export interface ExpandLimits {
  /** Whether a URL (page or sitemap) belongs to the site being read; others are neither fetched nor returned. */
  isSameSite: (url: string) => boolean;
  /** Sitemap files fetched in all, default 20. */
  maxFiles?: number;
  /** How deep index files may nest: start files are depth 0, default 2 (an index of indexes of urlsets). */
  maxDepth?: number;
  /** Page URLs returned in all (and per file), default 5,000. */
  maxUrls?: number;
  /** Largest file read, decompressed, default 10 MiB. */
  maxBytes?: number;
}

export interface ExpandResult {
  /** Page URLs found, deduplicated, in the order read, at most `maxUrls`. */
  urls: SitemapUrl[];
  /** Sitemap files not read or not usable, with why (at most 200 listed; `skippedMore` counts the rest). */
  skipped: { url: string; reason: string }[];
  skippedMore: number;
  /** Files fetched. */
  filesRead: number;
  /** Locs left out: not http(s), too long, or not URLs (`dropped`); not of the site (`offSite`). */
  dropped: number;
  offSite: number;
  /** Whether some URLs were not read because a bound was reached (`maxUrls` overall or in a file). */
  truncated: boolean;
}

/**
 * Reads sitemaps from `start` (for example those robots.txt names, or `/sitemap.xml`), following
 * index files breadth-first: at most `maxFiles` fetches, indexes nested at most `maxDepth` deep,
 * each URL fetched once (so loops of indexes end), only URLs `isSameSite` accepts. `fetchSitemap`
 * does the fetch (tests pass a fake; the run passes one that honours robots.txt and its delay); a
 * rejection of it is reported as a skipped file. Stops early once `maxUrls` page URLs are found.
 */
export async function expandSitemaps(
  start: string[],
  fetchSitemap: (url: string) => Promise<Response>,
  limits: ExpandLimits,
): Promise<ExpandResult> {
  const maxFiles = clamp(limits.maxFiles, DEFAULT_MAX_FILES, Number.MAX_SAFE_INTEGER);
  const maxDepth = Math.max(0, Math.floor(limits.maxDepth ?? DEFAULT_MAX_DEPTH));
  const maxUrls = clamp(limits.maxUrls, DEFAULT_MAX_URLS, PROTOCOL_MAX_URLS);
  const maxBytes = clamp(limits.maxBytes, DEFAULT_MAX_BYTES, PROTOCOL_MAX_BYTES);
  const result: ExpandResult = { urls: [], skipped: [], skippedMore: 0, filesRead: 0, dropped: 0, offSite: 0, truncated: false };
  const skip = (url: string, reason: string): void => {
    if (result.skipped.length < MAX_SKIPPED_LISTED) result.skipped.push({ url, reason });
    else result.skippedMore++;
  };
  const seenPages = new Set<string>();
  const visited = new Set<string>();
  const queue: { url: string; depth: number }[] = [];
  const enqueue = (raw: string, depth: number): void => {
    const url = normalizeLoc(raw);
    if (url === null) return skip(raw, 'not an http(s) URL');
    const key = url.replace(/#.*$/, '');
    if (visited.has(key)) return skip(url, 'already read (a loop or a repeat)');
    if (!limits.isSameSite(url)) return skip(url, 'not of this site');
    visited.add(key);
    queue.push({ url, depth });
  };
  for (const url of start) enqueue(url, 0);

  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (result.urls.length >= maxUrls) {
      result.truncated = true;
      skip(next.url, `URL budget reached (${maxUrls} URLs)`);
      continue;
    }
    if (result.filesRead >= maxFiles) {
      skip(next.url, `file budget spent (${maxFiles} files)`);
      continue;
    }
    result.filesRead++;
    let response: Response;
    try {
      response = await fetchSitemap(next.url);
    } catch (error) {
      skip(next.url, `fetch failed: ${messageOf(error)}`);
      continue;
    }
    const body = await readSitemapBody(response, maxBytes);
    if (!body.ok) {
      skip(next.url, body.reason);
      continue;
    }
    const parsed = parseSitemap(body.body, { maxUrls, maxBytes });
    if (parsed.kind === 'unreadable') {
      skip(next.url, parsed.reason);
      continue;
    }
    result.dropped += parsed.dropped;
    if (parsed.truncated) result.truncated = true;
    if (parsed.kind === 'index') {
      if (next.depth >= maxDepth) {
        skip(next.url, `an index nested deeper than ${maxDepth} levels: its ${parsed.sitemaps.length} sitemaps not read`);
        continue;
      }
      for (const child of parsed.sitemaps) enqueue(child, next.depth + 1);
      continue;
    }
    for (const url of parsed.urls) {
      if (seenPages.has(url.loc)) continue;
      if (!limits.isSameSite(url.loc)) {
        result.offSite++;
        continue;
      }
      if (result.urls.length >= maxUrls) {
        result.truncated = true;
        break;
      }
      seenPages.add(url.loc);
      result.urls.push(url);
    }
  }
  return result;
}
