import { readBody, untilAborted } from '../ground/body-reading.ts';
import { withoutCredentials } from '../ground/url-credentials.ts';
import { decodeBody, extractPageText, PageUnreadable, type PageTextOptions } from './html-text.ts';
import { SOURCE_CONTENT_MAX_CHARS, SOURCE_TITLE_MAX_CHARS } from './object-types.ts';
import { checkSourceUrl, type SourceUrlOptions } from './source-url-policy.ts';
import { messageOf } from '../ground/errors.ts';

/**
 * Fetches one web page to add it as a source: its readable title and text, or why not. It never
 * throws for anything the page or the network does; every outcome is a result.
 *
 * Bounds (SOURCE_FETCH): one deadline of 10 s for the whole page, redirects and body included; at
 * most 2 MiB of body read (decoded, so a compressed bomb stops there too; a Content-Length over it
 * is refused before reading); at most 5 redirects, followed by hand, each target checked again by
 * the same URL policy as the first (checkSourceUrl: http(s) only, public hosts only) and a URL
 * already visited ending the chain as a loop.
 *
 * Content types: `text/html` and `application/xhtml+xml` are reduced to their readable text
 * (html-text.ts); `text/plain` is taken as it is (line breaks normalized, control characters
 * removed). Anything else is refused, naming the type. The body is decoded with the charset of a
 * byte-order mark, else of the Content-Type, else (HTML) of a `<meta charset>` in its first 1024
 * bytes, else UTF-8 (textEncodingOf, html-text.ts).
 */

export const SOURCE_FETCH = {
  timeoutMs: 10_000,
  maxBodyBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
} as const;

export const SOURCE_USER_AGENT = 'Recon-Sources/1 (adds a page to a knowledge base at a user\'s request)';

export interface SourceFetchOptions extends SourceUrlOptions {
  /** Outbound fetch (default: the global one); tests pass their own. */
  fetch?: typeof fetch;
  /** Default and maximum SOURCE_FETCH.timeoutMs. */
  timeoutMs?: number;
}

export type FetchedPage =
  | {
      ok: true;
      /** The URL the page was read from, after redirects, without fragment. */
      url: string;
      /** Body bytes read. */
      bytes: number;
      title: string;
      content: string;
      publishedAt?: string;
      /** The text was longer than a source may hold and was cut at a line break before SOURCE_CONTENT_MAX_CHARS. */
      truncated: boolean;
    }
  | { ok: false; error: string; bytes?: number };

/** The statuses followed as redirects (by hand, each target checked again). */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const MAX_SHOWN = 200;

