import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_ENTRIES,
  FEED_CONTENT_TYPES,
  FEED_PATHS,
  MAX_ENTRY_TEXT_CHARS,
  MAX_PARSED_ELEMENTS,
  calendarDate,
  cutText,
  htmlToText,
  httpUrl,
  looksLikeFeed,
  parseFeed,
} from '../../src/sites/feeds.ts';
import type { FeedEntry, ParsedFeed } from '../../src/sites/feeds.ts';
import { SOURCE_TITLE_MAX_CHARS } from '../../src/oms/object-types.ts';
import { MAX_URL_LENGTH } from '../../src/sites/frontier.ts';

const FEED_URL = 'https://acme.test/blog/feed';
const bytes = (text: string) => new TextEncoder().encode(text);

/** A WordPress-style RSS 2.0 feed, as such sites serve it. */
const WORDPRESS_RSS = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"
  xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>Acme Blog &#8211; News &amp; updates</title>
  <atom:link href="https://acme.test/blog/feed" rel="self" type="application/rss+xml" />
  <link>https://acme.test/blog</link>
  <description>What Acme is building</description>
  <item>
    <title>Acme raises a Series B &#8211; and what&#8217;s next</title>
    <link>https://acme.test/blog/series-b/</link>
    <dc:creator><![CDATA[Jane Doe]]></dc:creator>
    <pubDate>Tue, 03 Mar 2026 14:00:00 +0000</pubDate>
    <guid isPermaLink="false">https://acme.test/?p=123</guid>
    <description><![CDATA[<p>We raised $40M&#8230;</p>]]></description>
    <content:encoded><![CDATA[<h2>Why now</h2><p>We raised $40M to grow the team &amp; the platform.</p><script>track()</script><p>Hiring in Berlin.</p>]]></content:encoded>
  </item>
  <item>
    <title>Pricing changes</title>
    <link>/blog/pricing-2026</link>
    <pubDate>Fri, 6 Feb 26 09:30 EST</pubDate>
    <description>&lt;p&gt;New &lt;b&gt;Team&lt;/b&gt; plan at $20 per seat.&lt;/p&gt;&lt;p&gt;Enterprise unchanged.&lt;/p&gt;</description>
  </item>
  <item>
    <title>Podcast episode 12</title>
    <guid>https://acme.test/podcast/12</guid>
    <description>Plain text, 5 &lt; 6 ways to sell.</description>
  </item>
  <item>
    <title>No link at all</title>
    <guid isPermaLink="false">tag:acme.test,2026:1</guid>
    <description>Dropped.</description>
  </item>
</channel>
</rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">Acme &lt;em&gt;Changelog&lt;/em&gt;</title>
  <link href="https://acme.test/changelog" />
  <updated>2026-04-01T12:00:00Z</updated>
  <entry>
    <title>v2.3: SSO for every plan</title>
    <link rel="edit" href="https://acme.test/api/entries/23" />
    <link rel="alternate" type="text/html" href="/changelog/v2-3" />
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <published>2026-03-31T23:30:00-05:00</published>
    <updated>2026-04-02T10:00:00Z</updated>
    <summary>SSO everywhere.</summary>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>SAML &amp; OIDC single sign-on</p><ul><li>Okta</li><li>Entra ID</li></ul></div></content>
  </entry>
  <entry>
    <title>v2.2</title>
    <link href="https://acme.test/changelog/v2-2" />
    <updated>2026-02-10T08:00:00Z</updated>
    <content type="html">&lt;p&gt;Faster exports.&lt;/p&gt;</content>
  </entry>
  <entry>
    <title>v2.1</title>
    <link rel="alternate" href="https://acme.test/changelog/v2-1" />
    <content src="https://acme.test/changelog/v2-1.txt" type="text/plain" />
    <summary type="text">Use a &lt;br&gt; tag &amp; smile</summary>
  </entry>
</feed>`;

const RDF = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://acme.test/news">
    <title>Acme News</title>
    <link>https://acme.test/news</link>
    <items><rdf:Seq><rdf:li resource="https://acme.test/news/1" /></rdf:Seq></items>
  </channel>
  <item rdf:about="https://acme.test/news/1">
    <title>Acme opens a London office</title>
    <link>https://acme.test/news/1</link>
    <description>Twenty people by June.</description>
    <dc:date>2026-01-15T09:00:00+00:00</dc:date>
  </item>
</rdf:RDF>`;

const JSON_FEED = JSON.stringify({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'Acme Engineering',
  home_page_url: 'https://acme.test/eng',
  items: [
    { id: '1', url: 'https://acme.test/eng/postgres', title: 'Moving to Postgres', content_html: '<p>We moved.</p><p>It was fine.</p>', date_published: '2026-05-04T10:00:00Z' },
    { id: '2', external_url: 'https://elsewhere.test/talk', content_text: 'A talk we gave.', date_modified: '2026-05-01' },
    { id: '3', title: 'No URL', content_text: 'Dropped.' },
  ],
});

function readable(parsed: ParsedFeed): Extract<ParsedFeed, { entries: FeedEntry[] }> {
  if (parsed.kind === 'unreadable') throw new Error(`unreadable: ${parsed.reason}`);
  return parsed;
}

function rss(items: string[], channel = '<title>T</title>'): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel>${channel}${items.join('')}</channel></rss>`;
}

describe('parseFeed: RSS 2.0', () => {
  it('reads the channel title and each item: title, link, date and full content as text', async () => {
    const feed = readable(await parseFeed(WORDPRESS_RSS, FEED_URL));
    expect(feed.kind).toBe('rss');
    expect(feed.title).toBe('Acme Blog \u2013 News & updates');
    expect(feed.entries[0]).toEqual({
      title: 'Acme raises a Series B \u2013 and what\u2019s next',
      url: 'https://acme.test/blog/series-b/',
      publishedAt: '2026-03-03',
      text: 'Why now\n\nWe raised $40M to grow the team & the platform.\n\nHiring in Berlin.',
    });
  });

  it('resolves a relative link against the feed URL and reads escaped HTML and a two-digit year', async () => {
    const feed = readable(await parseFeed(WORDPRESS_RSS, FEED_URL));
    expect(feed.entries[1]).toEqual({
      title: 'Pricing changes',
      url: 'https://acme.test/blog/pricing-2026',
      publishedAt: '2026-02-06',
      text: 'New Team plan at $20 per seat.\n\nEnterprise unchanged.',
    });
  });

  it('takes a permalink guid when there is no link, and keeps a < in text that is not a tag', async () => {
    const feed = readable(await parseFeed(WORDPRESS_RSS, FEED_URL));
    expect(feed.entries[2]).toEqual({ title: 'Podcast episode 12', url: 'https://acme.test/podcast/12', text: 'Plain text, 5 < 6 ways to sell.' });
  });

  it('drops an item with neither link nor permalink guid, and counts it', async () => {
    const feed = readable(await parseFeed(WORDPRESS_RSS, FEED_URL));
    expect(feed.entries.map((entry) => entry.title)).not.toContain('No link at all');
    expect(feed).toMatchObject({ total: 4, dropped: 1, truncated: false });
  });

  it('never makes a URL of an opaque guid by resolving it against the feed', async () => {
    const feed = readable(await parseFeed(rss(['<item><title>x</title><guid>12345</guid></item>']), FEED_URL));
    expect(feed).toMatchObject({ entries: [], dropped: 1 });
  });

  it('reads bytes as UTF-8, with or without a byte-order mark', async () => {
    const body = rss(['<item><title>Caf\u00e9 \u2615</title><link>https://acme.test/cafe</link></item>']);
    for (const input of [bytes(body), bytes(`\uFEFF${body}`)]) {
      expect(readable(await parseFeed(input, FEED_URL)).entries[0]?.title).toBe('Caf\u00e9 \u2615');
    }
  });

  it('decodes many escaped tags (the parser\'s entity limits apply to declared entities only)', async () => {
    const description = '&lt;p&gt;word&lt;/p&gt;'.repeat(3_000);
    const feed = readable(await parseFeed(rss([`<item><link>https://acme.test/a</link><description>${description}</description></item>`]), FEED_URL));
    expect(feed.entries[0]?.text.split('\n\n')).toHaveLength(3_000);
  });

  it('titles an untitled entry with its text, else its URL', async () => {
    const feed = readable(
      await parseFeed(
        rss(['<item><link>https://acme.test/a</link><description>First line here</description></item>', '<item><link>https://acme.test/b</link></item>']),
        FEED_URL,
      ),
    );
    expect(feed.entries.map((entry) => entry.title)).toEqual(['First line here', 'https://acme.test/b']);
    expect(feed.entries[1]?.text).toBe('');
  });
});

