import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { clean, extractPageText, PageUnreadable } from '../oms/html-text.ts';
import { SOURCE_TITLE_MAX_CHARS } from '../oms/object-types.ts';
import { MAX_URL_LENGTH } from './frontier.ts';
import { messageOf } from '../ground/errors.ts';

/**
 * Reading a site's feeds for a site read: RSS 2.0, RSS 1.0 (RDF), Atom and JSON Feed, each entry
 * turned into what a `source` needs (title, URL, publication date, readable text).
 *
 * Every feed is hostile until read: the body's size and the entries kept are bounded, and what is
 * refused or left out is reported (`unreadable` with a reason, `dropped`, `total`, `truncated`),
 * never thrown. XML is parsed by `fast-xml-parser` with the stance of sitemap.ts: a document
 * declaring a DOCTYPE or an entity is refused before parsing (no feed format has a DTD, and that is
 * where entity-expansion attacks live), every value stays a string, and only XML's five predefined
 * entities are decoded by the parser (numeric references are decoded later, with the HTML, by
 * html-text.ts). Entry HTML becomes text through `extractPageText` (Workers' HTMLRewriter).
 */

/** Largest feed read by default (bytes; characters for a string), and at most. */
export const DEFAULT_MAX_FEED_BYTES = 5 * 1024 * 1024;
export const MAX_FEED_BYTES = 50 * 1024 * 1024;
/** Entries kept from one feed by default, and at most. */
export const DEFAULT_MAX_ENTRIES = 200;
export const MAX_ENTRIES = 5_000;
/** The longest text kept for one entry (characters), cut at a paragraph or word. */
export const MAX_ENTRY_TEXT_CHARS = 20_000;
/**
 * The longest HTML read for one entry (characters): ten times the text kept, so markup-heavy
 * entries still fill it, while one huge entry cannot cost more than that to reduce.
 */
export const MAX_ENTRY_HTML_CHARS = 10 * MAX_ENTRY_TEXT_CHARS;

export interface FeedEntry {
  /** The entry's title (decoded, collapsed, at most SOURCE_TITLE_MAX_CHARS); else its text's start; else its URL. */
  title: string;
  /** Absolute http(s) URL of the entry's page, at most 2,048 characters, without user:password. */
  url: string;
  /** YYYY-MM-DD as the feed writes it (the publisher's calendar day), when the feed gives a valid date. */
  publishedAt?: string;
  /** Readable text of the entry's content (else its summary), paragraphs separated by blank lines; may be empty. */
  text: string;
}

/**
 * One parsed feed. `total` counts the entries the document holds; `dropped` those read but left
 * out (no usable URL); `truncated` says entries past `maxEntries` were not read.
 */
export type ParsedFeed =
  | { kind: 'rss' | 'atom' | 'rdf' | 'json'; title?: string; entries: FeedEntry[]; total: number; dropped: number; truncated: boolean }
  | { kind: 'unreadable'; reason: string };

export interface ParseFeedOptions {
  /** Entries kept, default 200, at most 5,000. */
  maxEntries?: number;
  /** Largest body read (bytes; characters for a string), default 5 MiB, at most 50 MiB. */
  maxBytes?: number;
}

export { FEED_PATHS } from './feed-paths.ts';

/**
 * Content types a feed is served with (the media type only, lower-case): the three feed types,
 * JSON Feed's, and the generic XML and JSON types many servers use for them. A generic type says
 * only "maybe": `looksLikeFeed` looks at the body too.
 */
export const FEED_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
  'application/feed+json',
  'application/xml',
  'text/xml',
  'application/json',
]);

/** Types that name a feed and nothing else. */
const FEED_ONLY_TYPES: ReadonlySet<string> = new Set(['application/rss+xml', 'application/atom+xml', 'application/feed+json']);

/** How much of the body `looksLikeFeed` reads: enough for a declaration, a stylesheet PI and comments before the root. */
const SNIFF_CHARS = 1_024;

