import { readBody } from '../ground/body-reading.ts';
import { messageOf } from '../ground/errors.ts';
import { rewriteWith, type RewriterRegistry } from '../ground/reused-rewriter.ts';
import { textEncodingOf } from '../oms/html-text.ts';
import { mergeDirectives, NO_DIRECTIVES, parseRobotsMeta } from './robots-directives.ts';
import type { RobotsDirectives } from './robots-directives.ts';

/**
 * The links of an HTML page, read with Workers' own streaming parser (`HTMLRewriter`, lol-html):
 * `<a href>`, `<link rel="canonical" href>`, the page's feeds (`<link rel="alternate">` of a feed
 * type), and `<base href>` to resolve them against; with them, what the page's robots meta tags
 * forbid (src/sites/robots-directives.ts). Bounded in links and feeds kept, in bytes read and in the
 * length of one URL; the parser calls into JavaScript once per `a`, `link`, `meta` and `base`
 * element, never per other element (in workerd such a call costs several microseconds, more than
 * parsing the bytes around it: the most of what a page costs here). The body is read in the
 * charset the page declares, as its text is (textEncodingOf: a byte-order mark, the Content-Type,
 * a `<meta charset>`), so a windows-1252 page's `caf\xe9` is `café`, not U+FFFD. Hostile markup
 * (broken tags, huge attributes, a hundred thousand links) yields what could be read and a flag,
 * never a throw. Which of these links a read follows is the frontier's business
 * (`src/sites/frontier.ts`); honouring `robots` is the caller's, merged with the response's
 * `X-Robots-Tag` (parseXRobotsTag).
 */

/** Links kept from one page by default; the rest are counted, not kept. */
export const DEFAULT_MAX_LINKS = 1_000;
/** Bytes of a page body read by default; the rest is not read (the body is cancelled). */
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
/** An `href` longer than this many characters is dropped unread (no URL we request is longer than 2,048). */
export const MAX_HREF_LENGTH = 4_096;
/** Feeds kept from one page; a site has one or two, so more is noise. */
export const MAX_FEEDS = 10;

/** The `type` of a `<link rel="alternate">` that names a feed: RSS, Atom, JSON Feed. */
const FEED_TYPES = new Set(['application/rss+xml', 'application/atom+xml', 'application/feed+json']);

export interface ExtractLinksOptions {
  /** Links kept, 1 or more (DEFAULT_MAX_LINKS). */
  maxLinks?: number;
  /** Bytes of the body read, 1 or more (DEFAULT_MAX_BYTES). */
  maxBytes?: number;
}

export interface ExtractedLinks {
  /** Absolute URLs of `<a href>`, in document order, without repeats, at most `maxLinks`. As written (not normalized). */
  links: string[];
  /** The absolute URL of the first `<link rel="canonical" href>`, if any. */
  canonical?: string;
  /**
   * Absolute URLs of the page's feeds (`<link rel="alternate" type="application/rss+xml">`, Atom or
   * JSON Feed), in document order, without repeats, at most MAX_FEEDS; resolved as `links` are.
   */
  feeds: string[];
  /** What the page's `<meta name="robots">` and `<meta name="reconbot">` tags forbid, wherever they stand, all merged. */
  robots: RobotsDirectives;
  /** The site's own name as the page declares it (`og:site_name`, else `application-name`), at most 200 characters. */
  siteName?: string;
  /** The URL relative links were resolved against: the first `<base href>`, else the page's URL. */
  base: string;
  /** Bytes of the body read. */
  bytesRead: number;
  /** Whether the body was longer than `maxBytes` (the rest was not read). */
  truncatedBytes: boolean;
  /** `<a href>` seen past `maxLinks` (not kept), and hrefs dropped: too long, or not a URL. */
  droppedLinks: number;
  /** The parser's message when it gave up part-way (links found before it are kept). */
  parseError?: string;
}

/** The words of a `rel` attribute, lowercased (the first 200 characters: a real one is a few words). */
function relsOf(rel: string | null): string[] {
  return (rel ?? '').slice(0, 200).toLowerCase().split(/\s+/);
}

