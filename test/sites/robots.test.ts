import { describe, expect, it } from 'vitest';
import { MAX_CRAWL_DELAY_SECONDS } from '../../src/sites/politeness.ts';
import {
  MAX_ROBOTS_BYTES,
  MAX_SITEMAPS,
  SITE_READER_PRODUCT_TOKEN,
  SITE_READER_USER_AGENT,
  parseRobots,
  robotsPolicyFor,
  unreachableRobotsPolicy,
} from '../../src/sites/robots.ts';

const ROBOTS = 'https://acme.example/robots.txt';
const at = (path: string) => `https://acme.example${path}`;
const robots = (...lines: string[]) => parseRobots(ROBOTS, lines.join('\n'));

describe('the site reader user agent', () => {
  it('starts with the product token that picks its robots.txt group', () => {
    expect(SITE_READER_PRODUCT_TOKEN).toBe('ReconBot');
    expect(SITE_READER_USER_AGENT.startsWith(`${SITE_READER_PRODUCT_TOKEN}/`)).toBe(true);
    expect(SITE_READER_USER_AGENT).toMatch(/\(\+https:\/\/[^;]+;/);
  });
});

describe('picking the group', () => {
  it('follows our group, not *, when one names us (case-insensitively, with or without a version)', () => {
    for (const name of ['ReconBot', 'reconbot', 'RECONBOT/2.0']) {
      const policy = robots('User-agent: *', 'Disallow: /', '', `User-agent: ${name}`, 'Disallow: /private');
      expect(policy.allows(at('/pricing')), name).toBe(true);
      expect(policy.check(at('/private/x')), name).toEqual({ allowed: false, reason: 'disallowed' });
    }
  });

  it('follows * when no group names us', () => {
    const policy = robots('User-agent: Googlebot', 'Disallow: /', '', 'User-agent: *', 'Disallow: /admin');
    expect(policy.allows(at('/pricing'))).toBe(true);
    expect(policy.allows(at('/admin/users'))).toBe(false);
  });

  it('merges two groups that name us, and ignores rules outside any group', () => {
    const policy = robots('Disallow: /orphan', 'User-agent: ReconBot', 'Disallow: /a', '', 'User-agent: Other', 'Disallow: /', '', 'User-agent: ReconBot', 'Disallow: /b');
    expect(policy.allows(at('/a'))).toBe(false);
    expect(policy.allows(at('/b'))).toBe(false);
    expect(policy.allows(at('/orphan'))).toBe(true);
  });

  it('takes a group listing us among several agents', () => {
    const policy = robots('User-agent: Googlebot', 'User-agent: ReconBot', 'Disallow: /shared', '', 'User-agent: *', 'Disallow: /');
    expect(policy.allows(at('/shared/x'))).toBe(false);
    expect(policy.allows(at('/else'))).toBe(true);
  });

  it('allows everything when our group is empty, even if * disallows', () => {
    const policy = robots('User-agent: ReconBot', 'Disallow:', '', 'User-agent: *', 'Disallow: /');
    expect(policy.allows(at('/anything'))).toBe(true);
  });
});

describe('matching (RFC 9309, 2.2.2)', () => {
  it('lets the longest match win, whichever comes first', () => {
    const policy = robots('User-agent: *', 'Allow: /docs/public', 'Disallow: /docs', 'Disallow: /blog/drafts', 'Allow: /blog');
    expect(policy.allows(at('/docs/public/page'))).toBe(true);
    expect(policy.allows(at('/docs/internal'))).toBe(false);
    expect(policy.allows(at('/blog/post'))).toBe(true);
    expect(policy.allows(at('/blog/drafts/x'))).toBe(false);
  });

  it('lets Allow win a tie of equal length', () => {
    expect(robots('User-agent: *', 'Disallow: /page', 'Allow: /page').allows(at('/page'))).toBe(true);
    expect(robots('User-agent: *', 'Allow: /page', 'Disallow: /page').allows(at('/page'))).toBe(true);
  });

  it('reads * as any run of characters and a final $ as the end of the path', () => {
    const policy = robots('User-agent: *', 'Disallow: /*.pdf$', 'Disallow: /search*q=', 'Disallow: /exact$');
    expect(policy.allows(at('/files/report.pdf'))).toBe(false);
    expect(policy.allows(at('/files/report.pdf?download=1'))).toBe(true);
    expect(policy.allows(at('/files/report.pdfx'))).toBe(true);
    expect(policy.allows(at('/search/all?q=crm'))).toBe(false);
    expect(policy.allows(at('/search/all'))).toBe(true);
    expect(policy.allows(at('/exact'))).toBe(false);
    expect(policy.allows(at('/exact/more'))).toBe(true);
  });

  it('matches paths case-sensitively and includes the query string', () => {
    const policy = robots('User-agent: *', 'Disallow: /Private', 'Disallow: /list?page=');
    expect(policy.allows(at('/private'))).toBe(true);
    expect(policy.allows(at('/Private'))).toBe(false);
    expect(policy.allows(at('/list?page=2'))).toBe(false);
    expect(policy.allows(at('/list'))).toBe(true);
  });

  it('compares percent-encoded and raw UTF-8 paths alike', () => {
    const policy = robots('User-agent: *', 'Disallow: /café');
    expect(policy.allows(at('/caf%C3%A9/menu'))).toBe(false);
    expect(policy.allows(at('/café/menu'))).toBe(false);
  });

  it('matches percent-encoded rules as RFC 9309 2.2.2 says: escapes of either case alike, a rule written encoded against a raw path', () => {
    const policy = robots('User-agent: *', 'Disallow: /caf%c3%a9', 'Disallow: /%7Ejane/', 'Disallow: /*%20draft$');
    expect(policy.allows(at('/caf%C3%A9/menu'))).toBe(false);
    expect(policy.allows(at('/café/menu'))).toBe(false);
    expect(policy.allows(at('/%7ejane/cv'))).toBe(false);
    expect(policy.allows(at('/notes/plan%20draft'))).toBe(false);
    expect(policy.allows(at('/notes/plan draft'))).toBe(false);
    expect(policy.allows(at('/notes/plan%20final'))).toBe(true);
  });

  it('always allows /robots.txt itself', () => {
    expect(robots('User-agent: *', 'Disallow: /').allows(ROBOTS)).toBe(true);
  });

  it('refuses a URL on another host, scheme or port, and a URL that is not http(s)', () => {
    const policy = robots('User-agent: *', 'Allow: /');
    expect(policy.check('https://other.example/')).toEqual({ allowed: false, reason: 'other-origin' });
    expect(policy.check('https://www.acme.example/')).toEqual({ allowed: false, reason: 'other-origin' });
    expect(policy.check('http://acme.example/')).toEqual({ allowed: false, reason: 'other-origin' });
    expect(policy.check('https://acme.example:8443/')).toEqual({ allowed: false, reason: 'other-origin' });
    expect(policy.check('ftp://acme.example/')).toEqual({ allowed: false, reason: 'invalid-url' });
    expect(policy.check('not a url')).toEqual({ allowed: false, reason: 'invalid-url' });
    expect(policy.allows('https://acme.example:443/pricing')).toBe(true);
  });

  it('reads a file that starts with a byte order mark (the parser trims it off the first key)', () => {
    const policy = parseRobots(ROBOTS, '\uFEFFUser-agent: *\nDisallow: /secret\n');
    expect(policy.allows(at('/secret'))).toBe(false);
  });

  it('allows everything in a file with no Disallow path, and still refuses after odd spacing, a BOM or a no-break space', () => {
    const open = robots('User-agent: *', 'Allow: /', 'Disallow:', 'Disallow:   # nothing', 'Sitemap: https://acme.example/sitemap.xml');
    expect(open.allows(at('/anything?x=1'))).toBe(true);
    expect(open.check('https://other.example/').reason).toBe('other-origin');
    expect(parseRobots(ROBOTS, '\uFEFFDisallow : /a\nUser-agent: *\nDISALLOW\t:\t/b\nUser-agent: *\nDisallow:\u00a0/c\n').allows(at('/b'))).toBe(false);
    expect(robots('User-agent: *', 'disallow :\u00a0/c').allows(at('/c'))).toBe(false);
  });

  it('reads CRLF and CR line ends and comments', () => {
    const policy = parseRobots(ROBOTS, 'User-agent: * # everyone\r\nDisallow: /a # not /b\rDisallow: /c\r\n');
    expect(policy.allows(at('/a'))).toBe(false);
    expect(policy.allows(at('/c'))).toBe(false);
    expect(policy.allows(at('/b'))).toBe(true);
  });
});

describe('Crawl-delay', () => {
  it('is read from our group, not from *', () => {
    expect(robots('User-agent: *', 'Crawl-delay: 9', '', 'User-agent: ReconBot', 'Crawl-delay: 2.5').crawlDelaySeconds).toBe(2.5);
    expect(robots('User-agent: *', 'Crawl-delay: 9', '', 'User-agent: ReconBot', 'Disallow: /x').crawlDelaySeconds).toBeUndefined();
    expect(robots('User-agent: Other', 'Crawl-delay: 4', '', 'User-agent: *', 'Crawl-delay: 3').crawlDelaySeconds).toBe(3);
    expect(robots('User-agent: *', 'Disallow: /x').crawlDelaySeconds).toBeUndefined();
  });

  it('is capped, and a non-numeric, negative or zero value is ignored and reported', () => {
    const capped = robots('User-agent: *', 'Crawl-delay: 86400');
    expect(capped.crawlDelaySeconds).toBe(MAX_CRAWL_DELAY_SECONDS);
    expect(capped.notes.join(' ')).toContain('capped');
    expect(robots('User-agent: *', 'Crawl-delay: 1e999').crawlDelaySeconds).toBe(MAX_CRAWL_DELAY_SECONDS);
    for (const value of ['soon', '-5', '0', 'NaN', '-Infinity']) {
      const policy = robots('User-agent: *', `Crawl-delay: ${value}`);
      expect(policy.crawlDelaySeconds, value).toBeUndefined();
    }
    expect(robots('User-agent: *', 'Crawl-delay: -5').notes.join(' ')).toContain('ignored');
  });
});

describe('sitemaps', () => {
  it('are collected from anywhere in the file, absolute http(s) only, deduplicated', () => {
    const policy = robots(
      'Sitemap: https://acme.example/sitemap.xml',
      'User-agent: *',
      'Disallow: /x',
      'sitemap: http://cdn.acme.example/news.xml',
      'Sitemap: /relative.xml',
      'Sitemap: ftp://acme.example/s.xml',
      'Sitemap: javascript:alert(1)',
      'Sitemap: https://acme.example/sitemap.xml',
      `Sitemap: https://acme.example/${'a'.repeat(3000)}.xml`,
    );
    expect(policy.sitemaps).toEqual(['https://acme.example/sitemap.xml', 'http://cdn.acme.example/news.xml']);
    expect(policy.notes.join(' ')).toContain('5 sitemap entries dropped');
  });

  it('are at most 50', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `Sitemap: https://acme.example/s${i}.xml`);
    const policy = robots(...lines);
    expect(policy.sitemaps).toHaveLength(MAX_SITEMAPS);
    expect(policy.sitemaps[49]).toBe('https://acme.example/s49.xml');
  });
});

