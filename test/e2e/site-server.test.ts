/**
 * The loopback site server of tests, `npm run dev` and `npm run bench:sites`
 * (scripts/lib/site-server.ts), driven from Node: what it serves, the validators and 304s, the
 * request log with in-flight counts, changing pages over HTTP and in-process, and the bounds of its
 * control paths. (test/sites/site-server.test.ts reaches the fixture sites from the Workers pool.)
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, startSites, type RunningSite } from '../../scripts/lib/site-server.ts';
import { MAX_CONTROL_BODY_BYTES } from '../../scripts/lib/site-types.ts';
import { companySite, hostileFilesSite, PRICE_AFTER, PRICE_BEFORE, pricingPage, pricingSentence } from '../sites/fixture-sites.ts';

let site: RunningSite;
const domain = 'northwind.example';

beforeAll(async () => {
  site = await startSite({
    ...companySite(domain),
    pages: { ...companySite(domain).pages, '/wait': { body: '<p>waited</p>', delayMs: 200 }, '/hang': { delayMs: 'hang' } },
  });
});
afterAll(() => site?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${site.origin}${path}`, { headers, redirect: 'manual' });

describe('site server', () => {
  it('serves pages, robots.txt, sitemaps (gzip too), redirects, files and 404s as described', async () => {
    const pricing = await get('/pricing');
    expect(pricing.status).toBe(200);
    expect(pricing.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await pricing.text()).toContain(pricingSentence(PRICE_BEFORE));

    const robots = await get('/robots.txt');
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await robots.text()).toMatch(/^User-agent: ReconBot\nDisallow: \/internal\/$/m);

    const gz = await get('/sitemaps/blog.xml.gz');
    expect(gz.headers.get('content-type')).toBe('application/gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toContain(`<loc>https://${domain}/blog/fleet-plan-launch</loc>`);

    const moved = await get('/old-pricing');
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/pricing']);
    expect((await get('/files/datasheet.pdf')).headers.get('content-type')).toBe('application/pdf');
    expect((await get('/nowhere')).status).toBe(404);
    // Generated pages: the calendar's next month, forever.
    expect(await (await get('/events/calendar/2026/12')).text()).toContain('href="/events/calendar/2027/1"');
    expect(await (await get('/search?q=robots&page=41')).text()).toContain('page=42');
  });

  it('sends ETag and Last-Modified and answers 304 to a matching If-None-Match or If-Modified-Since', async () => {
    const first = await get('/about');
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(Date.parse(lastModified)).not.toBeNaN();

    expect((await get('/about', { 'if-none-match': etag })).status).toBe(304);
    expect((await get('/about', { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get('/about', { 'if-modified-since': lastModified })).status).toBe(304);
    // If-None-Match decides when both are sent.
    expect((await get('/about', { 'if-none-match': '"other"', 'if-modified-since': lastModified })).status).toBe(200);
    expect((await get('/about', { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).status).toBe(200);
    // Redirects and errors carry no validators.
    expect((await get('/old-pricing')).headers.get('etag')).toBeNull();
  });

  it('changes a page over HTTP: new body, new ETag, a later Last-Modified, so the old validators get 200', async () => {
    const before = await get('/pricing');
    await before.arrayBuffer();
    const put = await fetch(`${site.origin}/__site/pages?path=/pricing`, { method: 'PUT', body: pricingPage(PRICE_AFTER) });
    expect(put.status).toBe(200);
    const after = await get('/pricing', { 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await after.text()).toContain(pricingSentence(PRICE_AFTER));
    expect(Date.parse(after.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(before.headers.get('last-modified')!));
    expect((await get('/pricing', { 'if-modified-since': before.headers.get('last-modified')! })).status).toBe(200);

    // Gone, then back with another status and type.
    expect((await fetch(`${site.origin}/__site/pages?path=/careers`, { method: 'DELETE' })).status).toBe(200);
    expect((await get('/careers')).status).toBe(404);
    await fetch(`${site.origin}/__site/pages?path=/careers&status=410&type=text/plain`, { method: 'PUT', body: 'gone' });
    const gone = await get('/careers');
    expect([gone.status, gone.headers.get('content-type'), await gone.text()]).toEqual([410, 'text/plain', 'gone']);

    // In-process too.
    site.setPage('/new', { body: '<p>new page</p>' });
    expect(await (await get('/new')).text()).toBe('<p>new page</p>');
  });

  it('logs every request but its control paths, with conditional headers, statuses and in-flight counts', async () => {
    expect((await fetch(`${site.origin}/__site/log/reset`, { method: 'POST' })).status).toBe(200);
    await Promise.all([get('/wait'), get('/wait'), get('/wait')].map(async (response) => (await response).arrayBuffer()));
    await (await get('/about?x=1', { 'if-none-match': '"nope"', 'user-agent': 'ReconBot/1.0' })).arrayBuffer();
    const log = await (await fetch(`${site.origin}/__site/log`)).json();
    expect(log).toMatchObject({ total: 4, dropped: 0, inFlight: 0, maxInFlight: 3 });
    expect(log.requests.map((r: { path: string }) => r.path)).toEqual(['/wait', '/wait', '/wait', '/about?x=1']);
    expect(log.requests[3]).toMatchObject({ method: 'GET', status: 200, inFlight: 1, ifNoneMatch: '"nope"', userAgent: 'ReconBot/1.0' });
    expect(log.requests[0].at).toBeTypeOf('number');
    expect(site.log()).toEqual(log);
  });

  it('holds a hanging page until the client gives up, then counts it out of flight', async () => {
    site.resetLog();
    const aborted = await fetch(`${site.origin}/hang`, { signal: AbortSignal.timeout(100) }).catch((error: Error) => error.name);
    expect(aborted).toBe('TimeoutError');
    await expect.poll(() => site.log().inFlight).toBe(0);
    expect(site.log().requests).toEqual([expect.objectContaining({ path: '/hang', status: null })]);
  });

  it('bounds what its control paths accept', async () => {
    const tooBig = await fetch(`${site.origin}/__site/pages?path=/big`, { method: 'PUT', body: new Uint8Array(MAX_CONTROL_BODY_BYTES + 1) });
    expect(tooBig.status).toBe(413);
    expect((await get('/big')).status).toBe(404);
    for (const query of ['path=pricing', `path=/${'a'.repeat(2048)}`, 'path=/x&status=99', 'path=/x&status=abc', `path=/x&type=${'t'.repeat(201)}`]) {
      expect((await fetch(`${site.origin}/__site/pages?${query}`, { method: 'PUT', body: 'x' })).status, query).toBe(400);
    }
    expect((await fetch(`${site.origin}/__site/nothing`)).status).toBe(404);
    expect((await fetch(`${site.origin}/__site/log`, { method: 'DELETE' })).status).toBe(404);
  });

  it('serves several sites, each on its own port, with their SITE_ORIGIN_OVERRIDES value', async () => {
    const both = await startSites({ 'a.example': { pages: { '/': { body: 'A' } } }, 'b.example': { pages: { '/': { body: 'B' } } } });
    try {
      const { 'a.example': a, 'b.example': b } = both.sites;
      expect(both.overrides).toBe(`a.example=${a!.origin},b.example=${b!.origin}`);
      expect(a!.port).not.toBe(b!.port);
      expect(await (await fetch(b!.origin)).text()).toBe('B');
    } finally {
      await both.close();
    }
  });

  it('serves the hostile files: a robots.txt over 500 KiB and a gzip bomb of 16 MiB in about 16 KiB', async () => {
    const hostile = await startSite(hostileFilesSite());
    try {
      expect((await (await fetch(`${hostile.origin}/robots.txt`)).arrayBuffer()).byteLength).toBeGreaterThan(500 * 1024);
      const bomb = Buffer.from(await (await fetch(`${hostile.origin}/bomb.xml.gz`)).arrayBuffer());
      expect(bomb.byteLength).toBeLessThan(64 * 1024);
      expect(gunzipSync(bomb).byteLength).toBe(16 * 1024 * 1024);
    } finally {
      await hostile.close();
    }
  });
});
