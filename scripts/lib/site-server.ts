/**
 * A web site described as data (scripts/lib/site-types.ts), served on 127.0.0.1 at a free port: for
 * the tests of site reads (started by vitest.config.ts), `npm run dev` (the demo market's companies)
 * and `npm run bench:sites`. One server per site, so each site has its own origin, as
 * SITE_ORIGIN_OVERRIDES needs (domain -> origin; the reader requests that origin + the URL's path).
 *
 * Every page answered with 200 carries an ETag (a hash of its status, type and body) and a
 * Last-Modified; a GET or HEAD with a matching If-None-Match (or, without one, an If-Modified-Since
 * at or after Last-Modified) gets 304. Every request is logged (method, path and query, arrival
 * time, conditional headers, user agent, status, requests in flight at arrival) with the most in
 * flight at once.
 *
 * Control paths (never logged), for tests that run inside workerd and reach the site only over HTTP:
 *   GET    /__site/log                 the log as JSON (SiteLog)
 *   POST   /__site/log/reset           empties the log and the in-flight maximum
 *   PUT    /__site/pages?path=/pricing the request body becomes that page's body (`&type=text/plain`
 *                                      its Content-Type, else the page's own or HTML; `&status=410`
 *                                      its status, else 200; `&headers={"retry-after":"1"}` its extra
 *                                      response headers as a JSON object, replacing the page's own,
 *                                      else the page's own kept); a new ETag and a later Last-Modified
 *   DELETE /__site/pages?path=/pricing that page answers 404 from now on
 * They take at most MAX_CONTROL_BODY_BYTES and paths of at most MAX_PATH_LENGTH characters. From
 * Node, `startSite` gives the same as functions.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  CONTROL_PREFIX,
  MAX_CONTROL_BODY_BYTES,
  MAX_CONTROL_HEADERS,
  MAX_DELAY_MS,
  MAX_LOG_ENTRIES,
  MAX_PATH_LENGTH,
  MAX_SITE_PAGES,
  type SiteLog,
  type SitePage,
  type SiteRequest,
  type SiteSpec,
} from './site-types.ts';

export type { SiteLog, SitePage, SiteRequest, SiteSpec, SitemapFile } from './site-types.ts';

const HTML = 'text/html; charset=utf-8';
const MAX_PADDED_BYTES = 256 * 1024 * 1024;
const NOT_FOUND: SitePage = { status: 404, body: '<!doctype html><title>Not found</title><p>No such page.</p>' };

/** A running site. */
export interface RunningSite {
  /** `http://127.0.0.1:<port>`: where its pages and control paths are. */
  readonly origin: string;
  readonly port: number;
  /** The log (a copy). */
  log(): SiteLog;
  resetLog(): void;
  /** Sets (replaces) the page at `path`; a new ETag and a later Last-Modified than before. */
  setPage(path: string, page: SitePage): void;
  /** The page at `path` answers 404 from now on. */
  removePage(path: string): void;
  close(): Promise<void>;
}

export interface StartOptions {
  /** The port (default: a free one). */
  port?: number;
  /** Unref the server, so it never keeps the process alive (vitest's config module starts sites this way). */
  unref?: boolean;
}

interface Stored {
  page: SitePage;
  body: Buffer;
  etag: string;
  lastModified: Date;
}