describe('hostile and odd files', () => {
  it('parses only the first 500 KiB of a 10 MB robots.txt, and says so', () => {
    const filler = '# padding padding padding padding padding padding padding padding\n';
    const head = 'User-agent: *\nDisallow: /early\n';
    const tail = 'User-agent: ReconBot\nDisallow: /\nSitemap: https://acme.example/late.xml\n';
    const text = head + filler.repeat(Math.ceil((10 * 1024 * 1024) / filler.length)) + tail;
    expect(text.length).toBeGreaterThan(10 * 1024 * 1024);
    const policy = parseRobots(ROBOTS, text);
    expect(policy.allows(at('/early'))).toBe(false);
    // The ReconBot group past 500 KiB was never read: * still applies.
    expect(policy.allows(at('/pricing'))).toBe(true);
    expect(policy.sitemaps).toEqual([]);
    expect(policy.notes.join(' ')).toContain(`only the first ${MAX_ROBOTS_BYTES}`);
  });

  it('parses everything up to 500 KiB, and drops a line cut at the bound instead of reading it shortened', () => {
    const head = 'User-agent: *\n';
    const rule = 'Disallow: /private-area-of-the-site\n';
    // The rule straddles the bound: its first half is in the first 500 KiB.
    const pad = `#${'x'.repeat(MAX_ROBOTS_BYTES - head.length - 2 - 'Disallow: /priv'.length)}\n`;
    const policy = parseRobots(ROBOTS, head + pad + rule);
    expect(policy.allows(at('/private-area-of-the-site'))).toBe(true);
    expect(policy.allows(at('/priv'))).toBe(true);
    // A file of exactly 500 KiB is read whole.
    const whole = head + `#${'x'.repeat(MAX_ROBOTS_BYTES - head.length - rule.length - 2)}\n` + rule;
    expect(new TextEncoder().encode(whole).length).toBe(MAX_ROBOTS_BYTES);
    const read = parseRobots(ROBOTS, whole);
    expect(read.allows(at('/private-area-of-the-site'))).toBe(false);
    expect(read.notes).toEqual([]);
  });

  it('counts the bound in UTF-8 bytes, not characters', () => {
    // 200,000 three-byte characters are 600,000 bytes: the rule after them is past 500 KiB.
    const policy = parseRobots(ROBOTS, `User-agent: *\n#${'€'.repeat(200_000)}\nDisallow: /\n`);
    expect(policy.allows(at('/x'))).toBe(true);
    expect(policy.notes.join(' ')).toContain('only the first');
  });

  it('reads garbage bytes as no rules, without throwing', () => {
    const bytes = new Uint8Array(64 * 1024);
    let seed = 7;
    for (let i = 0; i < bytes.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      bytes[i] = seed >>> 24;
    }
    const garbage = new TextDecoder().decode(bytes);
    const policy = parseRobots(ROBOTS, garbage);
    expect(policy.source).toBe('parsed');
    expect(policy.allows(at('/pricing'))).toBe(true);
    expect(() => parseRobots(ROBOTS, '\u0000\uFFFD<html><body>Not found</body></html>::::\n:\n*:*')).not.toThrow();
    expect(parseRobots(ROBOTS, '<!doctype html><html><p>Disallow: /</p></html>').allows(at('/x'))).toBe(true);
  });

  it('reads an empty file as allowing everything', () => {
    const policy = parseRobots(ROBOTS, '');
    expect(policy.allows(at('/'))).toBe(true);
    expect(policy.crawlDelaySeconds).toBeUndefined();
    expect(policy.sitemaps).toEqual([]);
    expect(policy.notes).toEqual([]);
  });

  it('bounds the matching work of a wildcard bomb', () => {
    // Without the collapse of `*` runs this check costs about 10^9 steps (near a second).
    const stars = parseRobots(ROBOTS, `User-agent: *\nDisallow: /${'*'.repeat(400_000)}b\n`);
    expect(stars.allows(at(`/${'a'.repeat(2000)}`))).toBe(true);
    expect(stars.allows(at(`/${'a'.repeat(100)}b`))).toBe(false);
    // 500 KiB of `a*a*...`: short paths are still checked, a long one is refused as too complex.
    const rules = Array.from({ length: 120 }, () => `Disallow: /${'a*'.repeat(2000)}b`).join('\n');
    const bomb = parseRobots(ROBOTS, `User-agent: *\n${rules}\n`);
    expect(bomb.allows(at('/pricing'))).toBe(true);
    expect(bomb.check(at(`/${'a'.repeat(2000)}`))).toEqual({ allowed: false, reason: 'too-complex' });
    const started = performance.now();
    for (let i = 0; i < 50; i++) bomb.check(at(`/${'a'.repeat(i)}`));
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses a URL over 2,048 characters', () => {
    expect(parseRobots(ROBOTS, '').check(at(`/${'a'.repeat(2100)}`))).toEqual({ allowed: false, reason: 'url-too-long' });
  });

  it('refuses everything under a robots URL that is not http(s), without throwing', () => {
    const policy = parseRobots('file:///etc/robots.txt', 'User-agent: *\nAllow: /');
    expect(policy.source).toBe('unreachable');
    expect(policy.allows('file:///etc/passwd')).toBe(false);
    expect(robotsPolicyFor('not a url', 200, '').allows(at('/'))).toBe(false);
  });
});

