import { describe, expect, it } from 'vitest';
import { changedSince } from '../../src/sites/read/discover.ts';
import {
  CHANGED_BONUS,
  Frontier,
  MAX_DOCUMENTS_PER_READ,
  MAX_PAGES_PER_TRAP,
  MAX_URL_LENGTH,
  pageKind,
  pagePriority,
  pageTraps,
  siteDomain,
  siteUrl,
} from '../../src/sites/frontier.ts';

const ok = (url: string) => ({ ok: true, url });
const no = (reason: string) => ({ ok: false, reason });

describe('siteUrl', () => {
  it('drops the query string and the fragment, resolves dot segments and collapses runs of slashes', () => {
    expect(siteUrl('example.com', 'https://example.com/pricing?plan=pro&utm_source=x#faq')).toEqual(ok('https://example.com/pricing'));
    expect(siteUrl('example.com', 'https://example.com/a/./b/../c')).toEqual(ok('https://example.com/a/c'));
    expect(siteUrl('example.com', 'https://example.com//blog///post')).toEqual(ok('https://example.com/blog/post'));
    expect(siteUrl('example.com', 'https://example.com/%e2%82%ac/')).toEqual(ok('https://example.com/%E2%82%AC/'));
    expect(siteUrl('example.com', '  https://example.com/about \n')).toEqual(ok('https://example.com/about'));
    expect(siteUrl('example.com', 'https://example.com')).toEqual(ok('https://example.com/'));
  });

  it('keeps a trailing slash as found, and the scheme and host as found (lower case)', () => {
    expect(siteUrl('example.com', 'https://example.com/pricing/')).toEqual(ok('https://example.com/pricing/'));
    expect(siteUrl('example.com', 'https://example.com/pricing')).toEqual(ok('https://example.com/pricing'));
    expect(siteUrl('example.com', 'http://EXAMPLE.com/About')).toEqual(ok('http://example.com/About'));
  });

  it('resolves a relative link against its base', () => {
    expect(siteUrl('example.com', '../pricing/?plan=pro#faq', 'https://www.example.com/en/about')).toEqual(ok('https://www.example.com/pricing/'));
    expect(siteUrl('example.com', '/blog', 'https://example.com/a/b/c')).toEqual(ok('https://example.com/blog'));
    expect(siteUrl('example.com', '//www.example.com/jobs', 'https://example.com/')).toEqual(ok('https://www.example.com/jobs'));
    expect(siteUrl('example.com', '/blog')).toEqual(no('invalid'));
    expect(siteUrl('example.com', 'http://[::1')).toEqual(no('invalid'));
  });

  it('keeps to the site: the domain and its www., any case, default ports only', () => {
    expect(siteUrl('example.com', 'https://WWW.Example.COM/x')).toEqual(ok('https://www.example.com/x'));
    expect(siteUrl('www.example.com', 'https://example.com/x')).toEqual(ok('https://example.com/x'));
    expect(siteUrl('Example.com.', 'https://example.com./x')).toEqual(ok('https://example.com./x'));
    expect(siteUrl('example.com', 'https://example.com:443/x')).toEqual(ok('https://example.com/x'));
    expect(siteUrl('example.com', 'http://example.com:80/x')).toEqual(ok('http://example.com/x'));
    expect(siteUrl('example.com', 'https://example.com:8443/x')).toEqual(no('off-site'));
    expect(siteUrl('example.com', 'http://example.com:443/x')).toEqual(no('off-site'));
    expect(siteUrl('example.com', 'https://blog.example.com/x')).toEqual(no('off-site'));
    expect(siteUrl('example.com', 'https://www.www.example.com/x')).toEqual(no('off-site'));
    expect(siteUrl('example.com', 'https://example.com.evil.test/x')).toEqual(no('off-site'));
    expect(siteUrl('example.com', 'https://notexample.com/x')).toEqual(no('off-site'));
    expect(siteUrl('example.com', 'https://other.test/', 'https://example.com/')).toEqual(no('off-site'));
  });

  it('takes a domain in any spelling: www., a port that is part of the site, a name outside ASCII', () => {
    expect(siteDomain('  WWW.Example.com. ')).toBe('example.com');
    expect(siteDomain('example.com:443')).toBe('example.com');
    expect(siteDomain('bücher.de')).toBe('xn--bcher-kva.de');
    expect(siteDomain('127.0.0.1:8787')).toBe('127.0.0.1:8787');
    for (const bad of ['', 'example.com/path', 'user@example.com', 'example.com?q', 'exa mple.com', 'http://[::1']) expect(siteDomain(bad)).toBeUndefined();
    expect(siteUrl('bücher.de', 'https://www.bücher.de/preise')).toEqual(ok('https://www.xn--bcher-kva.de/preise'));
    expect(siteUrl('127.0.0.1:8787', 'http://127.0.0.1:8787/pricing')).toEqual(ok('http://127.0.0.1:8787/pricing'));
    expect(siteUrl('127.0.0.1:8787', 'http://127.0.0.1/pricing')).toEqual(no('off-site'));
    expect(siteUrl('127.0.0.1:8787', 'http://127.0.0.1:8788/pricing')).toEqual(no('off-site'));
    expect(siteUrl('[::1]:8787', 'http://[::1]:8787/')).toEqual(ok('http://[::1]:8787/'));
    expect(siteUrl('example.com:443', 'https://example.com/x')).toEqual(ok('https://example.com/x'));
    expect(siteUrl('example.com/path', 'https://example.com/x')).toEqual(no('off-site'));
  });

  it('refuses other schemes and credentials', () => {
    for (const raw of ['mailto:sales@example.com', 'javascript:alert(1)', 'tel:+15550100', 'ftp://example.com/x', 'data:text/html,hi']) {
      expect(siteUrl('example.com', raw, 'https://example.com/')).toEqual(no('scheme'));
    }
    expect(siteUrl('example.com', 'https://user:pw@example.com/x')).toEqual(no('credentials'));
  });

  it('refuses files that are not pages, whatever the case, and keeps page extensions', () => {
    for (const path of ['/logo.PNG', '/deck.docx', '/app.js', '/site.css', '/font.woff2', '/demo.mp4', '/export.zip', '/feed.xml', '/a.tar.gz']) {
      expect(siteUrl('example.com', `https://example.com${path}?v=3`)).toEqual(no('non-html'));
    }
    for (const path of ['/about.html', '/index.php', '/pricing.aspx', '/v1.2/notes', '/docs/node.js-guide']) {
      expect(siteUrl('example.com', `https://example.com${path}`).ok).toBe(true);
    }
  });

  it('refuses URLs longer than 2,048 characters, and absurd input before parsing it', () => {
    const prefix = 'https://example.com/';
    expect(siteUrl('example.com', prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length))).toEqual(ok(prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length)));
    expect(siteUrl('example.com', prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length + 1))).toEqual(no('too-long'));
    // The query string is dropped before the length is judged.
    expect(siteUrl('example.com', `${prefix}pricing?${'q'.repeat(4_000)}`)).toEqual(ok(`${prefix}pricing`));
    expect(siteUrl('example.com', prefix + 'a'.repeat(10_000_000))).toEqual(no('too-long'));
  });
});

