import { mergeDirectives, NO_DIRECTIVES, parseRobotsMeta } from './robots-directives.ts';
import type { RobotsDirectives } from './robots-directives.ts';

/**
 * The links of an HTML page, read with Workers' own streaming parser (`HTMLRewriter`, lol-html):
 * `<a href>`, `<link rel="canonical" href>`, the page's feeds (`<link rel="alternate">` of a feed
 * type), and `<base href>` to resolve them against; with them, what the page's robots meta tags
 * forbid (src/sites/robots-directives.ts). Bounded in links and feeds kept, in bytes read and in the
 * length of one URL; the parser calls into JavaScript once per `a`, `link`, `meta` and `base`
 * element, never per other element. Hostile markup (broken tags, huge attributes, a hundred
 * thousand links) yields what could be read and a flag, never a throw. Which of these links a read
 * follows is the frontier's business (`src/sites/frontier.ts`); honouring `robots` is the caller's,
 * merged with the response's `X-Robots-Tag` (parseXRobotsTag).
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

/** The body's first `maxBytes` bytes as a stream, then its end; the rest of the body is cancelled, never read. */
function boundedBody(body: ReadableStream<Uint8Array>, maxBytes: number, tally: { bytes: number; truncated: boolean }): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      const room = maxBytes - tally.bytes;
      if (value.byteLength > room) {
        if (room > 0) controller.enqueue(value.subarray(0, room));
        tally.bytes += Math.max(room, 0);
        tally.truncated = true;
        controller.close();
        await reader.cancel().catch(() => undefined);
        return;
      }
      tally.bytes += value.byteLength;
      controller.enqueue(value);
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}

/**
 * The links of the HTML page `response` fetched from `pageUrl` (see ExtractedLinks). Reads the
 * body (at most `maxBytes` of it); call it on a response whose body is unread.
 *
 * @example const { links, canonical } = await extractLinks(await fetch(url), url, { maxLinks: 500 });
 */
export async function extractLinks(response: Response, pageUrl: string, options: ExtractLinksOptions = {}): Promise<ExtractedLinks> {
  const maxLinks = positiveInteger(options.maxLinks, DEFAULT_MAX_LINKS, 'maxLinks');
  const maxBytes = positiveInteger(options.maxBytes, DEFAULT_MAX_BYTES, 'maxBytes');
  const tally = { bytes: 0, truncated: false };
  // Raw hrefs are kept until the end: a <base href> applies to the whole document, even links before it.
  const hrefs: string[] = [];
  let baseHref: string | undefined;
  let canonicalHref: string | undefined;
  // Raw, like hrefs; a few more than kept, so that repeats and broken ones do not crowd out real ones.
  const feedHrefs: string[] = [];
  let robots: RobotsDirectives = { ...NO_DIRECTIVES };
  const siteNames: { og?: string; application?: string } = {};
  let dropped = 0;
  let parseError: string | undefined;

  const keep = (value: string | null): string | undefined => {
    if (value === null) return undefined;
    if (value.length > MAX_HREF_LENGTH) {
      dropped += 1;
      return undefined;
    }
    return value.trim();
  };

  if (response.body !== null) {
    const rewriter = new HTMLRewriter()
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
    const input = new Response(boundedBody(response.body, maxBytes, tally), { headers: { 'content-type': 'text/html' } });
    try {
      const output = rewriter.transform(input).body;
      if (output !== null) {
        // Drain what the rewriter passes through: it parses as it is read.
        const reader = output.getReader();
        for (;;) {
          const { done } = await reader.read();
          if (done) break;
        }
      }
    } catch (error) {
      // lol-html gives up on some markup (e.g. a tag past its memory limit); what it found before stays.
      parseError = error instanceof Error ? error.message : String(error);
    }
  }

  const pageBase = URL.canParse(pageUrl) ? pageUrl : undefined;
  const base = baseHref !== undefined && URL.canParse(baseHref, pageBase) ? new URL(baseHref, pageBase).href : (pageBase ?? pageUrl);
  const resolve = (href: string): string | undefined => (URL.canParse(href, base) ? new URL(href, base).href : undefined);

  const links: string[] = [];
  const seen = new Set<string>();
  for (const href of hrefs) {
    const url = resolve(href);
    if (url === undefined) {
      dropped += 1;
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
    bytesRead: tally.bytes,
    truncatedBytes: tally.truncated,
    droppedLinks: dropped,
    ...(parseError === undefined ? {} : { parseError }),
  };
}