describe('parseFeed: Atom', () => {
  it('prefers the alternate link, reads inline XHTML and the published date as written', async () => {
    const feed = readable(await parseFeed(ATOM, 'https://acme.test/changelog.atom'));
    expect(feed.kind).toBe('atom');
    expect(feed.title).toBe('Acme Changelog');
    expect(feed.entries[0]).toEqual({
      title: 'v2.3: SSO for every plan',
      url: 'https://acme.test/changelog/v2-3',
      publishedAt: '2026-03-31',
      text: 'SAML & OIDC single sign-on\n\nOkta\n\nEntra ID',
    });
  });

  it('takes a link without rel as the alternate, escaped HTML content and the updated date', async () => {
    const feed = readable(await parseFeed(ATOM, 'https://acme.test/changelog.atom'));
    expect(feed.entries[1]).toEqual({ title: 'v2.2', url: 'https://acme.test/changelog/v2-2', publishedAt: '2026-02-10', text: 'Faster exports.' });
  });

  it('reads the summary when content lives elsewhere (src), a text summary as plain text', async () => {
    const feed = readable(await parseFeed(ATOM, 'https://acme.test/changelog.atom'));
    expect(feed.entries[2]).toEqual({ title: 'v2.1', url: 'https://acme.test/changelog/v2-1', text: 'Use a <br> tag & smile' });
    expect(feed).toMatchObject({ total: 3, dropped: 0, truncated: false });
  });

  it('falls back to the first link of any rel when there is no alternate', async () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>x</title><link rel="related" href="https://acme.test/r"/></entry></feed>`;
    expect(readable(await parseFeed(atom, FEED_URL)).entries[0]?.url).toBe('https://acme.test/r');
  });
});

describe('parseFeed: RSS 1.0 and JSON Feed', () => {
  it('reads RSS 1.0 items beside the channel with their dc:date', async () => {
    const feed = readable(await parseFeed(RDF, 'https://acme.test/news.rdf'));
    expect(feed).toEqual({
      kind: 'rdf',
      title: 'Acme News',
      entries: [{ title: 'Acme opens a London office', url: 'https://acme.test/news/1', publishedAt: '2026-01-15', text: 'Twenty people by June.' }],
      total: 1,
      dropped: 0,
      truncated: false,
    });
  });

  it('reads a JSON Feed: url or external_url, HTML or plain content, dates', async () => {
    const feed = readable(await parseFeed(JSON_FEED, 'https://acme.test/feed.json'));
    expect(feed).toEqual({
      kind: 'json',
      title: 'Acme Engineering',
      entries: [
        { title: 'Moving to Postgres', url: 'https://acme.test/eng/postgres', publishedAt: '2026-05-04', text: 'We moved.\n\nIt was fine.' },
        { title: 'A talk we gave.', url: 'https://elsewhere.test/talk', publishedAt: '2026-05-01', text: 'A talk we gave.' },
      ],
      total: 3,
      dropped: 1,
      truncated: false,
    });
  });

  it('refuses JSON that is not a JSON Feed, and malformed JSON', async () => {
    expect(await parseFeed('{"jobs": []}', FEED_URL)).toMatchObject({ kind: 'unreadable', reason: expect.stringContaining('not a JSON Feed') });
    expect(await parseFeed('{"version": "https://jsonfeed.org/version/1", "items": [', FEED_URL)).toMatchObject({
      kind: 'unreadable',
      reason: expect.stringContaining('malformed JSON'),
    });
  });
});

describe('parseFeed: entry URLs', () => {
  const withLink = (link: string) => rss([`<item><title>x</title><link>${link}</link></item>`]);

  it('drops links that are not http(s)', async () => {
    for (const link of ['javascript:alert(1)', 'mailto:press@acme.test', 'data:text/html,hi', 'ftp://acme.test/file']) {
      expect(readable(await parseFeed(withLink(link), FEED_URL))).toMatchObject({ entries: [], dropped: 1 });
    }
  });

  it('strips user:password from a link', async () => {
    expect(readable(await parseFeed(withLink('https://user:secret@acme.test/post'), FEED_URL)).entries[0]?.url).toBe('https://acme.test/post');
  });

  it('drops a link longer than 2,048 characters', async () => {
    const long = `https://acme.test/${'a'.repeat(MAX_URL_LENGTH)}`;
    expect(readable(await parseFeed(withLink(long), FEED_URL))).toMatchObject({ entries: [], dropped: 1 });
  });

  it('httpUrl resolves, keeps only http(s), and removes credentials', () => {
    expect(httpUrl('/post/1', 'https://u:p@acme.test/feed')).toBe('https://acme.test/post/1');
    expect(httpUrl('post/1')).toBeUndefined();
    expect(httpUrl('  ')).toBeUndefined();
    expect(httpUrl('vbscript:x', 'https://acme.test/')).toBeUndefined();
  });
});

