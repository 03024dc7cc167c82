import type { Browser, BrowserWorker, HTTPRequest, Page } from '@cloudflare/puppeteer';
import { messageOf } from '../ground/errors.ts';

/**
 * Pages only a browser sees: a company page whose HTML is an empty mount point (`<div id="root">`)
 * and a script bundle, its text written by scripts. `needsBrowser` says which pages those are, from
 * the HTML a plain fetch got; `renderPage` loads such a page in Browser Rendering (the BROWSER
 * binding, through @cloudflare/puppeteer) and returns the HTML the scripts made, for the same text
 * extraction as any page.
 *
 * The page is hostile and pays nothing for our browser time, so a render is fenced in:
 * - it requests only its own origin (the origin of the URL loaded), and only documents, scripts and
 *   XHR/fetch (what writes the text); images, fonts, media, stylesheets, beacons, other sites and
 *   anything robots.txt refuses are aborted before they are sent; at most MAX_REQUESTS_PER_PAGE;
 *   WebSocket, WebTransport and WebRTC (which request interception does not see) are removed
 *   from the page before its scripts run;
 * - one deadline covers the page, from the moment it is opened: a page that never settles (scripts
 *   polling forever) ends there with the document as it is, or fails if none loaded. Opening it
 *   (the browser's start, its context and tab) is ours, not the page's, and has its own bound
 *   (BROWSER_OPEN_TIMEOUT_MS): a slow start on a busy machine or a cold Browser Rendering pool
 *   must not eat the page's time, or a page that settles in 3 s fails because the browser took 8;
 * - at most MAX_RENDERED_HTML_BYTES of HTML come back;
 * - nothing is kept from one page to the next: each render has a fresh browser context (no
 *   cookies, storage or cache of another page), closed when it ends.
 *
 * Each render launches its own browser session and closes it at the end, whatever happened: a
 * page stuck in a script never poisons the next one, and no browser outlives its read. (Reusing an
 * idle session with puppeteer.sessions/connect would save the start, about a second, but under
 * wrangler dev and the test pool a session disconnected from stays marked as connected, so none is
 * ever idle again and every render would leave a Chromium running.)
 */

/** Readable text shorter than this (characters, spaces collapsed) is "little text": a page with more is read as it is. */
export const MIN_READABLE_CHARS = 200;
/** Readable text shorter than this is no text at all: with a script on the page, a browser is needed whatever the markup. */
export const NO_TEXT_CHARS = 20;
/** The most HTML of a rendered page returned, in UTF-8 bytes (the page fetcher's bound of a page). */
export const MAX_RENDERED_HTML_BYTES = 2 * 1024 * 1024;
/** The most requests one page may make (its document included); past it, every request is aborted. */
export const MAX_REQUESTS_PER_PAGE = 100;
/** The longest deadline a render may be given (SITE_READ_RENDER_TIMEOUT_MS is at most this). */
export const MAX_RENDER_DEADLINE_MS = 30_000;

/** Resource types a rendered page may request: what writes its text. */
const ALLOWED_RESOURCE_TYPES: ReadonlySet<string> = new Set(['document', 'script', 'xhr', 'fetch']);
/** Bound of opening a page: the browser's start, its context and its tab (before the page's deadline starts). */
const BROWSER_OPEN_TIMEOUT_MS = 20_000;
/** Of the deadline, the part kept for reading the document once the wait for the network ends (at most 2 s). */
const READ_RESERVE_MS = 2_000;
/** Bound of closing a context or a browser, after the deadline (cleanup never hangs a read). */
const CLOSE_TIMEOUT_MS = 5_000;
/** The most characters of an error message kept in a failure's reason. */
const MAX_REASON_LENGTH = 300;
/** How much of a page's HTML needsBrowser looks at, in characters (a mount point and scripts are near the top). */
const MAX_SCANNED_HTML_CHARS = 512 * 1024;

