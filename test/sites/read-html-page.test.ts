import { describe, expect, it } from 'vitest';
import { readPageText } from '../../src/oms/fetch-source.ts';
import { MAX_DROPPED_ELEMENTS, PageUnreadable } from '../../src/oms/html-text.ts';
import { extractLinks } from '../../src/sites/links.ts';
import { readHtmlPage } from '../../src/sites/read-html-page.ts';

const encoder = new TextEncoder();
const UTF8 = 'text/html; charset=utf-8';

/** What settle() got before readHtmlPage: extractLinks, then readPageText (its error caught), each on its own. */
async function twoReads(body: Uint8Array, contentType: string, url: string, options = {}) {
  const links = await extractLinks(new Response(body, { headers: { 'content-type': contentType } }), url, options);
  let text;
  try {
    text = await readPageText(body, contentType, url);
  } catch (thrown) {
    text = { thrown };
  }
  return { links, text };
}

/** Bytes of `parts`: strings as UTF-8, numbers as single bytes (for other charsets and broken UTF-8). */
function bytesOf(...parts: Array<string | number[]>): Uint8Array {
  return new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...encoder.encode(part)] : part)));
}

const PAGE = `<!doctype html><html><head><title>Acme &amp; Co</title>
  <meta property="og:site_name" content="Acme"><link rel="canonical" href="/product">
  <link rel="alternate" type="application/rss+xml" href="feed.xml"><base href="https://acme.test/en/">
  <script>document.write('<a href="/in-script">x</a>')</script>
  <script type="application/ld+json">{"@type":"Organization","name":"Acme","foundingDate":"2014"}</script></head>
<body>
  <nav><a href="/pricing">Pricing</a><ul><li><a href="about">About</a></li></ul><meta name="robots" content="nofollow"></nav>
  <div hidden><a href="/modal">Modal</a><div><a href="/modal/deep">Deep</a></div></div>
  <div aria-hidden="true"><a href="/aria">Aria</a></div>
  <a hidden href="/hidden-link">Hidden link</a>
  <noscript><a href="/noscript">No script</a></noscript>
  <template><a href="/template">Template</a><link rel="canonical" href="/template-canonical"></template>
  <svg><a href="/svg">Svg</a><title>Icon</title></svg>
  <button><a href="/in-button">Button</a></button><select><option><a href="/in-select">Select</a></select>
  <textarea><a href="/in-textarea"></textarea><iframe><a href="/in-iframe"></iframe>
  <div role="tablist"><button role="tab" aria-controls="annual">Annual</button></div>
  <div id="annual" hidden><a href="/annual">Annual plan</a><p>1450 USD per month</p></div>
  <main><h1>Fleet</h1><p>Fleet ships trucks. <a href="/fleet">Fleet</a> <a href="/fleet">again</a> <a href="http://[::1">broken</a></p></main>
  <footer><a href="mailto:hi@acme.test">Mail</a></footer>
</body></html>`;