/**
 * Whether a response is a feed rather than a page, from its Content-Type and first bytes (1 KiB is
 * enough): true when the document's first element is `<rss>`, `<feed>` or `<rdf:RDF>` (after the
 * XML declaration, processing instructions and comments), or the body is a JSON object naming a
 * JSON Feed version, whatever the type says (feeds are often served as text/html or text/plain);
 * true for a feed-only type (application/rss+xml, ...) unless the bytes are plainly an HTML page;
 * false otherwise. Example: `looksLikeFeed('text/xml', bytesOf('<?xml version="1.0"?><rss>'))` is true.
 */
export function looksLikeFeed(contentType: string, firstBytes: Uint8Array): boolean {
  const type = mediaType(contentType);
  const head = new TextDecoder().decode(firstBytes.subarray(0, SNIFF_CHARS)).replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('{')) return /"version"\s*:\s*"https?:\/\/jsonfeed\.org\/version\//.test(head) || type === 'application/feed+json';
  const root = firstElement(head);
  if (root !== undefined) {
    const name = root.toLowerCase();
    if (name === 'rss' || name === 'feed' || name === 'rdf:rdf') return true;
    if (name === 'html' || name === '!doctype html' || name === 'head' || name === 'body') return false;
  }
  return FEED_ONLY_TYPES.has(type);
}

function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The name of the first element of an XML or HTML document's start, skipping the XML declaration,
 * processing instructions, comments and whitespace; `!doctype html` for an HTML doctype,
 * `!doctype` for another; undefined when the start holds no element.
 */
function firstElement(head: string): string | undefined {
  let at = 0;
  while (at < head.length) {
    if (/\s/.test(head[at]!)) {
      at++;
    } else if (head.startsWith('<?', at) || head.startsWith('<!--', at)) {
      const close = head[at + 1] === '?' ? '?>' : '-->';
      const end = head.indexOf(close, at + 2);
      if (end < 0) return undefined;
      at = end + close.length;
    } else if (head.startsWith('<!', at)) {
      return /^<!doctype\s+html/i.test(head.slice(at, at + 20)) ? '!doctype html' : '!doctype';
    } else {
      return /^<([A-Za-z][\w.:-]*)/.exec(head.slice(at, at + 200))?.[1];
    }
  }
  return undefined;
}

