import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_URLS,
  MAX_SKIPPED_LISTED,
  expandSitemaps,
  parseSitemap,
  readSitemapBody,
} from '../../src/sites/sitemap.ts';
import { MAX_URL_LENGTH } from '../../src/sites/frontier.ts';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

function urlset(locs: string[], extra = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">${locs.map((loc) => `<url><loc>${loc}</loc>${extra}</url>`).join('')}</urlset>`;
}

function index(locs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`;
}

async function gzip(data: Uint8Array | string): Promise<Uint8Array> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const stream = new Response(bytes).body!.pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A gzip stream of `size` zero bytes, compressed as it is generated (never held whole). */
async function gzipBomb(size: number): Promise<Uint8Array> {
  const chunk = new Uint8Array(1024 * 1024);
  let left = size;
  const zeros = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(left, chunk.byteLength);
      left -= n;
      controller.enqueue(chunk.subarray(0, n));
    },
  });
  return new Uint8Array(await new Response(zeros.pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
}

const sameSite = (url: string): boolean => {
  const host = new URL(url).hostname;
  return host === 'acme.test' || host === 'www.acme.test';
};

/** A fake fetch over a map of URL to body; it records every URL asked for. */
function fakeSite(files: Record<string, string | Uint8Array>): { fetch: (url: string) => Promise<Response>; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetch: async (url) => {
      asked.push(url);
      const body = files[url];
      return body === undefined ? new Response('not found', { status: 404 }) : new Response(body);
    },
  };
}

describe('parseSitemap', () => {
  it('reads a urlset: trimmed locs, lastmod, entities decoded, duplicates once', () => {
    const parsed = parseSitemap(
      urlset(['  https://acme.test/pricing \n', 'https://acme.test/?a=1&amp;b=2', 'https://acme.test/pricing'], '<lastmod>2026-01-02</lastmod>'),
    );
    expect(parsed).toEqual({
      kind: 'urlset',
      urls: [
        { loc: 'https://acme.test/pricing', lastmod: '2026-01-02' },
        { loc: 'https://acme.test/?a=1&b=2', lastmod: '2026-01-02' },
      ],
      dropped: 0,
      truncated: false,
    });
  });

  it('forgives whitespace before the XML declaration', () => {
    expect(parseSitemap(`\n  ${urlset(['https://acme.test/'])}`)).toMatchObject({ kind: 'urlset', urls: [{ loc: 'https://acme.test/' }] });
  });

  it('reads bytes as UTF-8, with or without a BOM', () => {
    const bytes = new TextEncoder().encode(`\uFEFF${urlset(['https://acme.test/über'])}`);
    expect(parseSitemap(bytes)).toMatchObject({ kind: 'urlset', urls: [{ loc: 'https://acme.test/%C3%BCber' }] });
  });

  it('reads a sitemap index', () => {
    expect(parseSitemap(index(['https://acme.test/a.xml', 'https://acme.test/b.xml.gz']))).toEqual({
      kind: 'index',
      sitemaps: ['https://acme.test/a.xml', 'https://acme.test/b.xml.gz'],
      dropped: 0,
      truncated: false,
    });
  });

  it('drops locs that are not http(s), not URLs, or longer than 2,048 characters', () => {
    const long = `https://acme.test/${'a'.repeat(MAX_URL_LENGTH)}`;
    const parsed = parseSitemap(
      urlset(['javascript:alert(1)', 'ftp://acme.test/x', 'mailto:a@acme.test', '/relative', '', long, 'https://acme.test/ok']),
    );
    expect(parsed).toEqual({ kind: 'urlset', urls: [{ loc: 'https://acme.test/ok' }], dropped: 6, truncated: false });
  });

  it('caps 10,000 URLs at maxUrls (default 5,000) and says so', () => {
    const locs = Array.from({ length: 10_000 }, (_, i) => `https://acme.test/p/${i}`);
    const byDefault = parseSitemap(urlset(locs));
    expect(byDefault.kind).toBe('urlset');
    if (byDefault.kind !== 'urlset') return;
    expect(byDefault.urls).toHaveLength(DEFAULT_MAX_URLS);
    expect(byDefault.truncated).toBe(true);
    expect(byDefault.urls.at(-1)?.loc).toBe(`https://acme.test/p/${DEFAULT_MAX_URLS - 1}`);

    const tighter = parseSitemap(urlset(locs), { maxUrls: 10 });
    expect(tighter.kind === 'urlset' && tighter.urls.length).toBe(10);
    // Never more than the protocol's 50,000, whatever the caller asks.
    const all = parseSitemap(urlset(locs), { maxUrls: 1_000_000 });
    expect(all.kind === 'urlset' && [all.urls.length, all.truncated]).toEqual([10_000, false]);
  });

  it('refuses malformed XML with a reason', () => {
    for (const body of [
      `<urlset xmlns="${NS}"><url><loc>https://acme.test/</loc></urlset>`,
      `<urlset xmlns="${NS}"><url><loc>https://acme.test/</loc></url>`,
      '<urlset><url><loc>https://acme.test/</loc></url></urlset><urlset></urlset>',
      '<<<>>>',
    ]) {
      const parsed = parseSitemap(body);
      expect(parsed.kind, body).toBe('unreadable');
      expect(parsed.kind === 'unreadable' && parsed.reason, body).toMatch(/malformed XML/);
    }
  });

  it('refuses a document of another kind (an HTML page, an RSS feed)', () => {
    expect(parseSitemap('<html><body>Not here</body></html>')).toEqual({
      kind: 'unreadable',
      reason: 'root element <html> is neither <urlset> nor <sitemapindex>',
    });
    expect(parseSitemap('<rss><channel></channel></rss>').kind).toBe('unreadable');
  });

  it('refuses an entity-expansion attack (billion laughs) without expanding it', () => {
    const laughs = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE urlset [',
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
      ']>',
      `<urlset xmlns="${NS}"><url><loc>https://acme.test/&lol9;</loc></url></urlset>`,
    ].join('\n');
    const started = Date.now();
    expect(parseSitemap(laughs)).toEqual({ kind: 'unreadable', reason: 'a DOCTYPE or entity declaration (not allowed in a sitemap)' });
    expect(Date.now() - started).toBeLessThan(1_000);
    // An external entity (XXE) is refused the same way.
    const xxe = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY x SYSTEM "file:///etc/passwd">]><urlset><url><loc>https://acme.test/&x;</loc></url></urlset>`;
    expect(parseSitemap(xxe).kind).toBe('unreadable');
  });

  it('refuses a body larger than maxBytes', () => {
    const body = urlset(Array.from({ length: 100 }, (_, i) => `https://acme.test/${i}`));
    expect(parseSitemap(body, { maxBytes: 1_000 })).toEqual({ kind: 'unreadable', reason: 'larger than 1000 bytes' });
    expect(parseSitemap(new TextEncoder().encode(body), { maxBytes: 1_000 }).kind).toBe('unreadable');
    expect(parseSitemap(body).kind).toBe('urlset');
  });

  it('reads a plain-text sitemap, one URL per line, and drops what is not a URL', () => {
    const parsed = parseSitemap('https://acme.test/\r\nhttps://acme.test/about\n\n  https://acme.test/blog  \nnot a url\nftp://acme.test/f\n');
    expect(parsed).toEqual({
      kind: 'urlset',
      urls: [{ loc: 'https://acme.test/' }, { loc: 'https://acme.test/about' }, { loc: 'https://acme.test/blog' }],
      dropped: 2,
      truncated: false,
    });
    expect(parseSitemap('just some words\nand more').kind).toBe('unreadable');
    expect(parseSitemap('   \n ').kind).toBe('unreadable');
    const many = Array.from({ length: 30 }, (_, i) => `https://acme.test/${i}`).join('\n');
    expect(parseSitemap(many, { maxUrls: 20 })).toMatchObject({ kind: 'urlset', truncated: true, urls: { length: 20 } });
  });
});