/** An element scripts mount an application into: React, Vue, Next.js, Nuxt, Gatsby, Angular, Svelte. */
const SCRIPT_ROOT = /\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby|svelte|main-app)["'\s>]|\bdata-(?:reactroot|server-rendered|v-app)\b|\bng-version\s*=|<app-root\b/i;
/** A script element, with a source or inline. */
const SCRIPT_ELEMENT = /<script\b(?![^>]*\btype\s*=\s*["']?(?:application\/(?:ld\+)?json|text\/template)\b)/i;
/** A <noscript> that asks for JavaScript ("You need to enable JavaScript to run this app."), within its first 500 characters. */
const NOSCRIPT_JS_NOTICE = /<noscript\b[^>]{0,500}>(?:(?!<\/noscript)[\s\S]){0,500}?\bjavascript\b/i;

/**
 * Whether a page's HTML needs a browser: little readable text (under MIN_READABLE_CHARS characters)
 * and a sign that scripts write the rest: a `<noscript>` asking for JavaScript; or a script with an
 * application's mount point (`id="root"`, `#app`, `#__next`, `#__nuxt`, `[data-reactroot]`,
 * Angular's `ng-version`...) or with no text at all (under NO_TEXT_CHARS). A short page without
 * scripts is read as it is: a browser would show the same. Pure; looks at the first 512 KiB of
 * `html`; `readableText` is the text extracted from it (noscript text is not readable text).
 */
export function needsBrowser(html: string, readableText: string): boolean {
  const text = readableText.replace(/\s+/g, ' ').trim();
  if (text.length >= MIN_READABLE_CHARS) return false;
  const head = html.length > MAX_SCANNED_HTML_CHARS ? html.slice(0, MAX_SCANNED_HTML_CHARS) : html;
  if (NOSCRIPT_JS_NOTICE.test(head)) return true;
  return SCRIPT_ELEMENT.test(head) && (text.length < NO_TEXT_CHARS || SCRIPT_ROOT.test(head));
}

/** A rendered page (its HTML as scripts left it, the URL it ended on, the page's time in ms from its opening), or why there is none. */
export type RenderedPage = { ok: true; url: string; html: string; ms: number } | { ok: false; reason: string };

export interface RenderOptions {
  /**
   * What is loaded: the loopback origin serving `url`'s host + its path in development and tests
   * (SITE_ORIGIN_OVERRIDES), else `url` itself (the default). Its origin is the only one requested.
   */
  fetchUrl?: string;
  /** The deadline of the page in ms, from the moment it is opened (SITE_READ_RENDER_TIMEOUT_MS; at most 30 s). */
  deadlineMs: number;
  /** The User-Agent of every request (SITE_READER_USER_AGENT). */
  userAgent: string;
  /**
   * Whether robots.txt lets us request a URL, asked for every request of the page (its document
   * included) with the URL as `url`'s host names it, not the loopback origin it is fetched from.
   */
  allowRequest?: (url: string) => boolean;
}

/**
 * Renders `url` in Browser Rendering: opens a page (within BROWSER_OPEN_TIMEOUT_MS), loads it
 * (requesting `fetchUrl`, the loopback origin in dev and tests when SITE_ORIGIN_OVERRIDES maps the
 * host, else the URL itself), waits until the network is idle (no request for 500 ms) or the page's
 * deadline, and returns the rendered document's HTML (at most
 * MAX_RENDERED_HTML_BYTES) with the URL it ended on, as `url`'s host names it. Never throws: a
 * browser that will not start, a document that fails, answers 4xx/5xx or does not arrive by the
 * deadline is `{ ok: false, reason }`. See the file comment for what a page may request.
 */
export async function renderPage(browser: BrowserWorker, url: string, options: RenderOptions): Promise<RenderedPage> {
  const target = httpUrl(options.fetchUrl ?? url);
  const publicUrl = httpUrl(url);
  if (!target || !publicUrl) return { ok: false, reason: 'not an http(s) URL' };
  const opening = Date.now() + BROWSER_OPEN_TIMEOUT_MS;
  let session: Browser | undefined;
  try {
    // Loaded on the first render: most isolates never render, and the library is large.
    const { default: puppeteer } = await import('@cloudflare/puppeteer');
    session = await withDeadline(puppeteer.launch(browser), opening - Date.now(), 'the browser did not start in time', (late) => void late.close().catch(() => {}));
    const context = await withDeadline(session.createBrowserContext(), opening - Date.now(), 'the browser did not open a page in time');
    try {
      const page = await withDeadline(context.newPage(), opening - Date.now(), 'the browser did not open a page in time');
      const started = Date.now();
      const deadline = started + Math.min(Math.max(options.deadlineMs, 0), MAX_RENDER_DEADLINE_MS);
      // loadAndRead keeps the deadline itself; this bounds a browser that stops answering altogether.
      return await withDeadline(loadAndRead(page, target, publicUrl, { started, deadline }, options), deadline - Date.now() + CLOSE_TIMEOUT_MS, 'the browser stopped answering');
    } finally {
      await closeWithin(context.close());
    }
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  } finally {
    if (session) await closeWithin(session.close());
  }
}

/** Loads `target` in `page` under the fence of the file comment and reads its HTML by `deadline`. */
async function loadAndRead(page: Page, target: URL, publicUrl: URL, { started, deadline }: { started: number; deadline: number }, options: RenderOptions): Promise<RenderedPage> {
  const fence: RequestFence = { origin: target.origin, publicOrigin: publicUrl.origin, allowRequest: options.allowRequest, requests: 0 };
  let documentStatus: number | undefined;
  let documentLoaded = false;
  await page.setUserAgent(options.userAgent);
  await page.evaluateOnNewDocument(WITHOUT_SOCKETS);
  await page.setRequestInterception(true);
  page.on('request', (request) => void decide(request, fence));
  page.on('response', (response) => {
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) documentStatus = response.status();
  });
  page.on('domcontentloaded', () => (documentLoaded = true));

  const reserve = Math.min(READ_RESERVE_MS, Math.floor((deadline - Date.now()) / 4));
  const waitMs = Math.max(deadline - Date.now() - reserve, 1);
  // A page that keeps the network busy never goes idle: the wait ends at the deadline, and the page
  // is read as it is then.
  const navigation = await page.goto(target.href, { waitUntil: 'networkidle0', timeout: waitMs }).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (documentStatus !== undefined && documentStatus >= 400) return { ok: false, reason: `the page answered HTTP ${documentStatus}` };
  if (!documentLoaded) {
    return { ok: false, reason: navigation && !isTimeout(navigation) ? `the page did not load: ${reasonOf(navigation)}` : `the page did not load within ${waitMs} ms` };
  }
  const html = await withDeadline(page.evaluate(readDocument(MAX_RENDERED_HTML_BYTES)) as Promise<unknown>, Math.max(deadline - Date.now(), reserve), 'the page did not let its HTML be read in time');
  if (typeof html !== 'string') return { ok: false, reason: 'the page has no document to read' };
  return { ok: true, url: publicUrlOf(page.url(), target.origin, publicUrl), html: truncateUtf8(html, MAX_RENDERED_HTML_BYTES), ms: Date.now() - started };
}

/** What a page may request (its own origin; robots.txt asked with `publicOrigin`), and how many requests it has made. */
export interface RequestFence {
  readonly origin: string;
  readonly publicOrigin: string;
  readonly allowRequest?: (url: string) => boolean;
  requests: number;
}

/**
 * Why a request of the page is aborted, or undefined to let it go: a resource type that writes no
 * text, another origin, the request budget spent, or robots.txt (asked with the public URL).
 */
export function refusal(requestUrl: string, resourceType: string, fence: RequestFence): string | undefined {
  if (!ALLOWED_RESOURCE_TYPES.has(resourceType)) return `a ${resourceType} request`;
  const url = URL.canParse(requestUrl) ? new URL(requestUrl) : undefined;
  if (!url || url.origin !== fence.origin) return 'another origin';
  if (fence.requests >= MAX_REQUESTS_PER_PAGE) return `more than ${MAX_REQUESTS_PER_PAGE} requests`;
  if (fence.allowRequest && !fence.allowRequest(`${fence.publicOrigin}${url.pathname}${url.search}`)) return 'robots.txt';
  return undefined;
}

/** Continues or aborts an intercepted request; a page closed meanwhile is no error. */
async function decide(request: HTTPRequest, fence: RequestFence): Promise<void> {
  if (request.isInterceptResolutionHandled()) return;
  const refused = refusal(request.url(), request.resourceType(), fence);
  try {
    if (refused) return await request.abort('blockedbyclient');
    fence.requests += 1;
    await request.continue();
  } catch {
    // The page or the browser went away first.
  }
}

/**
 * Run in the page before its scripts: connections that request interception cannot see (WebSocket,
 * WebTransport, WebRTC) are not there to open. A string, so no bundler helper leaks into it.
 */
const WITHOUT_SOCKETS = `(() => {
  for (const name of ['WebSocket', 'WebTransport', 'RTCPeerConnection', 'webkitRTCPeerConnection']) {
    try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); } catch {}
  }
})()`;

/** The page's HTML as an expression run in it, cut there to at most `maxBytes` of UTF-8, so no more crosses the wire. */
function readDocument(maxBytes: number): string {
  return `(() => {
    const root = document.documentElement;
    if (!root) return null;
    let html = (document.doctype ? '<!doctype html>' : '') + root.outerHTML;
    if (html.length > ${maxBytes}) html = html.slice(0, ${maxBytes});
    const bytes = new TextEncoder().encode(html);
    return bytes.length > ${maxBytes} ? new TextDecoder().decode(bytes.subarray(0, ${maxBytes})) : html;
  })()`;
}

/** At most `maxBytes` of UTF-8 of `text`, cut at a character boundary. */
function truncateUtf8(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

/** The URL the page ended on, named by the public host when it is on the loaded origin; else `publicUrl`. */
function publicUrlOf(pageUrl: string, origin: string, publicUrl: URL): string {
  const url = URL.canParse(pageUrl) ? new URL(pageUrl) : undefined;
  if (!url || url.origin !== origin) return publicUrl.href;
  return `${publicUrl.origin}${url.pathname}${url.search}`;
}

/** `promise`, or a rejection with `message` after `ms`; a result arriving late goes to `onLate` (to be closed). */
function withDeadline<T>(promise: Promise<T>, ms: number, message: string, onLate?: (value: T) => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expired = false;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired = true;
      reject(new Error(message));
    }, Math.max(ms, 0));
  });
  promise.then((value) => expired && onLate?.(value), () => {});
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Waits for a close at most CLOSE_TIMEOUT_MS; a close that fails or hangs is no error of the render. */
async function closeWithin(closing: Promise<void>): Promise<void> {
  await withDeadline(closing, CLOSE_TIMEOUT_MS, 'close timed out').catch(() => {});
}

function httpUrl(text: string): URL | undefined {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url : undefined;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || /timeout/i.test(error.message));
}

function reasonOf(error: unknown): string {
  const message = messageOf(error);
  return message.length > MAX_REASON_LENGTH ? `${message.slice(0, MAX_REASON_LENGTH)}...` : message;
}