describe('pagePriority', () => {
  it('orders a realistic site: what a GTM team needs first, shallow before deep, traps last', () => {
    const site = [
      'https://example.com/blog/2024/05/launching-our-new-pricing',
      'https://example.com/events/calendar/2031/07/14',
      'https://example.com/blog/page/1234',
      'https://example.com/blog/tag/ai',
      'https://example.com/careers',
      'https://example.com/legal/privacy',
      'https://example.com/blog/why-we-built-it',
      'https://example.com/vs/competitor',
      'https://example.com/integrations',
      'https://example.com/changelog',
      'https://example.com/blog',
      'https://example.com/press',
      'https://example.com/customers',
      'https://example.com/company/about',
      'https://example.com/about',
      'https://example.com/product/features',
      'https://example.com/platform',
      'https://example.com/pricing',
      'https://example.com/',
    ];
    const ordered = [...site].sort((a, b) => pagePriority(b) - pagePriority(a) || (a < b ? -1 : 1));
    expect(ordered.slice(0, 4)).toEqual(['https://example.com/', 'https://example.com/pricing', 'https://example.com/platform', 'https://example.com/about']);
    const at = (url: string) => ordered.indexOf(url);
    expect(at('https://example.com/pricing')).toBeLessThan(at('https://example.com/blog/why-we-built-it'));
    expect(at('https://example.com/blog/why-we-built-it')).toBeLessThan(at('https://example.com/events/calendar/2031/07/14'));
    expect(at('https://example.com/blog')).toBeLessThan(at('https://example.com/blog/why-we-built-it'));
    expect(at('https://example.com/customers')).toBeLessThan(at('https://example.com/press'));
    expect(at('https://example.com/press')).toBeLessThan(at('https://example.com/blog'));
    expect(at('https://example.com/changelog')).toBeLessThan(at('https://example.com/careers'));
    expect(at('https://example.com/integrations')).toBeLessThan(at('https://example.com/vs/competitor'));
    expect(at('https://example.com/vs/competitor')).toBeLessThan(at('https://example.com/legal/privacy'));
    // Every trap after every ordinary page.
    const traps = ['https://example.com/events/calendar/2031/07/14', 'https://example.com/blog/page/1234', 'https://example.com/blog/tag/ai'];
    expect(ordered.slice(-3).sort()).toEqual([...traps].sort());
  });

  it('takes the kind from the first segments, not from a post slug, and skips a locale', () => {
    expect(pageKind('https://example.com/blog/our-new-pricing-plans')).toBe('blog');
    expect(pageKind('https://example.com/en/pricing')).toBe('pricing');
    expect(pageKind('https://example.com/pt-br/')).toBe('home');
    expect(pageKind('https://example.com/index.html')).toBe('home');
    expect(pageKind('https://example.com/resources/case-studies/acme')).toBe('customers');
    expect(pageKind('https://example.com/customer-case-studies')).toBe('customers');
    expect(pageKind('https://example.com/release-notes')).toBe('changelog');
    expect(pageKind('https://example.com/vs/hubspot')).toBe('comparisons');
    expect(pageKind('https://example.com/acme-vs-globex')).toBe('comparisons');
    expect(pageKind('https://example.com/hubspot-alternative')).toBe('comparisons');
    expect(pageKind('https://example.com/compare')).toBe('comparisons');
    expect(pageKind('https://example.com/Jobs.html')).toBe('careers');
    expect(pageKind('https://example.com/partners')).toBe('integrations');
    // Whole words only: "press" is not in "wordpress", "plan" not in "planet".
    expect(pageKind('https://example.com/wordpress-plugin')).toBe('other');
    expect(pageKind('https://example.com/planet')).toBe('other');
    expect(pageKind('https://example.com/showcase')).toBe('other');
    expect(pagePriority('https://example.com/en/pricing')).toBe(pagePriority('https://example.com/pricing'));
  });

  it('scores traps down', () => {
    expect(pageTraps('https://example.com/pricing')).toEqual([]);
    expect(pageTraps('https://example.com/blog/2024/05/a-post')).toEqual([]);
    expect(pageTraps('https://example.com/calendar/2031-07-14')).toEqual(['calendar', 'date-archive']);
    expect(pageTraps('https://example.com/blog/2024/05')).toEqual(['date-archive']);
    expect(pageTraps('https://example.com/news/page/7')).toEqual(['pagination']);
    expect(pageTraps('https://example.com/blog/category/product')).toEqual(['archive']);
    expect(pageTraps('https://example.com/a/b/a/b/a/b')).toContain('repetitive');
    expect(pageTraps(`https://example.com/${'x'.repeat(300)}`)).toEqual(['long']);
    expect(pageTraps('https://example.com/1/2/3/4/5/6/7')).toContain('long');
    for (const trap of ['https://example.com/calendar/2031-07-14', 'https://example.com/news/page/7', 'https://example.com/a/b/a/b/a/b']) {
      expect(pagePriority(trap)).toBeLessThan(pagePriority('https://example.com/some/deep/ordinary/page'));
    }
  });
});

