import { describe, expect, it } from 'vitest';
import { SOURCE_FETCH } from '../../src/oms/fetch-source.ts';
import { fetchSitePage, SITE_PAGE_ACCEPT, type SitePageOptions } from '../../src/sites/fetch-page.ts';
import { SITE_READER_USER_AGENT } from '../../src/sites/robots.ts';

/** One request the fake fetch received. */
interface Sent {
  url: string;
  headers: Record<string, string>;
  redirect: RequestInit['redirect'];
}

type Route = (url: URL, sent: Sent) => Response | Promise<Response>;

/**
 * A fetch that never reaches the network: each URL (href without fragment) is answered by its route,
 * anything else by a 599 that the test sees in `requested`. Every request is recorded.
 */
function fakeFetch(routes: Record<string, Route>) {
  const requested: Sent[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const sent: Sent = { url: url.href, headers: Object.fromEntries(new Headers(init?.headers).entries()), redirect: init?.redirect };
    requested.push(sent);
    const route = routes[url.href];
    if (!route) return new Response('no route', { status: 599 });
    return route(url, sent);
  }) as typeof fetch;
  return { fetch: fetcher, requested, urls: () => requested.map((request) => request.url) };
}

const html = (body: string, headers: Record<string, string> = {}) => () =>
  new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });
const redirect = (location: string, status = 301) => () => new Response(null, { status, headers: { location } });
const status = (code: number) => () => new Response('', { status: code });

function options(fake: ReturnType<typeof fakeFetch>, extra: Partial<SitePageOptions> = {}): SitePageOptions {
  return { domain: 'example.com', userAgent: SITE_READER_USER_AGENT, fetch: fake.fetch, ...extra };
}