describe('parseFeed: bounds', () => {
  it('cuts an entry\'s text at a word before MAX_ENTRY_TEXT_CHARS, and its title at SOURCE_TITLE_MAX_CHARS', async () => {
    const long = `<p>${'lorem ipsum '.repeat(10_000)}</p>`;
    const feed = readable(
      await parseFeed(rss([`<item><title>${'T'.repeat(300)} ${'t'.repeat(300)}</title><link>https://acme.test/a</link><description><![CDATA[${long}]]></description></item>`]), FEED_URL),
    );
    const entry = feed.entries[0]!;
    expect(entry.text.length).toBeLessThanOrEqual(MAX_ENTRY_TEXT_CHARS);
    expect(entry.text.length).toBeGreaterThan(MAX_ENTRY_TEXT_CHARS - 20);
    expect(entry.text).toMatch(/ (lorem|ipsum)$/);
    expect(entry.title).toBe('T'.repeat(300));
    expect(entry.title.length).toBeLessThanOrEqual(SOURCE_TITLE_MAX_CHARS);
  });

  it('refuses a body larger than maxBytes, counted in bytes', async () => {
    expect(await parseFeed(bytes(WORDPRESS_RSS), FEED_URL, { maxBytes: 100 })).toEqual({ kind: 'unreadable', reason: 'larger than 100 bytes' });
    expect(readable(await parseFeed(bytes(WORDPRESS_RSS), FEED_URL, { maxBytes: WORDPRESS_RSS.length + 100 })).entries).toHaveLength(3);
  });

  it('keeps the first maxEntries entries in document order and counts them all', async () => {
    const items = Array.from({ length: 10 }, (_, i) => `<item><title>${i}</title><link>https://acme.test/${i}</link></item>`);
    const feed = readable(await parseFeed(rss(items), FEED_URL, { maxEntries: 3 }));
    expect(feed.entries.map((entry) => entry.title)).toEqual(['0', '1', '2']);
    expect(feed).toMatchObject({ total: 10, dropped: 0, truncated: true });
  });

  it('entries dropped count against the budget (the first maxEntries are read, not kept)', async () => {
    const items = ['<item><title>bad</title><link>mailto:x@acme.test</link></item>', '<item><title>ok</title><link>https://acme.test/ok</link></item>'];
    expect(readable(await parseFeed(rss(items), FEED_URL, { maxEntries: 1 }))).toMatchObject({ entries: [], total: 2, dropped: 1, truncated: true });
  });

  it('counts entries outside CDATA and comments only', async () => {
    const items = Array.from({ length: 5 }, (_, i) => `<item><link>https://acme.test/${i}</link><description><![CDATA[<item>quoted</item>]]></description></item><!-- <item> -->`);
    const feed = readable(await parseFeed(rss(items), FEED_URL, { maxEntries: 2 }));
    expect(feed).toMatchObject({ total: 5, dropped: 0, truncated: true });
    expect(feed.entries.map((entry) => entry.url)).toEqual(['https://acme.test/0', 'https://acme.test/1']);
  });

  it('reads a long feed with prefixed element names', async () => {
    const entries = Array.from({ length: 5 }, (_, i) => `<a:entry><a:title>${i}</a:title><a:link href="/e/${i}"/></a:entry>`);
    const atom = `<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:title>P</a:title>${entries.join('')}</a:feed>`;
    const feed = readable(await parseFeed(atom, FEED_URL, { maxEntries: 2 }));
    expect(feed).toMatchObject({ kind: 'atom', title: 'P', entries: [{ title: '0', url: 'https://acme.test/e/0' }, { title: '1' }], total: 5, truncated: true });
  });

  it('reads a long feed whose items are not inside its channel (the whole document is parsed then)', async () => {
    const items = Array.from({ length: 5 }, (_, i) => `<item><link>https://acme.test/${i}</link></item>`);
    const feed = readable(await parseFeed(`<rss><channel><title>T</title></channel>${items.join('')}</rss>`, FEED_URL, { maxEntries: 2 }));
    expect(feed).toMatchObject({ entries: [{ url: 'https://acme.test/0' }, { url: 'https://acme.test/1' }], total: 5, truncated: true });
  });

  it('parses only the entries it reads: a malformed tail past the budget goes unnoticed', async () => {
    const items = Array.from({ length: 3 }, (_, i) => `<item><link>https://acme.test/${i}</link></item>`);
    const broken = `<rss><channel>${items.join('')}<item><title>x</item></channel></rss>`;
    expect(readable(await parseFeed(broken, FEED_URL, { maxEntries: 3 }))).toMatchObject({ total: 4, truncated: true });
    expect(await parseFeed(broken, FEED_URL, { maxEntries: 4 })).toMatchObject({ kind: 'unreadable', reason: expect.stringContaining('malformed XML') });
  });

  it(`reads a 100,000-entry feed: the first ${DEFAULT_MAX_ENTRIES} kept, all counted`, async () => {
    const items = Array.from({ length: 100_000 }, (_, i) => `<item><link>/p/${i}</link></item>`);
    const body = bytes(rss(items));
    expect(body.byteLength).toBeLessThan(5 * 1024 * 1024);
    const started = performance.now();
    const feed = readable(await parseFeed(body, FEED_URL));
    const elapsed = performance.now() - started;
    console.log(`100,000-entry feed (${body.byteLength} bytes) parsed in ${Math.round(elapsed)} ms`);
    expect(feed.entries).toHaveLength(DEFAULT_MAX_ENTRIES);
    expect(feed.entries.at(-1)?.url).toBe(`https://acme.test/p/${DEFAULT_MAX_ENTRIES - 1}`);
    expect(feed).toMatchObject({ total: 100_000, dropped: 0, truncated: true });
  });
  it('reads only the entries that fit in MAX_PARSED_ELEMENTS: 5 MiB of empty elements is not parsed whole', async () => {
    const heavy = `<item><link>https://acme.test/heavy</link>${'<x/>'.repeat(MAX_PARSED_ELEMENTS)}</item>`;
    const light = ['<item><link>https://acme.test/a</link></item>', '<item><link>https://acme.test/b</link></item>'];
    const body = rss([...light, heavy, ...Array.from({ length: 200_000 }, () => '<x/>')]);
    const started = performance.now();
    const feed = readable(await parseFeed(body, FEED_URL));
    console.log(`a feed of ${MAX_PARSED_ELEMENTS + 200_000} elements (${body.length} bytes) read in ${Math.round(performance.now() - started)} ms`);
    expect(feed.entries.map((entry) => entry.url)).toEqual(['https://acme.test/a', 'https://acme.test/b']);
    expect(feed).toMatchObject({ total: 3, truncated: true });
  });

  it('refuses a feed with more than MAX_PARSED_ELEMENTS elements before its first entry', async () => {
    const body = rss([`${'<x/>'.repeat(MAX_PARSED_ELEMENTS + 1)}<item><link>https://acme.test/a</link></item>`]);
    expect(await parseFeed(body, FEED_URL)).toEqual({ kind: 'unreadable', reason: `more than ${MAX_PARSED_ELEMENTS} elements before its first entry` });
  });
});