const DECLARATION_OR_CDATA = /<!\[CDATA\[|<!--|<!DOCTYPE|<!ENTITY/gi;

/**
 * Whether the document declares a DOCTYPE or an entity anywhere but in a CDATA section or a
 * comment (where HTML quoted in an entry may hold one). The parser's validator accepts a DOCTYPE
 * even after the root element, so the prolog alone is not enough to look at. One pass.
 */
function declaresDoctype(text: string): boolean {
  DECLARATION_OR_CDATA.lastIndex = 0;
  for (let match = DECLARATION_OR_CDATA.exec(text); match; match = DECLARATION_OR_CDATA.exec(text)) {
    if (!match[0].startsWith('<![') && match[0] !== '<!--') return true;
    const end = text.indexOf(match[0] === '<!--' ? '-->' : ']]>', DECLARATION_OR_CDATA.lastIndex);
    // Left open: malformed, and the validator says so.
    if (end < 0) return false;
    DECLARATION_OR_CDATA.lastIndex = end + 3;
  }
  return false;
}

function clamp(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.max(1, Math.min(Math.floor(value), max));
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // content:encoded, dc:date, atom:link in RSS, rdf:RDF: read by their local names.
  removeNSPrefix: true,
  // Every value stays a string: a title of digits is still a title, a guid of digits not a number.
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
  // Atom's inline XHTML is HTML to read, not XML to take apart: its markup is kept as written.
  stopNodes: ['..content[type=xhtml]', '..summary[type=xhtml]', '..title[type=xhtml]'],
  // DOCTYPEs are refused before parsing; these limits are a second fence should one ever get through.
  processEntities: { enabled: true, maxEntityCount: 1, maxEntitySize: 1, maxExpansionDepth: 1, maxExpandedLength: 10_000 },
});

/**
 * Parses one feed: RSS 2.0 (`rss`), RSS 1.0 (`rdf`), Atom (`atom`) or JSON Feed (`json`), with its
 * title and its first `maxEntries` entries in document order; or `unreadable` with a reason
 * (larger than `maxBytes`, empty, an HTML page, malformed XML or JSON, a DOCTYPE or entity
 * declaration, a root that is no feed). An entry's URL is its page link resolved against `feedUrl`
 * (Atom: the `alternate` link, else the first; RSS: `<link>`, else a permalink `<guid>`); entries
 * read without an http(s) URL are dropped and counted. Its text is its full content
 * (`content:encoded`, Atom `content`), else its summary (`description`, `summary`), reduced from
 * HTML to text. Only the entries read are parsed: see `boundedXml` for what that means for a
 * long feed. Example: `await parseFeed(body, 'https://acme.test/blog/feed')` gives
 * `{ kind: 'rss', title: 'Acme blog', entries: [{ title, url, publishedAt: '2026-03-02', text }], total: 1, dropped: 0, truncated: false }`.
 */
export async function parseFeed(body: Uint8Array | string, feedUrl: string, options: ParseFeedOptions = {}): Promise<ParsedFeed> {
  const maxEntries = clamp(options.maxEntries, DEFAULT_MAX_ENTRIES, MAX_ENTRIES);
  const maxBytes = clamp(options.maxBytes, DEFAULT_MAX_FEED_BYTES, MAX_FEED_BYTES);
  const size = typeof body === 'string' ? body.length : body.byteLength;
  if (size > maxBytes) return { kind: 'unreadable', reason: `larger than ${maxBytes} bytes` };
  const text = (typeof body === 'string' ? body : new TextDecoder().decode(body)).replace(/^\uFEFF/, '').trimStart();
  if (text.length === 0) return { kind: 'unreadable', reason: 'empty' };
  const read = text.startsWith('{') ? readJsonFeed(text) : readXmlFeed(text, maxEntries);
  if ('reason' in read) return { kind: 'unreadable', reason: read.reason };
  return collectEntries(read, feedUrl, maxEntries);
}

/** A feed's entries before they are read: the raw fields of each, in document order. */
interface RawFeed {
  kind: 'rss' | 'atom' | 'rdf' | 'json';
  title?: string;
  /** The entries parsed: all of them, or the first of a long XML feed (see boundedXml). */
  entries: readonly unknown[];
  /** Entries in the whole document. */
  total: number;
  /** Reads one raw entry's fields. */
  fields: (entry: Record<string, unknown>, feedUrl: string) => RawEntry;
}

interface RawEntry {
  title?: string;
  url?: string;
  dates: (string | undefined)[];
  /** Content first, then summary: the first with text is used. */
  bodies: { value: string; html: boolean }[];
}

async function collectEntries(feed: RawFeed, feedUrl: string, maxEntries: number): Promise<ParsedFeed> {
  const entries: FeedEntry[] = [];
  let dropped = 0;
  const read = feed.entries.slice(0, maxEntries);
  for (const item of read) {
    const raw = feed.fields(asRecord(item), feedUrl);
    if (raw.url === undefined) dropped++;
    else entries.push(await readEntry(raw, raw.url));
  }
  return {
    kind: feed.kind,
    ...(feed.title ? { title: feed.title } : {}),
    entries,
    total: feed.total,
    dropped,
    truncated: feed.total > read.length,
  };
}

async function readEntry(raw: RawEntry, url: string): Promise<FeedEntry> {
  let text = '';
  for (const body of raw.bodies) {
    text = await htmlToText(body.html ? body.value : escapeText(body.value), MAX_ENTRY_TEXT_CHARS);
    if (text) break;
  }
  const publishedAt = raw.dates.map((date) => (date === undefined ? undefined : calendarDate(date))).find(Boolean);
  const title = cutText(raw.title || firstLine(text) || url, SOURCE_TITLE_MAX_CHARS);
  return { title, url, ...(publishedAt ? { publishedAt } : {}), text };
}

function firstLine(text: string): string | undefined {
  const line = text.split('\n', 1)[0]?.trim();
  return line ? line : undefined;
}

/** Plain text made into HTML that reads as the same text (so a `<` in it is not taken for a tag). */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

/** The XML feed formats by the local name of their root element: what an entry is called, and where entries live. */
const XML_FORMATS = {
  rss: { kind: 'rss', entry: 'item', inChannel: true },
  rdf: { kind: 'rdf', entry: 'item', inChannel: false },
  feed: { kind: 'atom', entry: 'entry', inChannel: false },
} as const;

function readXmlFeed(text: string, maxEntries: number): RawFeed | { reason: string } {
  const root = firstElement(text);
  const rootName = root?.toLowerCase();
  if (rootName === 'html' || rootName === '!doctype html' || rootName === 'head' || rootName === 'body') return { reason: 'an HTML page, not a feed' };
  if (!text.startsWith('<')) return { reason: 'neither XML nor JSON' };
  if (declaresDoctype(text)) return { reason: 'a DOCTYPE or entity declaration (not allowed in a feed)' };
  const local = root?.slice(root.indexOf(':') + 1).toLowerCase();
  const format = local === 'rss' || local === 'rdf' || local === 'feed' ? XML_FORMATS[local] : undefined;
  if (root === undefined || format === undefined) {
    return { reason: `root element ${root === undefined ? '(none)' : `<${root}>`} is not <rss>, <rdf:RDF> or <feed>` };
  }
  const bounded = boundedXml(text, root, format, maxEntries);
  if ('reason' in bounded) return bounded;
  let whole = bounded.xml === text;
  let doc = parseXml(bounded.xml);
  if ('reason' in doc && !whole) {
    // The cut did not make a well-formed document: entries held somewhere unusual. Read it all, if that is affordable.
    if (bounded.elements > MAX_PARSED_ELEMENTS) return { reason: `more than ${MAX_PARSED_ELEMENTS} elements, and its entries are not where a feed keeps them` };
    doc = parseXml(text);
    whole = true;
  }
  if ('reason' in doc) return doc;
  const top = asRecord(doc.value);
  const container = asRecord(Object.values(top)[0]);
  const channel = asRecord(container.channel);
  // RSS 1.0 keeps its items beside the channel; RSS 0.90 too, though some writers put them inside it.
  const inside = listOf(channel[format.entry]);
  const beside = listOf(container[format.entry]);
  const entries = format.inChannel ? (inside.length ? inside : beside) : beside.length ? beside : inside;
  return {
    kind: format.kind,
    title: titleOf(format.kind === 'atom' ? container.title : channel.title),
    entries,
    total: whole ? entries.length : Math.max(bounded.total, entries.length),
    fields: format.kind === 'atom' ? atomFields : rssFields,
  };
}

/**
 * The most elements parsed in one feed. Parsing cost grows with elements whatever they hold (20
 * to 40 us each in workerd; 50,000 `<x a="1"/>` in one entry took 1.2 to 2 s), so this bounds a
 * feed's CPU where the byte bound does not: 5 MiB of `<x/>` is 1.3 million elements. Ordinary
 * feeds have 10 to 30 elements an entry, so 200 entries fit many times over.
 */
export const MAX_PARSED_ELEMENTS = 20_000;

/**
 * The part of a feed to parse: all of it, unless it holds more than `maxEntries` entries or more
 * than MAX_PARSED_ELEMENTS elements; then the document up to the start of the first entry not
 * read, closed by the end tags of the elements that hold entries (`</channel></rss>`,
 * `</rdf:RDF>`, `</feed>`, with the document's own prefixes). Entries past the cut are only
 * counted, by one scan for start tags outside CDATA sections and comments (tens of ms for 100,000
 * entries, where parsing them all took 2.6 s), so the rest of the document is never validated.
 * Should the cut not make a well-formed document (entries held somewhere unusual), `readXmlFeed`
 * parses the whole, when it has few enough elements. A feed with more elements than that before
 * its first entry is refused.
 */
function boundedXml(
  text: string,
  root: string,
  format: (typeof XML_FORMATS)[keyof typeof XML_FORMATS],
  maxEntries: number,
): { xml: string; total: number; elements: number } | { reason: string } {
  const scan = scanElements(text, format.entry, maxEntries);
  if (scan.cut === undefined) return { xml: text, total: scan.total, elements: scan.elements };
  if (scan.cut < 0) return { reason: `more than ${MAX_PARSED_ELEMENTS} elements before its first entry` };
  let closing = `</${root}>`;
  if (format.inChannel) {
    const channel = /<((?:[A-Za-z_][\w.-]*:)?channel)[\s>]/.exec(text.slice(0, scan.cut))?.[1];
    if (channel === undefined) return { xml: text, total: scan.total, elements: scan.elements };
    closing = `</${channel}>${closing}`;
  }
  return { xml: text.slice(0, scan.cut) + closing, total: scan.total, elements: scan.elements };
}

/**
 * One pass over the document's start tags outside CDATA sections and comments: how many are
 * entries (`<item>`, `<entry>`, with or without a prefix), how many elements there are, and where
 * to cut: before the entry after the first `maxEntries`, or before the entry in which the
 * MAX_PARSED_ELEMENTS-th element starts (-1 when that is before any entry); none when all fit.
 */
function scanElements(text: string, entry: string, maxEntries: number): { total: number; elements: number; cut?: number } {
  const pattern = new RegExp(`<!\\[CDATA\\[|<!--|<(?:((?:[A-Za-z_][\\w.-]*:)?${entry})(?=[\\s/>])|(?=[A-Za-z_]))`, 'g');
  let total = 0;
  let elements = 0;
  let entryStart = -1;
  let cut: number | undefined;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0].startsWith('<!')) {
      const end = text.indexOf(match[0] === '<!--' ? '-->' : ']]>', pattern.lastIndex);
      if (end < 0) break;
      pattern.lastIndex = end + 3;
      continue;
    }
    elements++;
    if (match[1] !== undefined) {
      if (cut === undefined && total === maxEntries) cut = match.index;
      total++;
      entryStart = match.index;
    }
    if (cut === undefined && elements > MAX_PARSED_ELEMENTS) cut = entryStart;
  }
  return { total, elements, ...(cut === undefined ? {} : { cut }) };
}