/** Fetches and reads `url`, which must already have passed checkSourceUrl with the same options. */
export async function fetchSource(url: string, options: SourceFetchOptions): Promise<FetchedPage> {
  const timeoutMs = sourceTimeoutMs(options.timeoutMs);
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const { signal } = controller;
  let bytes: number | undefined;
  try {
    let current = url;
    const visited = new Set([current]);
    for (let redirects = 0; ; redirects++) {
      const response = await untilAborted(
        fetchFn(current, {
          method: 'GET',
          redirect: 'manual',
          signal,
          headers: { accept: 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8', 'user-agent': SOURCE_USER_AGENT },
        }),
        signal,
      );
      if (REDIRECT_STATUSES.has(response.status)) {
        discard(response);
        const location = response.headers.get('location');
        if (!location) return { ok: false, error: `HTTP ${response.status} without a Location to follow` };
        const target = URL.canParse(location, current) ? new URL(location, current).href : undefined;
        if (!target) return { ok: false, error: `HTTP ${response.status} to a Location that is not a URL: ${shown(location)}` };
        if (redirects >= SOURCE_FETCH.maxRedirects) {
          return { ok: false, error: `more than ${SOURCE_FETCH.maxRedirects} redirects; the last one pointed to ${shown(target)}` };
        }
        const check = checkSourceUrl(target, options);
        if (!check.ok) return { ok: false, error: `the redirect to ${shown(target)} was not followed: the URL ${check.message}` };
        if (visited.has(check.url)) return { ok: false, error: `a redirect loop: ${shown(check.url)} was already visited` };
        visited.add(check.url);
        current = check.url;
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        discard(response);
        return { ok: false, error: `HTTP ${response.status}${response.statusText ? ` ${shown(response.statusText)}` : ''}` };
      }
      const contentType = response.headers.get('content-type') ?? '';
      const type = contentType.split(';')[0]!.trim().toLowerCase();
      const html = HTML_TYPES.has(type);
      if (!html && type !== 'text/plain') {
        discard(response);
        return {
          ok: false,
          error: type
            ? `the page is ${shown(type)}; only HTML (text/html) and plain text (text/plain) can be added`
            : 'the page has no Content-Type; only HTML (text/html) and plain text (text/plain) can be added',
        };
      }
      const declared = Number(response.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > SOURCE_FETCH.maxBodyBytes) {
        discard(response);
        return { ok: false, error: `the page is ${mib(declared)} (Content-Length); at most ${mib(SOURCE_FETCH.maxBodyBytes)} is read` };
      }
      const read = await readBody(response.body, SOURCE_FETCH.maxBodyBytes, signal);
      if ('error' in read) throw read.error;
      if (read.over) return { ok: false, error: `the page is larger than ${mib(SOURCE_FETCH.maxBodyBytes)}, the most that is read` };
      bytes = read.bytes.byteLength;
      return await readPageText(read.bytes, contentType, current);
    }
  } catch (error) {
    if (error instanceof PageUnreadable) return { ok: false, error: error.message, ...(bytes === undefined ? {} : { bytes }) };
    if (signal.aborted) return { ok: false, error: `timed out after ${timeoutMs / 1000} s`, ...(bytes === undefined ? {} : { bytes }) };
    return { ok: false, error: `could not be fetched: ${shown(messageOf(error))}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a Content-Type is one readPageText reads as HTML (`text/html`, `application/xhtml+xml`); any other is plain text to it. */
export function isHtmlType(contentType: string): boolean {
  return HTML_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase());
}

/**
 * What a page read says, as a source holds it: its text (scripts, styles and navigation left out;
 * cut at a line break past SOURCE_CONTENT_MAX_CHARS), its title (else its first short line, else
 * the URL without credentials) and when it was published. `contentType` decides HTML or plain text
 * (isHtmlType); the body is decoded in the charset textEncodingOf names. Throws PageUnreadable for
 * HTML the parser gives up on. `options.also` adds handlers to the HTML parse (extractPageText);
 * it is not called for plain text.
 */
export async function readPageText(body: Uint8Array, contentType: string, url: string, options: PageTextOptions = {}): Promise<FetchedPage> {
  const bytes = body.byteLength;
  const html = isHtmlType(contentType);
  const decoded = decodeBody(body, contentType, html);
  const page = html ? await extractPageText(decoded, options) : { title: undefined, text: plainText(decoded), publishedAt: undefined };
  if (!page.text) return { ok: false, error: 'the page has no readable text (scripts, styles and navigation are left out)', bytes };
  const content = cut(page.text, SOURCE_CONTENT_MAX_CHARS);
  const title = cut(page.title ?? firstLine(page.text) ?? withoutCredentials(url), SOURCE_TITLE_MAX_CHARS, ' ');
  return {
    ok: true,
    url,
    bytes,
    title,
    content,
    ...(page.publishedAt ? { publishedAt: page.publishedAt } : {}),
    truncated: content.length < page.text.length,
  };
}

/** The deadline of one page in ms: `timeoutMs` as a whole number from 1 to SOURCE_FETCH.timeoutMs (the default). */
export function sourceTimeoutMs(timeoutMs?: number): number {
  return Math.min(Math.max(1, Math.floor(timeoutMs ?? SOURCE_FETCH.timeoutMs)), SOURCE_FETCH.timeoutMs);
}


/** Drops a response's body unread, so its connection is released. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}


// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufeff]/g;

/** Plain text as it is, but with \n line breaks, no control characters and no blank edges. */
function plainText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROLS, '').trim();
}

/** The first line, when it is short enough to be a title. */
function firstLine(text: string): string | undefined {
  const line = text.split('\n', 1)[0]!.trim();
  return line.length > 0 && line.length <= 200 ? line : undefined;
}

/**
 * `text` if it fits in `max` characters; else cut at the last line break (a blank line first) or,
 * failing those, the last `fallback` character before the limit, so no sentence is cut mid-word.
 */
function cut(text: string, max: number, fallback = '\n'): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  for (const mark of ['\n\n', fallback, ' ']) {
    const at = head.lastIndexOf(mark);
    if (at > max / 2) return head.slice(0, at).trimEnd();
  }
  // No mark in the second half: a hard cut, which must not split a surrogate pair.
  return (/[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head).trimEnd();
}

/** `text` cut to 200 characters (with an ellipsis), for messages that quote what a server sent. */
export function shown(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

/** `n` bytes in MiB, for messages: "2 MiB", "2.5 MiB". */
export const mib = (n: number) => `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