describe('parseFeed: what is not a readable feed', () => {
  it('an empty body, or only whitespace', async () => {
    expect(await parseFeed('', FEED_URL)).toEqual({ kind: 'unreadable', reason: 'empty' });
    expect(await parseFeed(bytes(' \n\t'), FEED_URL)).toEqual({ kind: 'unreadable', reason: 'empty' });
  });

  it('a feed with no entries is a feed with none', async () => {
    expect(await parseFeed(rss([]), FEED_URL)).toEqual({ kind: 'rss', title: 'T', entries: [], total: 0, dropped: 0, truncated: false });
    expect(await parseFeed('<feed xmlns="http://www.w3.org/2005/Atom"></feed>', FEED_URL)).toEqual({
      kind: 'atom',
      entries: [],
      total: 0,
      dropped: 0,
      truncated: false,
    });
  });

  it('an HTML page served as a feed', async () => {
    for (const html of ['<!DOCTYPE html><html><head><title>Blog</title></head><body>Hi</body></html>', '<html><body><p>Not found</p></body></html>']) {
      expect(await parseFeed(html, FEED_URL)).toEqual({ kind: 'unreadable', reason: 'an HTML page, not a feed' });
    }
  });

  it('malformed XML', async () => {
    const parsed = await parseFeed('<rss><channel><item><title>x</item></channel></rss>', FEED_URL);
    expect(parsed).toMatchObject({ kind: 'unreadable', reason: expect.stringContaining('malformed XML') });
  });

  it('text that is neither XML nor JSON', async () => {
    expect(await parseFeed('Service unavailable', FEED_URL)).toEqual({ kind: 'unreadable', reason: 'neither XML nor JSON' });
  });

  it('an XML document that is no feed', async () => {
    const urlset = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://acme.test/</loc></url></urlset>';
    expect(await parseFeed(urlset, FEED_URL)).toEqual({ kind: 'unreadable', reason: 'root element <urlset> is not <rss>, <rdf:RDF> or <feed>' });
  });

  it('an entity bomb (billion laughs) in a DOCTYPE, refused before parsing', async () => {
    const lol = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE rss [',
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
      ']>',
      '<rss><channel><item><title>&lol9;</title><link>https://acme.test/</link></item></channel></rss>',
    ].join('\n');
    expect(await parseFeed(lol, FEED_URL)).toEqual({ kind: 'unreadable', reason: 'a DOCTYPE or entity declaration (not allowed in a feed)' });
  });

  it('a DOCTYPE after the root element, which the XML validator lets through', async () => {
    const late = '<rss><!DOCTYPE x [<!ENTITY a "aaaa">]><channel><item><title>&a;</title><link>https://acme.test/</link></item></channel></rss>';
    expect(await parseFeed(late, FEED_URL)).toEqual({ kind: 'unreadable', reason: 'a DOCTYPE or entity declaration (not allowed in a feed)' });
  });

  it('but a DOCTYPE quoted inside CDATA or a comment is content, not a declaration', async () => {
    const quoted = rss(['<!-- <!DOCTYPE x> --><item><title>x</title><link>https://acme.test/a</link><description><![CDATA[<!DOCTYPE html><p>Quoted page</p>]]></description></item>']);
    expect(readable(await parseFeed(quoted, FEED_URL)).entries[0]?.text).toBe('Quoted page');
  });

  it('an entry whose HTML the extractor refuses keeps its title and URL with no text', async () => {
    const scripts = '<script></script>'.repeat(20_001);
    const feed = readable(await parseFeed(rss([`<item><title>Heavy</title><link>https://acme.test/h</link><description><![CDATA[${scripts}]]></description></item>`]), FEED_URL));
    expect(feed.entries[0]).toEqual({ title: 'Heavy', url: 'https://acme.test/h', text: '' });
  });
});