/** The parsed document, or why it cannot be read (not well-formed, or past the parser's limits). */
function parseXml(xml: string): { value: unknown } | { reason: string } {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { reason: `malformed XML: ${valid.err.msg} (line ${valid.err.line})` };
  try {
    return { value: parser.parse(xml) };
  } catch (error) {
    // The parser refuses what its own limits forbid (entities, nesting): a property of the file.
    return { reason: `unreadable XML: ${messageOf(error)}` };
  }
}

/** RSS 2.0 and 1.0 items: `<link>`, else a permalink `<guid>`; content:encoded, else description. */
function rssFields(item: Record<string, unknown>, feedUrl: string): RawEntry {
  let url: string | undefined;
  for (const link of listOf(item.link)) {
    // A text <link> is RSS's own; an element with href is an atom:link inside the item.
    const record = asRecord(link);
    const href = typeof link === 'string' ? link : record['@_href'] === undefined ? textOf(link) : undefined;
    url = href === undefined ? undefined : httpUrl(href, feedUrl);
    if (url) break;
  }
  if (url === undefined) {
    for (const link of listOf(item.link)) {
      const record = asRecord(link);
      const rel = stringOf(record['@_rel']) ?? 'alternate';
      const href = stringOf(record['@_href']);
      if (href !== undefined && rel === 'alternate') url = httpUrl(href, feedUrl);
      if (url) break;
    }
  }
  if (url === undefined) {
    const guid = item.guid;
    const permalink = stringOf(asRecord(guid)['@_isPermaLink'])?.trim().toLowerCase() !== 'false';
    const value = textOf(guid);
    // A permalink guid must be a URL by itself: resolving an opaque id against the feed would make one up.
    if (permalink && value !== undefined) url = httpUrl(value);
  }
  return {
    title: titleOf(item.title),
    url,
    dates: [textOf(item.pubDate), textOf(item.date), textOf(item.published), textOf(item.updated)],
    bodies: [bodyOf(item.encoded, true), bodyOf(item.description, true)].filter((body) => body !== undefined),
  };
}