describe('readSitemapBody', () => {
  it('reads a plain body and a gzip body (recognized by its bytes, whatever the headers say)', async () => {
    const xml = urlset(['https://acme.test/']);
    const plain = await readSitemapBody(new Response(xml));
    expect(plain.ok && new TextDecoder().decode(plain.body)).toBe(xml);
    const gz = await readSitemapBody(new Response(await gzip(xml), { headers: { 'Content-Type': 'application/octet-stream' } }));
    expect(gz.ok && new TextDecoder().decode(gz.body)).toBe(xml);
    // A body fetch already decoded keeps its Content-Encoding header: it is not decompressed twice.
    const decoded = await readSitemapBody(new Response(xml, { headers: { 'Content-Encoding': 'gzip' } }));
    expect(decoded.ok && new TextDecoder().decode(decoded.body)).toBe(xml);
  });

  it('reads a whole gzip file of 5,000 URLs, well under the bound', async () => {
    const xml = urlset(Array.from({ length: 5_000 }, (_, i) => `https://acme.test/docs/page-${i}`), '<lastmod>2026-11-01</lastmod>');
    const read = await readSitemapBody(new Response(await gzip(xml)));
    expect(read.ok && read.body.byteLength).toBe(new TextEncoder().encode(xml).byteLength);
    const parsed = read.ok ? parseSitemap(read.body) : null;
    expect(parsed?.kind === 'urlset' && [parsed.urls.length, parsed.urls[4_999]?.loc]).toEqual([5_000, 'https://acme.test/docs/page-4999']);
  });

  it('reads a gzip body whose magic bytes arrive in separate chunks', async () => {
    const gz = await gzip('https://acme.test/one\n');
    let i = 0;
    const trickle = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i >= gz.byteLength) return controller.close();
        controller.enqueue(gz.subarray(i, i + 1));
        i++;
      },
    });
    const read = await readSitemapBody(new Response(trickle));
    expect(read.ok && new TextDecoder().decode(read.body)).toBe('https://acme.test/one\n');
  });

  it('refuses a gzip bomb once its output passes maxBytes, without inflating it all', async () => {
    // 256 MiB of zeros compresses to about 256 KiB; reading stops a little past 1 MiB of output.
    const bomb = await gzipBomb(256 * 1024 * 1024);
    expect(bomb.byteLength).toBeLessThan(512 * 1024);
    let pulled = 0;
    const counted = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= bomb.byteLength) return controller.close();
        const chunk = bomb.subarray(pulled, pulled + 16 * 1024);
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const read = await readSitemapBody(new Response(counted), 1024 * 1024);
    expect(read).toEqual({ ok: false, reason: 'more than 1048576 bytes once decompressed' });
    // Only the first compressed chunks were read (each inflates to about 16 MiB), not the rest.
    expect(pulled).toBeLessThanOrEqual(2 * 16 * 1024);
  });

  it('cuts a huge plain body at maxBytes', async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new TextEncoder().encode('https://acme.test/x\n'.repeat(3277)));
      },
    });
    const read = await readSitemapBody(new Response(endless), 1024 * 1024);
    expect(read).toEqual({ ok: false, reason: 'larger than 1048576 bytes' });
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  });

  it('refuses a non-2xx status, corrupt gzip data and a broken connection with reasons', async () => {
    expect(await readSitemapBody(new Response('gone', { status: 410 }))).toEqual({ ok: false, reason: 'HTTP 410' });
    const gz = await gzip(urlset(['https://acme.test/']));
    const cut = await readSitemapBody(new Response(gz.subarray(0, gz.byteLength / 2)));
    expect(cut.ok).toBe(false);
    expect(!cut.ok && cut.reason).toMatch(/^corrupt gzip data/);
    const garbage = await readSitemapBody(new Response(new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9])));
    expect(!garbage.ok && garbage.reason).toMatch(/^corrupt gzip data/);
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('https://acme.test/\n'));
        controller.error(new Error('Network connection lost.'));
      },
    });
    expect(await readSitemapBody(new Response(broken))).toEqual({ ok: false, reason: 'reading the body failed: Network connection lost.' });
  });
});