/** Starts `spec` on 127.0.0.1. */
export async function startSite(spec: SiteSpec, options: StartOptions = {}): Promise<RunningSite> {
  const started = wholeSeconds(new Date());
  const pages = new Map<string, Stored>();
  const store = (path: string, page: SitePage, lastModified: Date) => pages.set(path, stored(page, lastModified));
  for (const [path, page] of Object.entries(spec.pages)) store(path, page, page.lastModified ?? started);
  if (spec.robots !== undefined) store('/robots.txt', { body: spec.robots, type: 'text/plain; charset=utf-8' }, started);
  for (const [path, file] of Object.entries(spec.sitemaps ?? {})) {
    const xml = Buffer.from(file.xml, 'utf8');
    const padded = file.padTo && file.padTo > xml.length ? Buffer.concat([xml, Buffer.alloc(Math.min(file.padTo, MAX_PADDED_BYTES) - xml.length, ' ')]) : xml;
    store(path, file.gzip ? { body: gzipSync(padded, { level: 9 }), type: 'application/gzip' } : { body: padded, type: 'application/xml' }, started);
  }

  let requests: SiteRequest[] = [];
  let total = 0;
  let dropped = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const resetLog = () => {
    requests = [];
    total = 0;
    dropped = 0;
    maxInFlight = inFlight;
  };
  const log = (): SiteLog => ({ requests: requests.map((entry) => ({ ...entry })), total, dropped, inFlight, maxInFlight });

  const setPage = (path: string, page: SitePage) => {
    checkPath(path);
    const previous = pages.get(path)?.lastModified ?? started;
    if (!pages.has(path) && pages.size >= MAX_SITE_PAGES) throw new RangeError(`a site holds at most ${MAX_SITE_PAGES} pages`);
    // Last-Modified has whole seconds: a change within the second of the last one is still later.
    const now = wholeSeconds(new Date());
    store(path, page, page.lastModified ?? new Date(Math.max(now.getTime(), previous.getTime() + 1000)));
  };
  const removePage = (path: string) => setPage(path, NOT_FOUND);

  /** The page for a request: an exact key (with query), the bare path, a generated one, or 404. */
  const find = (url: URL): Stored => {
    const exact = pages.get(`${url.pathname}${url.search}`) ?? pages.get(url.pathname);
    if (exact) return exact;
    const generated = spec.generate?.(url.pathname, url.searchParams);
    return stored(generated ?? NOT_FOUND, generated?.lastModified ?? started);
  };

  const serve = (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const entry: SiteRequest = {
      method: request.method ?? 'GET',
      path: (request.url ?? '/').slice(0, MAX_PATH_LENGTH),
      at: Date.now(),
      status: null,
      inFlight: ++inFlight,
      ...header(request, 'if-none-match', 'ifNoneMatch'),
      ...header(request, 'if-modified-since', 'ifModifiedSince'),
      ...header(request, 'user-agent', 'userAgent'),
    };
    maxInFlight = Math.max(maxInFlight, inFlight);
    total++;
    requests.push(entry);
    if (requests.length > MAX_LOG_ENTRIES) {
      requests.shift();
      dropped++;
    }
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight--;
    };
    response.on('close', finish);

    const page = find(url);
    const answer = () => {
      if (response.destroyed) return;
      const status = page.page.status ?? 200;
      if (status === 200 && (request.method === 'GET' || request.method === 'HEAD') && notModified(request, page)) {
        entry.status = 304;
        response.writeHead(304, { etag: page.etag, 'last-modified': page.lastModified.toUTCString() });
        response.end();
        return;
      }
      const headers: Record<string, string> = { 'content-type': page.page.type ?? HTML, 'content-length': String(page.body.byteLength), ...page.page.headers };
      if (status === 200) Object.assign(headers, { etag: page.etag, 'last-modified': page.lastModified.toUTCString() });
      if (page.page.location !== undefined) headers.location = page.page.location;
      entry.status = status;
      response.writeHead(status, headers);
      response.end(request.method === 'HEAD' ? undefined : page.body);
    };
    const delay = page.page.delayMs;
    if (delay === 'hang') return; // until the client gives up (the server closes the socket when it does)
    if (delay !== undefined && delay > 0) {
      const timer = setTimeout(answer, Math.min(delay, MAX_DELAY_MS));
      response.on('close', () => clearTimeout(timer));
    } else {
      answer();
    }
  };

  const control = (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const route = `${request.method} ${url.pathname}`;
    if (route === `GET ${CONTROL_PREFIX}log`) return json(response, 200, log());
    if (route === `POST ${CONTROL_PREFIX}log/reset`) {
      resetLog();
      return json(response, 200, { reset: true });
    }
    if (url.pathname !== `${CONTROL_PREFIX}pages` || (request.method !== 'PUT' && request.method !== 'DELETE')) {
      return json(response, 404, { error: `no control path ${route.slice(0, 200)}; see scripts/lib/site-server.ts` });
    }
    const path = url.searchParams.get('path') ?? '';
    const status = Number(url.searchParams.get('status') ?? '200');
    if (!validPath(path)) return json(response, 400, { error: `path must start with / and have at most ${MAX_PATH_LENGTH} characters` });
    if (!Number.isInteger(status) || status < 200 || status > 599) return json(response, 400, { error: 'status must be an integer from 200 to 599' });
    if ((url.searchParams.get('type') ?? '').length > 200) return json(response, 400, { error: 'type has at most 200 characters' });
    const headers = extraHeaders(url.searchParams.get('headers'));
    if (headers === 'invalid') return json(response, 400, { error: `headers is a JSON object of at most ${MAX_CONTROL_HEADERS} header names to string values (no line breaks)` });
    if (request.method === 'DELETE') {
      removePage(path);
      return json(response, 200, { path, status: 404 });
    }
    readBody(request, MAX_CONTROL_BODY_BYTES).then(
      (body) => {
        if (body === undefined) {
          response.setHeader('connection', 'close');
          return json(response, 413, { error: `a page body has at most ${MAX_CONTROL_BODY_BYTES} bytes` });
        }
        const type = url.searchParams.get('type') ?? undefined;
        const before = pages.get(path)?.page;
        try {
          setPage(path, { ...before, body, status, type: type ?? before?.type ?? HTML, lastModified: undefined, ...(headers === undefined ? {} : { headers }) });
        } catch (error) {
          return json(response, 409, { error: error instanceof Error ? error.message : String(error) });
        }
        const now = pages.get(path)!;
        json(response, 200, { path, status, etag: now.etag, lastModified: now.lastModified.toUTCString() });
      },
      () => response.destroy(),
    );
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site.invalid');
    if (url.pathname.startsWith(CONTROL_PREFIX)) return control(request, response, url);
    serve(request, response, url);
  });
  // A client that gives up on a hanging page closes its socket; nothing to report.
  server.on('clientError', (_, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  if (options.unref) server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    log,
    resetLog,
    setPage,
    removePage,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Several sites, each on its own port, by domain; `overrides` is their SITE_ORIGIN_OVERRIDES value. */
export async function startSites(
  specs: Record<string, SiteSpec>,
  options: Omit<StartOptions, 'port'> = {},
): Promise<{ sites: Record<string, RunningSite>; overrides: string; close(): Promise<void> }> {
  const sites: Record<string, RunningSite> = {};
  try {
    for (const [domain, spec] of Object.entries(specs)) sites[domain] = await startSite(spec, options);
  } catch (error) {
    await Promise.all(Object.values(sites).map((site) => site.close()));
    throw error;
  }
  return {
    sites,
    overrides: siteOriginOverrides(Object.fromEntries(Object.entries(sites).map(([domain, site]) => [domain, site.origin]))),
    close: async () => void (await Promise.all(Object.values(sites).map((site) => site.close()))),
  };
}

/** `a.com=http://127.0.0.1:9301,b.com=http://127.0.0.1:9302`, the format of SITE_ORIGIN_OVERRIDES. */
export function siteOriginOverrides(origins: Record<string, string>): string {
  return Object.entries(origins)
    .map(([domain, origin]) => `${domain}=${origin}`)
    .join(',');
}

function stored(page: SitePage, lastModified: Date): Stored {
  const body = typeof page.body === 'string' ? Buffer.from(page.body, 'utf8') : Buffer.from(page.body ?? new Uint8Array());
  const hash = createHash('sha1')
    .update(`${page.status ?? 200}\n${page.type ?? HTML}\n`)
    .update(body)
    .digest('base64url')
    .slice(0, 22);
  return { page, body, etag: `"${hash}"`, lastModified: wholeSeconds(lastModified) };
}

/** RFC 9110 13.2.2: If-None-Match decides when present; otherwise If-Modified-Since. */
function notModified(request: IncomingMessage, page: Stored): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === page.etag);
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && page.lastModified.getTime() <= since;
}