/** Atom entries: the `alternate` link (a link without rel is one), else the first; content, else summary. */
function atomFields(entry: Record<string, unknown>, feedUrl: string): RawEntry {
  const links = listOf(entry.link).map((link) => {
    const record = asRecord(link);
    return { rel: stringOf(record['@_rel'])?.trim().toLowerCase() ?? 'alternate', href: stringOf(record['@_href']) };
  });
  let url: string | undefined;
  for (const link of [...links.filter((link) => link.rel === 'alternate'), ...links]) {
    url = link.href === undefined ? undefined : httpUrl(link.href, feedUrl);
    if (url) break;
  }
  const content = asRecord(entry.content);
  return {
    title: titleOf(entry.title),
    url,
    dates: [textOf(entry.published), textOf(entry.updated), textOf(entry.issued), textOf(entry.modified)],
    // Content with a src lives elsewhere: the summary is what the feed holds.
    bodies: [content['@_src'] === undefined ? atomBody(entry.content) : undefined, atomBody(entry.summary)].filter((body) => body !== undefined),
  };
}

/** An Atom text construct: `text` (the default) is plain; `html` escaped HTML; `xhtml` inline markup (kept as written). */
function atomBody(value: unknown): { value: string; html: boolean } | undefined {
  const type = stringOf(asRecord(value)['@_type'])?.trim().toLowerCase() ?? 'text';
  return bodyOf(value, type === 'html' || type === 'xhtml' || type.includes('html'));
}