describe('what a fetch of robots.txt means (RFC 9309, 2.3.1)', () => {
  it('parses a 2xx body', () => {
    const policy = robotsPolicyFor(ROBOTS, 200, 'User-agent: *\nDisallow: /admin');
    expect(policy.source).toBe('parsed');
    expect(policy.allows(at('/admin'))).toBe(false);
    expect(policy.allows(at('/'))).toBe(true);
  });

  it('allows everything after a 4xx (404, 403, 410) or unresolved redirects', () => {
    for (const status of [404, 403, 401, 410, 310]) {
      const policy = robotsPolicyFor(ROBOTS, status, 'User-agent: *\nDisallow: /');
      expect(policy.source, String(status)).toBe('unavailable');
      expect(policy.allows(at('/anything')), String(status)).toBe(true);
      expect(policy.reason).toContain(String(status));
      // Still only for this site.
      expect(policy.allows('https://other.example/')).toBe(false);
    }
  });

  it('disallows everything after a 5xx, a 429, or no answer at all', () => {
    for (const status of [503, 500, 599, 429, 0, 102, Number.NaN]) {
      const policy = robotsPolicyFor(ROBOTS, status, null);
      expect(policy.source, String(status)).toBe('unreachable');
      expect(policy.check(at('/')), String(status)).toEqual({ allowed: false, reason: 'unreachable' });
      expect(policy.sitemaps).toEqual([]);
    }
    expect(robotsPolicyFor(ROBOTS, 503, null).reason).toContain('503');
  });

  it('disallows everything when a 2xx body could not be read, or a caller reports it unreadable', () => {
    expect(robotsPolicyFor(ROBOTS, 200, null).allows(at('/'))).toBe(false);
    const bomb = unreachableRobotsPolicy(ROBOTS, 'robots.txt decompressed past its bound');
    expect(bomb.allows(at('/pricing'))).toBe(false);
    expect(bomb.reason).toContain('robots.txt decompressed past its bound');
  });
});