function header<K extends string>(request: IncomingMessage, name: string, key: K): Partial<Record<K, string>> {
  const value = request.headers[name];
  return typeof value === 'string' ? ({ [key]: value.slice(0, 1_024) } as Record<K, string>) : {};
}

function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function validPath(path: string): boolean {
  return path.startsWith('/') && path.length <= MAX_PATH_LENGTH;
}

function checkPath(path: string): void {
  if (!validPath(path)) throw new RangeError(`a page path starts with / and has at most ${MAX_PATH_LENGTH} characters: ${path.slice(0, 100)}`);
}

/** The `headers` of a control request: a JSON object of header names to values, undefined when absent. */
function extraHeaders(text: string | null): Record<string, string> | undefined | 'invalid' {
  if (text === null) return undefined;
  if (text.length > 4_096) return 'invalid';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'invalid';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'invalid';
  const entries = Object.entries(value);
  if (entries.length > MAX_CONTROL_HEADERS) return 'invalid';
  const valid = entries.every(([name, header]) => /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(name) && typeof header === 'string' && header.length <= 1_024 && !/[\r\n\0]/.test(header));
  return valid ? (Object.fromEntries(entries) as Record<string, string>) : 'invalid';
}

function json(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
}

/** The request body, or undefined past `limit` bytes (the rest is not read). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? '0');
    if (declared > limit) return resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.removeAllListeners('data');
        request.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