describe('calendarDate', () => {
  it('reads RFC 822 dates as written, with or without weekday, seconds and zone', () => {
    expect(calendarDate('Mon, 02 Mar 2026 10:00:00 GMT')).toBe('2026-03-02');
    expect(calendarDate('2 Mar 2026 23:59 -0800')).toBe('2026-03-02');
    expect(calendarDate('Tue, 3 Mar 26 08:00 +0100')).toBe('2026-03-03');
    expect(calendarDate('Sat, 1 January 1999 00:00:00 GMT')).toBe('1999-01-01');
  });

  it('reads ISO 8601 dates and date-times', () => {
    expect(calendarDate('2026-03-02')).toBe('2026-03-02');
    expect(calendarDate(' 2026-03-02T10:00:00.000+02:00 ')).toBe('2026-03-02');
  });

  it('ignores what is not a real calendar date', () => {
    for (const value of ['', 'yesterday', '2026-02-30', '2026-13-01', '31 Feb 2026 10:00 GMT', '02 Foo 2026', '1899-12-31', '1700000000', '2026/03/02']) {
      expect(calendarDate(value), value).toBeUndefined();
    }
  });
});

describe('looksLikeFeed', () => {
  it('tells a feed by its root element, whatever the type says', () => {
    expect(looksLikeFeed('text/xml', bytes('<?xml version="1.0"?>\n<?xml-stylesheet href="x.xsl"?><!-- hi --><rss version="2.0">'))).toBe(true);
    expect(looksLikeFeed('text/html; charset=utf-8', bytes('\uFEFF<feed xmlns="http://www.w3.org/2005/Atom">'))).toBe(true);
    expect(looksLikeFeed('application/xml', bytes('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'))).toBe(true);
    expect(looksLikeFeed('application/json', bytes('{"version": "https://jsonfeed.org/version/1.1", "title": "x"'))).toBe(true);
  });

  it('tells a page or another XML document from a feed', () => {
    expect(looksLikeFeed('text/html', bytes('<!doctype html><html lang="en">'))).toBe(false);
    expect(looksLikeFeed('application/xml', bytes('<?xml version="1.0"?><urlset>'))).toBe(false);
    expect(looksLikeFeed('application/json', bytes('{"jobs": []}'))).toBe(false);
    expect(looksLikeFeed('text/plain', bytes('rss feed'))).toBe(false);
  });

  it('trusts a feed-only type unless the bytes are plainly HTML', () => {
    expect(looksLikeFeed('application/rss+xml', bytes(''))).toBe(true);
    expect(looksLikeFeed('Application/Atom+XML; charset=utf-8', bytes('<?xml version="1.0"?>'))).toBe(true);
    expect(looksLikeFeed('application/rss+xml', bytes('<!DOCTYPE html><html>'))).toBe(false);
  });
});