function bodyOf(value: unknown, html: boolean): { value: string; html: boolean } | undefined {
  const text = textOf(value);
  return text && text.trim() ? { value: text, html } : undefined;
}

function readJsonFeed(text: string): RawFeed | { reason: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return { reason: `malformed JSON: ${messageOf(error).slice(0, 200)}` };
  }
  const feed = asRecord(doc);
  const version = stringOf(feed.version);
  if (!version || !/^https?:\/\/jsonfeed\.org\/version\//.test(version) || !Array.isArray(feed.items)) {
    return { reason: 'JSON that is not a JSON Feed (no jsonfeed.org version and items)' };
  }
  const items: readonly unknown[] = feed.items;
  return { kind: 'json', title: titleOf(feed.title), entries: items, total: items.length, fields: jsonFields };
}

/** JSON Feed items: `url`, else `external_url`; content_html, else content_text, else summary. */
function jsonFields(item: Record<string, unknown>, feedUrl: string): RawEntry {
  const link = stringOf(item.url) ?? stringOf(item.external_url);
  const bodies = [bodyOf(stringOf(item.content_html), true), bodyOf(stringOf(item.content_text), false), bodyOf(stringOf(item.summary), false)];
  return {
    title: titleOf(stringOf(item.title)),
    url: link === undefined ? undefined : httpUrl(link, feedUrl),
    dates: [stringOf(item.date_published), stringOf(item.date_modified)],
    bodies: bodies.filter((body) => body !== undefined),
  };
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function listOf(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined ? [] : [value];
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The text of a parsed element: a string, the `#text` of one with attributes, the first of repeated ones. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return textOf(value[0]);
  return stringOf(asRecord(value)['#text']);
}

/** A title decoded and collapsed (feeds escape HTML in titles, or write markup in Atom's html and xhtml types). */
function titleOf(value: unknown): string | undefined {
  const text = textOf(value)?.slice(0, 4 * SOURCE_TITLE_MAX_CHARS);
  if (text === undefined) return undefined;
  // Only tags: a title is short, and a `<` before a space or digit is text ("5 < 6 ways").
  const plain = clean(text.replace(/<\/?[A-Za-z][^<>]*>/g, ' '));
  return plain ? cutText(plain, SOURCE_TITLE_MAX_CHARS) : undefined;
}

/**
 * The URL a link names, as a site read keeps it: `raw` resolved against `base` (when given), only
 * http(s), user:password removed, at most 2,048 characters; undefined otherwise (not a URL, another
 * scheme, too long). Example: `httpUrl('/post/1', 'https://u:p@acme.test/feed')` is
 * `https://acme.test/post/1`.
 */
export function httpUrl(raw: string, base?: string): string | undefined {
  const trimmed = raw.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH) return undefined;
  let url: URL;
  try {
    url = base === undefined ? new URL(trimmed) : new URL(trimmed, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.username = '';
  url.password = '';
  return url.href.length > MAX_URL_LENGTH ? undefined : url.href;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;
// RFC 822 / 2822 as feeds write it: an optional weekday, day, month name, 2- or 4-digit year, then a time we need not read.
const RFC_822_DATE = /^(?:[A-Za-z]{2,9},?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\.?\s+(\d{4}|\d{2})(?:$|\s)/;

/**
 * YYYY-MM-DD from an ISO 8601 date (`2026-03-02T10:00:00Z`) or an RFC 822 one (`Mon, 02 Mar 2026
 * 10:00:00 GMT`), as written (the publisher's calendar day, not converted to UTC); undefined when
 * `value` holds no real calendar date from 1900 on. Two-digit years read as RFC 2822 says (00-49:
 * 2000s). Example: `calendarDate('Tue, 3 Mar 26 08:00 +0100')` is `2026-03-03`.
 */
export function calendarDate(value: string): string | undefined {
  const text = value.trim().slice(0, 100);
  const iso = ISO_DATE.exec(text);
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const rfc = RFC_822_DATE.exec(text);
  if (!rfc) return undefined;
  const month = MONTHS.indexOf(rfc[2]!.slice(0, 3).toLowerCase()) + 1;
  const short = Number(rfc[3]);
  const year = rfc[3]!.length === 2 ? (short < 50 ? 2000 + short : 1900 + short) : short;
  return month === 0 ? undefined : validDate(year, month, Number(rfc[1]));
}

function validDate(year: number, month: number, day: number): string | undefined {
  if (year < 1900 || year > 9999) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The readable text of an HTML fragment (an entry's content, a job's description) as
 * `extractPageText` gives it, at most `maxChars` characters (cut at a paragraph or word); only the
 * first ten times `maxChars` of the HTML is read. Markup the extractor refuses (too complex, a
 * parser error) gives ''. Example: `await htmlToText('<p>One</p><p>Two</p>', 100)` is `'One\n\nTwo'`.
 */
export async function htmlToText(html: string, maxChars: number): Promise<string> {
  try {
    const page = await extractPageText(html.slice(0, Math.max(0, 10 * maxChars)));
    return cutText(page.text, maxChars);
  } catch (error) {
    // The extractor's refusal is a property of the content: this piece has no text we can read.
    if (error instanceof PageUnreadable) return '';
    throw error;
  }
}

/**
 * `text` if it fits in `max` characters; else cut at the last blank line, line break or space in
 * its second half (a hard cut failing those, never splitting a surrogate pair), ends trimmed.
 * Example: `cutText('one two three', 9)` is `'one two'`.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  for (const mark of ['\n\n', '\n', ' ']) {
    const at = head.lastIndexOf(mark);
    if (at > max / 2) return head.slice(0, at).trimEnd();
  }
  return (/[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head).trimEnd();
}