describe('Frontier', () => {
  it('checks its budget: 50 by default, 1 to 500', () => {
    expect(new Frontier({ domain: 'example.com' }).budget).toBe(50);
    expect(new Frontier({ domain: 'example.com', budget: 500 }).maxQueued).toBe(5_000);
    for (const budget of [0, 501, 2.5, Number.NaN]) expect(() => new Frontier({ domain: 'example.com', budget })).toThrow(RangeError);
    expect(() => new Frontier({ domain: ' ' })).toThrow(RangeError);
    expect(() => new Frontier({ domain: 'https://example.com/' })).toThrow(RangeError);
    expect(new Frontier({ domain: 'WWW.example.com' }).domain).toBe('example.com');
  });

  it('hands out the best URL first, ties by URL, and never the same URL twice', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 10 });
    for (const raw of ['/blog/b-post', '/blog/a-post', '/events/calendar/2031/07/14', '/pricing?x=1', '/pricing#faq', '/', '/PRICING']) {
      frontier.add(raw, 'https://example.com/');
    }
    expect(frontier.add('https://www.example.com/pricing').queued).toBe(true);
    const order: string[] = [];
    for (let url = frontier.next(); url !== undefined; url = frontier.next()) order.push(url);
    expect(order).toEqual([
      'https://example.com/',
      // Ties by URL in code-unit order: upper case sorts before lower case.
      'https://example.com/PRICING',
      'https://example.com/pricing',
      'https://www.example.com/pricing',
      'https://example.com/blog/a-post',
      'https://example.com/blog/b-post',
      'https://example.com/events/calendar/2031/07/14',
    ]);
    expect(frontier.add('https://example.com/pricing?again')).toEqual({ queued: false, reason: 'duplicate' });
    expect(frontier.report()).toMatchObject({ requested: 7, enqueued: 7, queued: 0, skipped: { duplicate: 2 } });
  });

  it('is deterministic: the same URLs in any order give the same reads', () => {
    const urls = Array.from({ length: 200 }, (_, i) => `https://example.com/${['blog', 'docs', 'x', 'pricing'][i % 4]}/${(i * 7919) % 200}`);
    const read = (list: string[]) => {
      const frontier = new Frontier({ domain: 'example.com', budget: 30 });
      for (const url of list) frontier.add(url);
      return Array.from({ length: 30 }, () => frontier.next());
    };
    expect(read(urls)).toEqual(read([...urls].reverse()));
  });

  it('respects the budget', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 3 });
    for (let i = 0; i < 20; i += 1) frontier.add(`https://example.com/page-${i}`);
    const read = [frontier.next(), frontier.next(), frontier.next()];
    expect(read.every((url) => url !== undefined)).toBe(true);
    expect(frontier.next()).toBeUndefined();
    expect(frontier.done).toBe(true);
    expect(frontier.report()).toMatchObject({ budget: 3, requested: 3, queued: 17 });
  });

  it('bounds its queue at 10 x budget, dropping the lowest priority, and counts what it skipped', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 5 });
    for (let i = 0; i < 10_000; i += 1) frontier.add(`https://example.com/blog/post-${i}`);
    expect(frontier.report().queued).toBe(50);
    expect(frontier.add('https://example.com/pricing').queued).toBe(true);
    expect(frontier.add('https://example.com/tag/x/page/9')).toEqual({ queued: false, reason: 'queue-full' });
    frontier.add('mailto:a@example.com', 'https://example.com/');
    frontier.add('https://other.test/');
    frontier.add('https://example.com/logo.svg');
    frontier.add('not a url');
    const report = frontier.report();
    expect(report.queued).toBe(50);
    expect(report.skipped).toEqual({
      invalid: 1, scheme: 1, credentials: 0, 'off-site': 1, 'too-long': 0, 'non-html': 1, disallowed: 0, duplicate: 0, 'queue-full': 10_000 - 50 + 1 + 1, trap: 0, documents: 0, 'out-of-scope': 0,
    });
    // The queue kept the best: pricing, then the equal pages whose URLs sort first.
    const pages = Array.from({ length: 10_000 }, (_, i) => `https://example.com/blog/post-${i}`).sort();
    expect([frontier.next(), frontier.next(), frontier.next(), frontier.next(), frontier.next()]).toEqual(['https://example.com/pricing', ...pages.slice(0, 4)]);
  });

  it(`reads at most ${MAX_PAGES_PER_TRAP} pages of one trap, however much budget is left`, () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 50 });
    for (let month = 1; month <= 12; month += 1) frontier.add(`https://example.com/events/calendar/2026/${month}`);
    frontier.add('https://example.com/pricing');
    const read: string[] = [];
    for (let url = frontier.next(); url !== undefined; url = frontier.next()) read.push(url);
    expect(read[0]).toBe('https://example.com/pricing');
    expect(read.filter((url) => url.includes('/calendar/'))).toHaveLength(MAX_PAGES_PER_TRAP);
    expect(frontier.report().skipped.trap).toBe(12 - MAX_PAGES_PER_TRAP);
    // A snapshot keeps the count: the restored frontier reads no more of the trap.
    const again = Frontier.restore({ domain: 'example.com', budget: 50 }, frontier.snapshot());
    again.add('https://example.com/events/calendar/2027/1');
    expect(again.next()).toBeUndefined();
  });

  it('never queues a URL the site disallows, and asks about the URL it would request', () => {
    const asked: string[] = [];
    const frontier = new Frontier({ domain: 'example.com', budget: 10, allows: (url) => (asked.push(url), !new URL(url).pathname.startsWith('/admin')) });
    expect(frontier.add('/admin/users?x=1', 'https://example.com/')).toEqual({ queued: false, reason: 'disallowed' });
    expect(frontier.add('/pricing', 'https://example.com/').queued).toBe(true);
    expect(frontier.add('https://other.test/admin')).toEqual({ queued: false, reason: 'off-site' });
    expect(asked).toEqual(['https://example.com/admin/users', 'https://example.com/pricing']);
    expect(frontier.next()).toBe('https://example.com/pricing');
    expect(frontier.next()).toBeUndefined();
    expect(frontier.report().skipped.disallowed).toBe(1);
  });

  it('takes a canonical link as a hint: it replaces the URL only when it names the same page', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 10 });
    frontier.add('https://example.com/pricing/');
    expect(frontier.next()).toBe('https://example.com/pricing/');
    // The same path once normalized (a trailing slash, the other host): kept under the canonical URL, which is never requested.
    expect(frontier.canonicalUrl('https://www.example.com/pricing', 'https://example.com/pricing/')).toBe('https://www.example.com/pricing');
    expect(frontier.canonicalUrl('/pricing?ref=canonical', 'https://example.com/pricing/')).toBe('https://example.com/pricing');
    expect(frontier.add('https://example.com/pricing')).toEqual({ queued: false, reason: 'duplicate' });
    expect(frontier.next()).toBeUndefined();
    // A template naming the home page as every page's canonical: the page keeps its own URL (and its links are followed).
    frontier.add('https://example.com/about');
    expect(frontier.next()).toBe('https://example.com/about');
    expect(frontier.canonicalUrl('https://example.com/', 'https://example.com/about')).toBe('https://example.com/about');
    // Itself, off-site, or not a URL: nothing changes.
    expect(frontier.canonicalUrl('https://example.com/about#top', 'https://example.com/about')).toBe('https://example.com/about');
    expect(frontier.canonicalUrl('https://other.test/about', 'https://example.com/about')).toBe('https://example.com/about');
    expect(frontier.canonicalUrl('http://[::1', 'https://example.com/about')).toBe('https://example.com/about');
    expect(frontier.report()).toMatchObject({ requested: 2, duplicates: { canonical: 2, contentHash: 0, canonicalIgnored: 1 }, skipped: { duplicate: 1 } });
  });

  it('learns that one host redirects to the other and queues the rest of its URLs there', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 10 });
    for (const path of ['/', '/pricing', '/about']) frontier.add(`https://example.com${path}`);
    expect(frontier.next()).toBe('https://example.com/');
    frontier.learnRedirect('https://example.com/', 'https://www.example.com/');
    expect(frontier.add('https://example.com/careers')).toEqual({ queued: true, url: 'https://www.example.com/careers' });
    const rest: string[] = [];
    for (let url = frontier.next(); url !== undefined; url = frontier.next()) rest.push(url);
    expect(rest.sort()).toEqual(['https://www.example.com/about', 'https://www.example.com/careers', 'https://www.example.com/pricing']);
    // A redirect to another path teaches nothing; a snapshot keeps what was learned.
    const other = new Frontier({ domain: 'example.com', budget: 10 });
    other.learnRedirect('https://example.com/old', 'https://www.example.com/new');
    expect(other.add('https://example.com/x')).toEqual({ queued: true, url: 'https://example.com/x' });
    const restored = Frontier.restore({ domain: 'example.com', budget: 10 }, frontier.snapshot());
    expect(restored.add('https://example.com/blog')).toEqual({ queued: true, url: 'https://www.example.com/blog' });
  });

  it('takes a page of one host with the same text as the same page of the other as a sign they mirror each other', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 10 });
    expect(frontier.markContentHash('h1', 'https://example.com/about')).toBe('new');
    expect(frontier.markContentHash('h1', 'https://www.example.com/about')).toBe('duplicate');
    expect(frontier.add('https://www.example.com/pricing')).toEqual({ queued: true, url: 'https://example.com/pricing' });
  });

  it('gives back a page whose request never left: queued again, counted once', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 2 });
    frontier.add('https://example.com/pricing');
    frontier.add('https://example.com/about');
    expect(frontier.next()).toBe('https://example.com/pricing');
    expect(frontier.next()).toBe('https://example.com/about');
    expect(frontier.next()).toBeUndefined();
    frontier.retry('https://example.com/pricing');
    expect(frontier.next()).toBe('https://example.com/pricing');
    expect(frontier.report().requested).toBe(2);
    // A URL never handed out is not given back.
    frontier.retry('https://example.com/never');
    expect(frontier.report().requested).toBe(2);
  });

  it(`reads documents (PDF) as pages, at most ${MAX_DOCUMENTS_PER_READ} per read`, () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 50 });
    for (let i = 0; i < MAX_DOCUMENTS_PER_READ + 5; i += 1) expect(frontier.add(`https://example.com/files/sheet-${i}.pdf`).queued).toBe(true);
    const read: string[] = [];
    for (let url = frontier.next(); url !== undefined; url = frontier.next()) read.push(url);
    expect(read).toHaveLength(MAX_DOCUMENTS_PER_READ);
    expect(frontier.report().skipped.documents).toBe(5);
  });

  it('reports pages with the same content hash as duplicates', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 10 });
    expect(frontier.markContentHash('sha256:aaa', 'https://example.com/')).toBe('new');
    expect(frontier.markContentHash('sha256:aaa', 'https://example.com/')).toBe('new');
    expect(frontier.markContentHash('sha256:aaa', 'https://www.example.com/')).toBe('duplicate');
    expect(frontier.markContentHash('sha256:bbb', 'https://example.com/pricing')).toBe('new');
    expect(frontier.report().duplicates).toEqual({ canonical: 0, contentHash: 1 });
  });

  it('takes 10,000 hostile URLs in bounded time and space', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 500 });
    const started = Date.now();
    for (let i = 0; i < 10_000; i += 1) {
      frontier.add(`https://example.com/${'a/'.repeat(i % 50)}${i}${'%'.repeat(i % 3)}?${i}`);
      frontier.add(`https://example.com/${'x'.repeat(3_000)}${i}`);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    const report = frontier.report();
    expect(report.queued).toBe(5_000);
    expect(report.skipped['too-long']).toBe(10_000);
    let reads = 0;
    while (frontier.next() !== undefined) reads += 1;
    expect(reads).toBe(500);
  });
});

describe('a re-read ordered by the sitemaps\' lastmod', () => {
  it('raises a page by CHANGED_BONUS, so a changed page is read before an unchanged one of a higher kind', () => {
    const frontier = new Frontier({ domain: 'example.com', budget: 10 });
    frontier.add('https://example.com/blog');
    frontier.add('https://example.com/careers', undefined, CHANGED_BONUS);
    expect(frontier.next()).toBe('https://example.com/careers');
    expect(frontier.next()).toBe('https://example.com/blog');
  });

  it('takes a page as changed when its lastmod is later than the last read, or it was never read; no lastmod, not', () => {
    expect(changedSince('2026-11-20', '2026-11-01T10:00:00.000Z')).toBe(true);
    expect(changedSince('2026-10-20', '2026-11-01T10:00:00.000Z')).toBe(false);
    expect(changedSince('2026-10-20', undefined)).toBe(true);
    expect(changedSince(undefined, '2026-11-01T10:00:00.000Z')).toBe(false);
    expect(changedSince('not a date', undefined)).toBe(false);
  });
});