describe('FEED_PATHS and FEED_CONTENT_TYPES', () => {
  it('lists distinct absolute paths, the common ones first', () => {
    expect(new Set(FEED_PATHS).size).toBe(FEED_PATHS.length);
    for (const path of FEED_PATHS) expect(path).toMatch(/^\/[a-z0-9/._-]+$/);
    expect(FEED_PATHS.slice(0, 5)).toEqual(['/feed', '/rss.xml', '/feed.xml', '/atom.xml', '/index.xml']);
  });

  it('holds the feed media types in lower case', () => {
    for (const type of ['application/rss+xml', 'application/atom+xml', 'application/rdf+xml', 'application/xml', 'text/xml', 'application/feed+json']) {
      expect(FEED_CONTENT_TYPES.has(type)).toBe(true);
    }
    expect(FEED_CONTENT_TYPES.has('text/html')).toBe(false);
  });
});

describe('htmlToText and cutText', () => {
  it('reads an HTML fragment as paragraphs', async () => {
    expect(await htmlToText('<p>One</p><p>Two &amp; three</p>', 100)).toBe('One\n\nTwo & three');
  });

  it('cuts at a paragraph, then a word, never splitting a surrogate pair', () => {
    expect(cutText('one two three', 9)).toBe('one two');
    expect(cutText('first paragraph\n\nsecond one', 25)).toBe('first paragraph');
    expect(cutText('a\ud83d\ude00', 2)).toBe('a');
    expect(cutText('short', 10)).toBe('short');
  });
});