const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe('fetchSitePage', () => {
  it('reads a 200 HTML page: body, content type, validators, bytes; sends the user agent and Accept, follows nothing by itself', async () => {
    const fake = fakeFetch({
      'https://example.com/pricing': html('<h1>Pricing</h1>', { etag: '"v1"', 'last-modified': 'Tue, 24 Nov 2026 10:00:00 GMT' }),
    });
    const page = await fetchSitePage('https://example.com/pricing', options(fake));
    expect(page).toMatchObject({
      kind: 'page',
      url: 'https://example.com/pricing',
      contentType: 'text/html; charset=utf-8',
      etag: '"v1"',
      lastModified: 'Tue, 24 Nov 2026 10:00:00 GMT',
      bytes: 16,
    });
    if (page.kind !== 'page') return;
    expect(text(page.body)).toBe('<h1>Pricing</h1>');
    expect(fake.requested).toEqual([
      { url: 'https://example.com/pricing', headers: { accept: SITE_PAGE_ACCEPT, 'user-agent': SITE_READER_USER_AGENT }, redirect: 'manual' },
    ]);
  });

  it('reads application/xhtml+xml, and leaves out validators a page does not send', async () => {
    const fake = fakeFetch({ 'https://example.com/': () => new Response('<html/>', { headers: { 'content-type': 'application/xhtml+xml' } }) });
    const page = await fetchSitePage('https://example.com/', options(fake));
    expect(page).toMatchObject({ kind: 'page', contentType: 'application/xhtml+xml', bytes: 7 });
    expect(page).not.toHaveProperty('etag');
    expect(page).not.toHaveProperty('lastModified');
  });

  it('sends If-None-Match and If-Modified-Since from the stored copy, and reads a 304 as not modified', async () => {
    const fake = fakeFetch({
      'https://example.com/about': (_url, sent) => (sent.headers['if-none-match'] === '"abc"' ? new Response(null, { status: 304 }) : html('changed')()),
    });
    const page = await fetchSitePage('https://example.com/about', options(fake, { conditional: { etag: '"abc"', lastModified: 'Mon, 23 Nov 2026 08:00:00 GMT' } }));
    expect(page).toEqual({ kind: 'not-modified', url: 'https://example.com/about' });
    expect(fake.requested[0]!.headers).toEqual({
      accept: SITE_PAGE_ACCEPT,
      'user-agent': SITE_READER_USER_AGENT,
      'if-none-match': '"abc"',
      'if-modified-since': 'Mon, 23 Nov 2026 08:00:00 GMT',
    });
  });

  it('never sends a validator with a line break in it, and a 304 to a request that was not conditional is a failure', async () => {
    const fake = fakeFetch({ 'https://example.com/about': () => new Response(null, { status: 304 }) });
    const page = await fetchSitePage('https://example.com/about', options(fake, { conditional: { etag: '"a"\r\nx-injected: 1' } }));
    expect(page).toEqual({ kind: 'failed', url: 'https://example.com/about', reason: 'HTTP 304 to a request that was not conditional' });
    expect(Object.keys(fake.requested[0]!.headers).sort()).toEqual(['accept', 'user-agent']);
  });

  it('reads 404 and 410 as gone, and another status as a failure naming it', async () => {
    const fake = fakeFetch({
      'https://example.com/old': status(404),
      'https://example.com/removed': status(410),
      'https://example.com/broken': () => new Response('oops', { status: 500, statusText: 'Internal Server Error' }),
      'https://example.com/busy': status(429),
    });
    expect(await fetchSitePage('https://example.com/old', options(fake))).toEqual({ kind: 'gone', url: 'https://example.com/old', status: 404 });
    expect(await fetchSitePage('https://example.com/removed', options(fake))).toEqual({ kind: 'gone', url: 'https://example.com/removed', status: 410 });
    expect(await fetchSitePage('https://example.com/broken', options(fake))).toEqual({ kind: 'failed', url: 'https://example.com/broken', status: 500, reason: 'HTTP 500 Internal Server Error' });
    expect(await fetchSitePage('https://example.com/busy', options(fake))).toMatchObject({ kind: 'failed', status: 429, reason: expect.stringMatching(/^HTTP 429/) });
  });

  it('follows a redirect chain within the site (www. and http included) and returns the final URL, query dropped', async () => {
    const fake = fakeFetch({
      'http://example.com/pricing': redirect('https://example.com/pricing', 301),
      'https://example.com/pricing': redirect('https://www.example.com/pricing/', 302),
      'https://www.example.com/pricing/': redirect('/en/pricing?ref=1#plans', 308),
      'https://www.example.com/en/pricing?ref=1': html('<p>Plans</p>'),
    });
    const page = await fetchSitePage('http://example.com/pricing', options(fake, { conditional: { etag: '"old"' } }));
    expect(page).toMatchObject({ kind: 'page', url: 'https://www.example.com/en/pricing', bytes: 12 });
    expect(fake.urls()).toEqual([
      'http://example.com/pricing',
      'https://example.com/pricing',
      'https://www.example.com/pricing/',
      'https://www.example.com/en/pricing?ref=1',
    ]);
    // The validators belong to the URL asked for, not to where it led.
    expect(fake.requested.map((request) => request.headers['if-none-match'])).toEqual(['"old"', undefined, undefined, undefined]);
  });

  it('skips a redirect off the site without requesting it', async () => {
    const fake = fakeFetch({
      'https://example.com/blog': redirect('https://medium.com/example-blog'),
      'https://example.com/shop': redirect('https://shop.example.com/'),
      'https://example.com/mail': redirect('mailto:hi@example.com'),
      'https://example.com/deck': redirect('/files/deck.zip'),
    });
    expect(await fetchSitePage('https://example.com/blog', options(fake))).toEqual({
      kind: 'skipped',
      url: 'https://example.com/blog',
      reason: 'the redirect to https://medium.com/example-blog is on another site',
    });
    expect(await fetchSitePage('https://example.com/shop', options(fake))).toMatchObject({ kind: 'skipped', reason: 'the redirect to https://shop.example.com/ is on another site' });
    expect(await fetchSitePage('https://example.com/mail', options(fake))).toMatchObject({ kind: 'skipped', reason: 'the redirect to mailto:hi@example.com is not http or https' });
    expect(await fetchSitePage('https://example.com/deck', options(fake))).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('not a page') });
    expect(fake.urls()).toEqual(['https://example.com/blog', 'https://example.com/shop', 'https://example.com/mail', 'https://example.com/deck']);
  });

  it('never requests a non-public address without an override: the URL itself, or a redirect target', async () => {
    const fake = fakeFetch({
      'https://example.com/meta': redirect('http://169.254.169.254/latest/meta-data/'),
      'http://169.254.169.254/latest/meta-data/': html('secrets'),
      'http://10.0.0.1/': html('internal'),
    });
    // A site whose redirect points at the metadata address: off the site, never requested.
    expect(await fetchSitePage('https://example.com/meta', options(fake))).toMatchObject({ kind: 'skipped', url: 'https://example.com/meta' });
    // The same address as the site itself: refused by the public-address policy, never requested.
    const metadata = await fetchSitePage('http://169.254.169.254/latest/meta-data/', options(fake, { domain: '169.254.169.254' }));
    expect(metadata).toMatchObject({ kind: 'failed', url: 'http://169.254.169.254/latest/meta-data/' });
    expect(metadata.kind === 'failed' && metadata.reason).toMatch(/^http:\/\/169\.254\.169\.254\/latest\/meta-data\/ was not requested: the URL /);
    expect(await fetchSitePage('http://10.0.0.1/', options(fake, { domain: '10.0.0.1' }))).toMatchObject({ kind: 'failed' });
    expect(await fetchSitePage('http://localhost/', options(fake, { domain: 'localhost' }))).toMatchObject({ kind: 'failed' });
    expect(fake.urls()).toEqual(['https://example.com/meta']);
  });

  it('lets a public address through the policy at every request, and ends a redirect loop', async () => {
    const fake = fakeFetch({ 'http://8.8.8.8/': redirect('http://8.8.8.8/next'), 'http://8.8.8.8/next': html('ok') });
    expect(await fetchSitePage('http://8.8.8.8/', options(fake, { domain: '8.8.8.8' }))).toMatchObject({ kind: 'page', url: 'http://8.8.8.8/next' });
    const loops = fakeFetch({ 'https://example.com/a': redirect('https://example.com/b'), 'https://example.com/b': redirect('https://example.com/a') });
    expect(await fetchSitePage('https://example.com/a', options(loops))).toEqual({
      kind: 'failed',
      url: 'https://example.com/b',
      reason: 'a redirect loop: https://example.com/a was already requested',
      redirectsExhausted: true,
    });
    expect(loops.urls()).toEqual(['https://example.com/a', 'https://example.com/b']);
  });

  it(`stops after ${SOURCE_FETCH.maxRedirects} redirects`, async () => {
    const routes: Record<string, Route> = {};
    for (let i = 0; i < 10; i++) routes[`https://example.com/r${i}`] = redirect(`/r${i + 1}`);
    const fake = fakeFetch(routes);
    expect(await fetchSitePage('https://example.com/r0', options(fake))).toEqual({
      kind: 'failed',
      url: 'https://example.com/r5',
      reason: `more than ${SOURCE_FETCH.maxRedirects} redirects; the last one pointed to https://example.com/r6`,
      redirectsExhausted: true,
    });
    expect(fake.requested).toHaveLength(SOURCE_FETCH.maxRedirects + 1);
  });

  it('sends a site with an origin override to its loopback origin, for the domain and www. alike, while the result URL stays the domain\'s', async () => {
    const originOverrides = new Map([['globex.com', 'http://127.0.0.1:9300']]);
    const fake = fakeFetch({
      'http://127.0.0.1:9300/pricing': html('<p>Globex pricing</p>'),
      'http://127.0.0.1:9300/about': redirect('http://127.0.0.1:9300/company/about'),
      'http://127.0.0.1:9300/company/about': redirect('https://www.globex.com/company/about-us'),
      'http://127.0.0.1:9300/company/about-us': html('<p>About</p>'),
      'http://127.0.0.1:9300/away': redirect('https://example.com/'),
    });
    const opts = options(fake, { domain: 'globex.com', originOverrides });
    expect(await fetchSitePage('https://globex.com/pricing', opts)).toMatchObject({ kind: 'page', url: 'https://globex.com/pricing', bytes: 21 });
    expect(await fetchSitePage('https://www.globex.com/pricing', opts)).toMatchObject({ kind: 'page', url: 'https://www.globex.com/pricing' });
    // A redirect to the loopback origin itself means the same path on the site; then one to www. goes to loopback again.
    expect(await fetchSitePage('https://globex.com/about', opts)).toMatchObject({ kind: 'page', url: 'https://www.globex.com/company/about-us' });
    expect(await fetchSitePage('https://globex.com/away', opts)).toMatchObject({ kind: 'skipped', url: 'https://globex.com/away' });
    expect(fake.urls()).toEqual([
      'http://127.0.0.1:9300/pricing',
      'http://127.0.0.1:9300/pricing',
      'http://127.0.0.1:9300/about',
      'http://127.0.0.1:9300/company/about',
      'http://127.0.0.1:9300/company/about-us',
      'http://127.0.0.1:9300/away',
    ]);
    // With overrides set, only the hosts they serve are read: another site is not requested at all.
    const other = fakeFetch({ 'https://example.com/': html('x') });
    expect(await fetchSitePage('https://example.com/', options(other, { originOverrides }))).toMatchObject({ kind: 'failed', reason: expect.stringContaining('reads only the hosts SITE_ORIGIN_OVERRIDES names') });
    expect(other.urls()).toEqual([]);
  });

  it('maps each host to its own override, so the apex can redirect to www. as a real site does', async () => {
    const originOverrides = new Map([
      ['globex.com', 'http://127.0.0.1:9300'],
      ['www.globex.com', 'http://127.0.0.1:9301'],
    ]);
    const fake = fakeFetch({
      'http://127.0.0.1:9300/pricing': redirect('https://www.globex.com/pricing'),
      'http://127.0.0.1:9301/pricing': html('<p>Globex pricing</p>'),
      // The www. server naming itself: its own host, not the apex's.
      'http://127.0.0.1:9300/plans': redirect('http://127.0.0.1:9301/pricing'),
    });
    const opts = options(fake, { domain: 'globex.com', originOverrides });
    expect(await fetchSitePage('https://globex.com/pricing', opts)).toMatchObject({ kind: 'page', url: 'https://www.globex.com/pricing' });
    expect(await fetchSitePage('https://globex.com/plans', opts)).toMatchObject({ kind: 'page', url: 'https://www.globex.com/pricing' });
    expect(fake.urls()).toEqual(['http://127.0.0.1:9300/pricing', 'http://127.0.0.1:9301/pricing', 'http://127.0.0.1:9300/plans', 'http://127.0.0.1:9301/pricing']);
  });

  it('returns a redirect to a host whose robots.txt is unknown, unfollowed, counting its hops', async () => {
    const fake = fakeFetch({ 'https://globex.com/': redirect('https://www.globex.com/') });
    const page = await fetchSitePage('https://globex.com/', options(fake, { domain: 'globex.com', allows: (url) => (url.startsWith('https://www.') ? 'unknown' : true) }));
    expect(page).toEqual({ kind: 'redirect', url: 'https://globex.com/', location: 'https://www.globex.com/', redirects: 1 });
    expect(fake.urls()).toEqual(['https://globex.com/']);
    // Going on from there: the hops before count towards the five.
    const more = fakeFetch({ 'https://www.globex.com/': redirect('https://www.globex.com/home') });
    expect(await fetchSitePage('https://www.globex.com/', options(more, { domain: 'globex.com', redirectsBefore: 5 }))).toMatchObject({ kind: 'failed', reason: expect.stringContaining('more than 5 redirects') });
  });

  it('asks robots.txt and the claim of a redirect that answer later (another object asks them), within the page deadline', async () => {
    const fake = fakeFetch({
      'https://globex.com/old': redirect('https://globex.com/new'),
      'https://globex.com/new': html('<p>new</p>'),
    });
    const later = <T,>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 5));
    const opts = (allows: boolean | 'unknown', claimed: boolean) => options(fake, { domain: 'globex.com', allows: () => later(allows), claim: () => later(claimed) });
    expect(await fetchSitePage('https://globex.com/old', opts(true, true))).toMatchObject({ kind: 'page', url: 'https://globex.com/new' });
    expect(await fetchSitePage('https://globex.com/old', opts('unknown', true))).toMatchObject({ kind: 'redirect', location: 'https://globex.com/new' });
    expect(await fetchSitePage('https://globex.com/old', opts(false, true))).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('disallowed by robots.txt') });
    expect(await fetchSitePage('https://globex.com/old', opts(true, false))).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('which this read requests anyway') });
    expect(fake.urls().filter((url) => url.endsWith('/new'))).toHaveLength(1);
    // A hook that never answers ends with the page's deadline.
    const never = options(fake, { domain: 'globex.com', timeoutMs: 50, claim: () => new Promise<boolean>(() => {}) });
    expect(await fetchSitePage('https://globex.com/old', never)).toMatchObject({ kind: 'failed', reason: 'timed out after 0.05 s' });
  });

  it('reads a PDF answered to a page request when documents are asked for, up to 10 MiB, and the X-Robots-Tag of a page', async () => {
    const fake = fakeFetch({
      'https://example.com/price-sheet': () => new Response('%PDF-1.7 sheet', { headers: { 'content-type': 'application/pdf' } }),
      'https://example.com/huge.pdf': () => new Response('x', { headers: { 'content-type': 'application/pdf', 'content-length': String(11 * 1024 * 1024) } }),
      'https://example.com/private': () => new Response('<p>x</p>', { headers: { 'content-type': 'text/html', 'x-robots-tag': 'noindex' } }),
    });
    expect(await fetchSitePage('https://example.com/price-sheet', options(fake))).toMatchObject({ kind: 'skipped', reason: 'the page is application/pdf, not HTML' });
    expect(await fetchSitePage('https://example.com/price-sheet', options(fake, { documents: true }))).toMatchObject({ kind: 'page', contentType: 'application/pdf', bytes: 14 });
    expect(await fetchSitePage('https://example.com/huge.pdf', options(fake, { documents: true }))).toMatchObject({ kind: 'failed', reason: expect.stringContaining('at most 10 MiB') });
    expect(await fetchSitePage('https://example.com/private', options(fake))).toMatchObject({ kind: 'page', robotsTag: 'noindex' });
  });

  it('refuses a URL that is not of the site without requesting it', async () => {
    const fake = fakeFetch({});
    expect(await fetchSitePage('https://other.com/', options(fake))).toMatchObject({ kind: 'skipped', reason: 'the URL https://other.com/ is on another site' });
    expect(await fetchSitePage('not a url', options(fake))).toMatchObject({ kind: 'failed', reason: 'the URL not a url is not a URL' });
    expect(await fetchSitePage('https://example.com/', options(fake, { domain: 'a/b' }))).toMatchObject({ kind: 'failed' });
    expect(fake.requested).toEqual([]);
  });

  it('skips a page that is not HTML, naming its type, or that has no Content-Type', async () => {
    const fake = fakeFetch({
      'https://example.com/report': () => new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } }),
      'https://example.com/data': () => new Response('{}', { headers: { 'content-type': 'application/json; charset=utf-8' } }),
      'https://example.com/raw': () => new Response(new Uint8Array([1, 2, 3])),
    });
    expect(await fetchSitePage('https://example.com/report', options(fake))).toEqual({ kind: 'skipped', url: 'https://example.com/report', reason: 'the page is application/pdf, not HTML' });
    expect(await fetchSitePage('https://example.com/data', options(fake))).toMatchObject({ kind: 'skipped', reason: 'the page is application/json, not HTML' });
    expect(await fetchSitePage('https://example.com/raw', options(fake))).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('no Content-Type') });
  });

  it('fails a body over 2 MiB, declared or streamed, and reads no more than the bound', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
    const fake = fakeFetch({
      'https://example.com/huge': () => new Response(endless(), { headers: { 'content-type': 'text/html' } }),
      'https://example.com/declared': () => new Response('<p>small</p>', { headers: { 'content-type': 'text/html', 'content-length': String(3 * 1024 * 1024) } }),
      'https://example.com/exact': () => new Response(new Uint8Array(SOURCE_FETCH.maxBodyBytes).fill(0x62), { headers: { 'content-type': 'text/html' } }),
    });
    expect(await fetchSitePage('https://example.com/huge', options(fake))).toEqual({
      kind: 'failed',
      url: 'https://example.com/huge',
      reason: 'the page is larger than 2 MiB, the most that is read',
    });
    expect(pulled).toBeLessThanOrEqual(SOURCE_FETCH.maxBodyBytes + 4 * chunk.byteLength);
    expect(await fetchSitePage('https://example.com/declared', options(fake))).toMatchObject({ kind: 'failed', reason: 'the page is 3 MiB (Content-Length); at most 2 MiB is read' });
    expect(await fetchSitePage('https://example.com/exact', options(fake))).toMatchObject({ kind: 'page', bytes: SOURCE_FETCH.maxBodyBytes });
  });

  it('times out a body that never ends, and a server that never answers', async () => {
    const trickle = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('<html>'));
          // Then nothing, ever.
        },
      });
    const fake = fakeFetch({
      'https://example.com/slow': () => new Response(trickle(), { headers: { 'content-type': 'text/html' } }),
      'https://example.com/silent': () => new Promise<Response>(() => {}),
    });
    const started = Date.now();
    expect(await fetchSitePage('https://example.com/slow', options(fake, { timeoutMs: 50 }))).toEqual({ kind: 'failed', url: 'https://example.com/slow', reason: 'timed out after 0.05 s' });
    expect(await fetchSitePage('https://example.com/silent', options(fake, { timeoutMs: 50 }))).toMatchObject({ kind: 'failed', reason: 'timed out after 0.05 s' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads a network error as a failure, never a throw', async () => {
    const failing = (async () => {
      throw new TypeError('Network connection lost.');
    }) as typeof fetch;
    expect(await fetchSitePage('https://example.com/', { domain: 'example.com', userAgent: SITE_READER_USER_AGENT, fetch: failing })).toEqual({
      kind: 'failed',
      url: 'https://example.com/',
      reason: 'could not be fetched: Network connection lost.',
    });
  });
});