describe('expandSitemaps', () => {
  it('reads a urlset and keeps only same-site URLs', async () => {
    const site = fakeSite({
      'https://acme.test/sitemap.xml': urlset(['https://acme.test/', 'https://www.acme.test/pricing', 'https://evil.test/', 'https://sub.acme.test/x']),
    });
    const result = await expandSitemaps(['https://acme.test/sitemap.xml'], site.fetch, { isSameSite: sameSite });
    expect(result.urls.map((u) => u.loc)).toEqual(['https://acme.test/', 'https://www.acme.test/pricing']);
    expect(result).toMatchObject({ offSite: 2, filesRead: 1, skipped: [], truncated: false });
  });

  it('follows an index and a nested index, breadth-first, and stops at the depth bound', async () => {
    const site = fakeSite({
      'https://acme.test/sitemap.xml': index(['https://acme.test/pages.xml', 'https://acme.test/nested.xml']),
      'https://acme.test/pages.xml': urlset(['https://acme.test/a']),
      'https://acme.test/nested.xml': index(['https://acme.test/blog.xml.gz', 'https://acme.test/deeper.xml']),
      'https://acme.test/blog.xml.gz': await gzip(urlset(['https://acme.test/blog/1', 'https://acme.test/a'])),
      'https://acme.test/deeper.xml': index(['https://acme.test/deepest.xml']),
      'https://acme.test/deepest.xml': urlset(['https://acme.test/never']),
    });
    const result = await expandSitemaps(['https://acme.test/sitemap.xml'], site.fetch, { isSameSite: sameSite });
    expect(site.asked).toEqual([
      'https://acme.test/sitemap.xml',
      'https://acme.test/pages.xml',
      'https://acme.test/nested.xml',
      'https://acme.test/blog.xml.gz',
      'https://acme.test/deeper.xml',
    ]);
    expect(result.urls.map((u) => u.loc)).toEqual(['https://acme.test/a', 'https://acme.test/blog/1']);
    expect(result.skipped).toEqual([{ url: 'https://acme.test/deeper.xml', reason: 'an index nested deeper than 2 levels: its 1 sitemaps not read' }]);
  });

  it('ends a loop of indexes, reading each file once', async () => {
    const site = fakeSite({
      'https://acme.test/a.xml': index(['https://acme.test/b.xml', 'https://acme.test/pages.xml']),
      'https://acme.test/b.xml': index(['https://acme.test/a.xml', 'https://acme.test/b.xml#again']),
      'https://acme.test/pages.xml': urlset(['https://acme.test/p']),
    });
    const result = await expandSitemaps(['https://acme.test/a.xml'], site.fetch, { isSameSite: sameSite, maxDepth: 10 });
    expect(site.asked).toEqual(['https://acme.test/a.xml', 'https://acme.test/b.xml', 'https://acme.test/pages.xml']);
    expect(result.urls).toEqual([{ loc: 'https://acme.test/p' }]);
    expect(result.skipped.map((s) => s.reason)).toEqual(['already read (a loop or a repeat)', 'already read (a loop or a repeat)']);
  });

  it('reads at most maxFiles files and reports the rest', async () => {
    const children = Array.from({ length: 30 }, (_, i) => `https://acme.test/s${i}.xml`);
    const files: Record<string, string> = { 'https://acme.test/sitemap.xml': index(children) };
    for (const [i, url] of children.entries()) files[url] = urlset([`https://acme.test/p${i}`]);
    const site = fakeSite(files);
    const result = await expandSitemaps(['https://acme.test/sitemap.xml'], site.fetch, { isSameSite: sameSite });
    expect(site.asked).toHaveLength(20);
    expect(result.filesRead).toBe(20);
    expect(result.urls).toHaveLength(19);
    expect(result.skipped).toHaveLength(11);
    expect(result.skipped[0]).toEqual({ url: 'https://acme.test/s19.xml', reason: 'file budget spent (20 files)' });
  });

  it('caps 10,000 URLs across files at maxUrls and stops fetching', async () => {
    const half = (from: number) => urlset(Array.from({ length: 5_000 }, (_, i) => `https://acme.test/p/${from + i}`));
    const site = fakeSite({
      'https://acme.test/sitemap.xml': index(['https://acme.test/1.xml', 'https://acme.test/2.xml', 'https://acme.test/3.xml']),
      'https://acme.test/1.xml': half(0),
      'https://acme.test/2.xml': half(5_000),
      'https://acme.test/3.xml': half(10_000),
    });
    const result = await expandSitemaps(['https://acme.test/sitemap.xml'], site.fetch, { isSameSite: sameSite, maxUrls: 7_000 });
    expect(result.urls).toHaveLength(7_000);
    expect(new Set(result.urls.map((u) => u.loc)).size).toBe(7_000);
    expect(result.truncated).toBe(true);
    expect(site.asked).not.toContain('https://acme.test/3.xml');
    expect(result.skipped).toEqual([{ url: 'https://acme.test/3.xml', reason: 'URL budget reached (7000 URLs)' }]);
  });

  it('reports unreadable, missing, failing and oversized files, and never fetches off-site or non-http sitemaps', async () => {
    const site = fakeSite({
      'https://acme.test/sitemap.xml': index([
        'https://acme.test/broken.xml',
        'https://acme.test/missing.xml',
        'https://acme.test/bomb.xml.gz',
        'https://cdn.other.test/sitemap.xml',
        'file:///etc/passwd',
        'https://acme.test/throws.xml',
        'https://acme.test/ok.txt',
      ]),
      'https://acme.test/broken.xml': '<urlset><url><loc>https://acme.test/x</loc>',
      'https://acme.test/bomb.xml.gz': await gzipBomb(64 * 1024 * 1024),
      'https://acme.test/ok.txt': 'https://acme.test/from-text\n',
    });
    const fetchSitemap = async (url: string): Promise<Response> => {
      if (url.endsWith('/throws.xml')) throw new TypeError('Network connection lost.');
      return site.fetch(url);
    };
    const result = await expandSitemaps(['https://acme.test/sitemap.xml'], fetchSitemap, { isSameSite: sameSite, maxBytes: 1024 * 1024 });
    expect(result.urls).toEqual([{ loc: 'https://acme.test/from-text' }]);
    expect(site.asked).not.toContain('https://cdn.other.test/sitemap.xml');
    expect(result.dropped).toBe(1);
    expect(result.skipped).toEqual([
      { url: 'https://cdn.other.test/sitemap.xml', reason: 'not of this site' },
      { url: 'https://acme.test/broken.xml', reason: expect.stringMatching(/^malformed XML/) },
      { url: 'https://acme.test/missing.xml', reason: 'HTTP 404' },
      { url: 'https://acme.test/bomb.xml.gz', reason: 'more than 1048576 bytes once decompressed' },
      { url: 'https://acme.test/throws.xml', reason: 'fetch failed: Network connection lost.' },
    ]);
  });

  it('lists at most 200 skipped files and counts the rest', async () => {
    const children = Array.from({ length: 500 }, (_, i) => `https://other.test/s${i}.xml`);
    const site = fakeSite({ 'https://acme.test/sitemap.xml': index(children) });
    const result = await expandSitemaps(['https://acme.test/sitemap.xml'], site.fetch, { isSameSite: sameSite });
    expect(result.skipped).toHaveLength(MAX_SKIPPED_LISTED);
    expect(result.skippedMore).toBe(300);
    expect(site.asked).toEqual(['https://acme.test/sitemap.xml']);
  });
});