/** Whether a `<link type>` names a feed format (parameters such as `; charset=utf-8` ignored). */
function isFeedType(type: string | null): boolean {
  return FEED_TYPES.has((type ?? '').slice(0, 200).split(';')[0]!.trim().toLowerCase());
}

/** Whether a response says it is an HTML page (`text/html` or `application/xhtml+xml`). */
export function isHtmlResponse(response: Response): boolean {
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  const result = value ?? fallback;
  if (!Number.isInteger(result) || result < 1) throw new RangeError(`${name} is an integer of 1 or more; got ${String(value)}`);
  return result;
}

/** How the body of one page was read, for ExtractedLinks. */
export interface LinksRead {
  /** Bytes of the body read. */
  bytesRead: number;
  /** Whether the body was longer than what was read. */
  truncatedBytes: boolean;
  /** The parser's message when it gave up part-way. */
  parseError?: string;
}

/**
 * What extractLinks gathers from one parse, in two parts, so that another parse of the same page
 * (readHtmlPage: its text) can gather the links too: `on` registers the handlers on a rewriter and
 * keeps what they see, as written; `result` resolves and deduplicates it. Make one per parse.
 */
export interface LinkCollector {
  /** Adds the handlers to `registry` (for `a`, `link`, `meta` and `base` elements) and returns it. */
  on(registry: RewriterRegistry): RewriterRegistry;
  /** What was gathered so far, resolved against the first `<base href>`, else `pageUrl`. */
  result(pageUrl: string, read: LinksRead): ExtractedLinks;
}

/** A LinkCollector keeping at most `maxLinks` links (options.maxBytes is the reader's, not read here). */
export function linkCollector(options: Pick<ExtractLinksOptions, 'maxLinks'> = {}): LinkCollector {
  const maxLinks = positiveInteger(options.maxLinks, DEFAULT_MAX_LINKS, 'maxLinks');
  // Raw hrefs are kept until the end: a <base href> applies to the whole document, even links before it.
  const hrefs: string[] = [];
  let baseHref: string | undefined;
  let canonicalHref: string | undefined;
  // Raw, like hrefs; a few more than kept, so that repeats and broken ones do not crowd out real ones.
  const feedHrefs: string[] = [];
  let robots: RobotsDirectives = { ...NO_DIRECTIVES };
  const siteNames: { og?: string; application?: string } = {};
  let dropped = 0;

  const keep = (value: string | null): string | undefined => {
    if (value === null) return undefined;
    if (value.length > MAX_HREF_LENGTH) {
      dropped += 1;
      return undefined;
    }
    return value.trim();
  };

  const on = (registry: RewriterRegistry): RewriterRegistry =>
    registry
      .on('a[href]', {
        element(element) {
          if (hrefs.length >= maxLinks) {
            dropped += 1;
            return;
          }
          const href = keep(element.getAttribute('href'));
          if (href !== undefined) hrefs.push(href);
        },
      })
      .on('link[rel][href]', {
        element(element) {
          const rel = relsOf(element.getAttribute('rel'));
          if (rel.includes('canonical')) canonicalHref ??= keep(element.getAttribute('href'));
          else if (rel.includes('alternate') && isFeedType(element.getAttribute('type')) && feedHrefs.length < MAX_FEEDS * 4) {
            const href = keep(element.getAttribute('href'));
            if (href !== undefined) feedHrefs.push(href);
          }
        },
      })
      .on('meta[content]', {
        element(element) {
          const raw = element.getAttribute('content');
          robots = mergeDirectives(robots, parseRobotsMeta(element.getAttribute('name'), raw));
          const name = (element.getAttribute('property') ?? element.getAttribute('name') ?? '').trim().toLowerCase();
          const content = raw?.replace(/\s+/g, ' ').trim();
          if (!content || content.length > 200) return;
          if (name === 'og:site_name') siteNames.og ??= content;
          else if (name === 'application-name') siteNames.application ??= content;
        },
      })
      .on('base[href]', {
        element(element) {
          baseHref ??= keep(element.getAttribute('href'));
        },
      });

  const result = (pageUrl: string, read: LinksRead): ExtractedLinks => {
    let droppedLinks = dropped;
    const pageBase = URL.canParse(pageUrl) ? pageUrl : undefined;
    const base = (baseHref !== undefined ? URL.parse(baseHref, pageBase)?.href : undefined) ?? pageBase ?? pageUrl;
    // Each distinct href is resolved once (menus repeat theirs); one URL.parse, not canParse and then a parse.
    const resolved = new Map<string, string | undefined>();
    const resolve = (href: string): string | undefined => {
      if (resolved.has(href)) return resolved.get(href);
      const url = URL.parse(href, base)?.href;
      resolved.set(href, url);
      return url;
    };

    const links: string[] = [];
    const seen = new Set<string>();
    for (const href of hrefs) {
      const url = resolve(href);
      if (url === undefined) {
        droppedLinks += 1;
        continue;
      }
      if (seen.has(url)) continue;
      seen.add(url);
      links.push(url);
    }
    const canonical = canonicalHref === undefined ? undefined : resolve(canonicalHref);
    const feeds = [...new Set(feedHrefs.map(resolve).filter((url): url is string => url !== undefined))].slice(0, MAX_FEEDS);
    const siteName = siteNames.og ?? siteNames.application;

    return {
      links,
      ...(canonical === undefined ? {} : { canonical }),
      feeds,
      robots,
      ...(siteName === undefined ? {} : { siteName }),
      base,
      bytesRead: read.bytesRead,
      truncatedBytes: read.truncatedBytes,
      droppedLinks,
      ...(read.parseError === undefined ? {} : { parseError: read.parseError }),
    };
  };

  return { on, result };
}