describe('readHtmlPage', () => {
  it('gives in one parse the links extractLinks gives and the text readPageText gives, links inside left-out elements included', async () => {
    const body = encoder.encode(PAGE);
    const read = await readHtmlPage(body, UTF8, 'https://acme.test/product?x=1');
    expect(read).toEqual(await twoReads(body, UTF8, 'https://acme.test/product?x=1'));
    // Read inside nav, hidden and aria-hidden elements, template, svg, button, select, a hidden tab panel;
    // not inside script, noscript, textarea or iframe (their content is not markup).
    expect(read.links.links).toEqual(
      ['/pricing', 'about', '/modal', '/modal/deep', '/aria', '/hidden-link', '/template', '/svg', '/in-button', '/in-select', '/annual', '/fleet'].map((path) => new URL(path, 'https://acme.test/en/').href).concat('mailto:hi@acme.test'),
    );
    expect(read.links).toMatchObject({
      canonical: 'https://acme.test/product',
      feeds: ['https://acme.test/en/feed.xml'],
      robots: { noindex: false, nofollow: true },
      siteName: 'Acme',
      base: 'https://acme.test/en/',
      bytesRead: body.byteLength,
      truncatedBytes: false,
      droppedLinks: 1,
    });
    expect(read.text).toMatchObject({ ok: true, title: 'Acme & Co' });
    const content = 'ok' in read.text && read.text.ok ? read.text.content : '';
    expect(content).toContain('Fleet ships trucks.');
    expect(content).toContain('Annual\n\nAnnual plan');
    expect(content).not.toContain('Pricing');
    expect(content).not.toContain('Modal');
  });

  it('reads non-ASCII hrefs alike in UTF-8 (broken bytes too) and in windows-1252, declared by the Content-Type or a <meta charset>', async () => {
    const url = 'https://example.com/';
    const cases: Array<[string, Uint8Array, string[]]> = [
      [UTF8, bytesOf('<a href="/über?q=日本">x</a><a href="/bad', [0xff, 0xc3], '">y</a><p>Grüße</p>'), ['https://example.com/%C3%BCber?q=%E6%97%A5%E6%9C%AC', 'https://example.com/bad%EF%BF%BD%EF%BF%BD']],
      ['text/html; charset=windows-1252', bytesOf('<a href="/caf', [0xe9], '?price=', [0x80], '5">x</a><p>Caf', [0xe9], '</p>'), ['https://example.com/caf%C3%A9?price=%E2%82%AC5']],
      ['text/html; charset=ISO-8859-1', bytesOf('<a href="/caf', [0xe9], '">x</a><p>Caf', [0xe9], '</p>'), ['https://example.com/caf%C3%A9']],
      ['text/html', bytesOf('<head><meta charset="windows-1252"></head><a href="/na', [0xef], 've">x</a><p>Na', [0xef], 've</p>'), ['https://example.com/na%C3%AFve']],
      ['text/html', bytesOf([0xff, 0xfe], ...[...'<a href="/é">x</a><p>é</p>'].map((c) => [c.charCodeAt(0), 0])), ['https://example.com/%C3%A9']],
    ];
    for (const [contentType, body, links] of cases) {
      const read = await readHtmlPage(body, contentType, url);
      expect(read, contentType).toEqual(await twoReads(body, contentType, url));
      expect(read.links.links, contentType).toEqual(links);
      expect(read.text, contentType).toMatchObject({ ok: true });
    }
  });

  it('keeps the text error readPageText throws, with the links extractLinks finds, when the page has too much markup', async () => {
    const body = encoder.encode(`<a href="/first">a</a>${'<script></script>'.repeat(MAX_DROPPED_ELEMENTS + 1)}<a href="/last">z</a>`);
    const read = await readHtmlPage(body, UTF8, 'https://example.com/');
    expect(read).toEqual(await twoReads(body, UTF8, 'https://example.com/'));
    expect('thrown' in read.text && read.text.thrown).toBeInstanceOf(PageUnreadable);
    expect(read.links.links).toEqual(['https://example.com/first', 'https://example.com/last']);
    expect(read.links.parseError).toBeUndefined();
  });

  it('keeps the links found before markup the parser gives up on, with its message, and the text error', async () => {
    const body = encoder.encode(`<a href="/ok">ok</a>${'<div>'.repeat(400_000)}<a href="/after">after</a>`);
    const read = await readHtmlPage(body, UTF8, 'https://example.com/');
    expect(read).toEqual(await twoReads(body, UTF8, 'https://example.com/'));
    expect(read.links.links).toEqual(['https://example.com/ok']);
    expect(read.links.parseError).toMatch(/memory limit/);
    expect('thrown' in read.text && read.text.thrown).toBeInstanceOf(PageUnreadable);
  });

  it('reads the links of only the first maxBytes of a longer body, as extractLinks does, and the text of all of it', async () => {
    const body = encoder.encode(Array.from({ length: 20 }, (_, i) => `<p><a href="/p${i}">Page ${i}</a></p>`.padEnd(100, ' ')).join(''));
    const read = await readHtmlPage(body, UTF8, 'https://example.com/', { maxBytes: 1_000, maxLinks: 5 });
    expect(read).toEqual(await twoReads(body, UTF8, 'https://example.com/', { maxBytes: 1_000, maxLinks: 5 }));
    expect(read.links).toMatchObject({ bytesRead: 1_000, truncatedBytes: true, droppedLinks: 5 });
    expect(read.links.links).toHaveLength(5);
    expect(read.text).toMatchObject({ ok: true, bytes: body.byteLength });
    expect('ok' in read.text && read.text.ok && read.text.content).toContain('Page 19');
  });

  it('reads plain text as readPageText does, with no links (it is not HTML)', async () => {
    const body = encoder.encode('Release notes\r\n<a href="/not-a-link">x</a>\r\n');
    const read = await readHtmlPage(body, 'text/plain; charset=utf-8', 'https://example.com/notes.txt');
    expect(read.text).toEqual(await readPageText(body, 'text/plain; charset=utf-8', 'https://example.com/notes.txt'));
    expect(read.links).toEqual({
      links: [],
      feeds: [],
      robots: { noindex: false, nofollow: false },
      base: 'https://example.com/notes.txt',
      bytesRead: 0,
      truncatedBytes: false,
      droppedLinks: 0,
    });
  });

  it('answers a page with no readable text with its links, and refuses bad bounds as extractLinks does', async () => {
    const body = encoder.encode('<nav><a href="/home">Home</a></nav><script>app()</script>');
    const read = await readHtmlPage(body, UTF8, 'https://example.com/app');
    expect(read).toEqual(await twoReads(body, UTF8, 'https://example.com/app'));
    expect(read.text).toMatchObject({ ok: false });
    expect(read.links.links).toEqual(['https://example.com/home']);
    await expect(readHtmlPage(body, UTF8, 'https://example.com/', { maxLinks: 0 })).rejects.toThrow(RangeError);
    await expect(readHtmlPage(body, UTF8, 'https://example.com/', { maxBytes: 1.5 })).rejects.toThrow(RangeError);
  });
});