/**
 * The HTML `bytes` as the parser's input, in the page's charset (textEncodingOf): UTF-8 as it is
 * (the parser decodes it as TextDecoder would), any other decoded first, as readPageText does.
 */
function htmlInput(bytes: Uint8Array, contentType: string): Response {
  const encoding = textEncodingOf(bytes, contentType, true);
  const input = encoding === 'utf-8' ? bytes : new TextDecoder(encoding).decode(bytes);
  return new Response(input, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/**
 * The links of the HTML page `response` fetched from `pageUrl` (see ExtractedLinks). Reads the
 * body (at most `maxBytes` of it) into memory, then hands it to the parser at once: no stream of
 * 4 KiB chunks to pump through JavaScript, and a tag of megabytes is read whole rather than
 * buffered across chunks past the parser's memory limit. Call it on a response whose body is
 * unread. A page whose text is read too is better read with readHtmlPage
 * (src/sites/read-html-page.ts): one parse for both.
 *
 * @example const { links, canonical } = await extractLinks(await fetch(url), url, { maxLinks: 500 });
 */
export async function extractLinks(response: Response, pageUrl: string, options: ExtractLinksOptions = {}): Promise<ExtractedLinks> {
  const collector = linkCollector(options);
  const maxBytes = positiveInteger(options.maxBytes, DEFAULT_MAX_BYTES, 'maxBytes');
  if (response.body === null) return collector.result(pageUrl, { bytesRead: 0, truncatedBytes: false });
  const read = await readBody(response.body, maxBytes);
  const { bytes } = read;
  let parseError = 'error' in read ? messageOf(read.error) : undefined;
  try {
    // Drained natively: what the rewriter passes through is not needed, only its handlers' calls.
    await rewriteWith(collector.on, htmlInput(bytes, response.headers.get('content-type') ?? ''), (output) => output.arrayBuffer());
  } catch (error) {
    // lol-html gives up on some markup (e.g. 400,000 unclosed elements, past its memory limit); what it found before stays.
    parseError ??= messageOf(error);
  }
  return collector.result(pageUrl, { bytesRead: bytes.byteLength, truncatedBytes: read.over, ...(parseError === undefined ? {} : { parseError }) });
}
