import { describe, expect, it } from 'vitest';
import { decodeEntities, extractPageText, MAX_DROPPED_ELEMENTS, PageUnreadable } from '../../src/oms/html-text.ts';
import { splitSentences } from '../../src/research/text.ts';

describe('readable text of an HTML page (HTMLRewriter)', () => {
  it('keeps headings, paragraphs, list items and table rows as separate lines, and drops navigation, scripts and styles', async () => {
    const page = await extractPageText(`<!doctype html><html><head><title>Globex pricing</title>
      <style>body { color: red }</style><script>var secret = "do not import";</script></head>
      <body><nav><a href="/">Home</a><a href="/about">About us</a></nav>
      <h1>Pricing</h1><p>Globex costs <b>$45</b> per seat
        per month.</p><p>Enterprise starts at $60,000 a year.</p>
      <ul><li>Unlimited dashboards.</li><li>SSO included.</li></ul>
      <table><tr><th>Plan</th><th>Price</th></tr><tr><td>Team</td><td>$45</td></tr></table>
      <div>Questions?<br>Call sales.</div></body></html>`);
    expect(page).toEqual({
      title: 'Globex pricing',
      text: [
        'Pricing',
        'Globex costs $45 per seat per month.',
        'Enterprise starts at $60,000 a year.',
        'Unlimited dashboards.',
        'SSO included.',
        'Plan Price',
        'Team $45',
        'Questions?',
        'Call sales.',
      ].join('\n\n'),
    });
    // The research engine splits sentences at those blank lines: a heading never runs into its paragraph.
    expect(splitSentences(page.text)).toContain('Globex costs $45 per seat per month.');
    expect(splitSentences(page.text)[0]).toBe('Pricing');
  });

  it('drops script, style, noscript, template, svg, iframe, button and hidden content, however it is nested', async () => {
    const page = await extractPageText(`<title>T</title><body>
      <script>document.write("<p>injected</p>")</script>
      <noscript><p>noscript</p></noscript><template><p>template</p></template>
      <svg><title>svg title</title><text>svg text</text><g><text>deeper</text></g></svg>
      <math><mi>x</mi></math><iframe>frame</iframe><button>Buy</button><select><option>Option</option></select>
      <div hidden><p>hidden <span>nested</span></p></div><span aria-hidden="true">icon</span>
      <nav><nav>inner nav</nav> outer nav</nav>
      <!-- <p>comment</p> -->
      <p>Kept.</p></body>`);
    expect(page).toEqual({ title: 'T', text: 'Kept.' });
  });

  it('decodes character references and collapses whitespace, in the text and the title', async () => {
    const page = await extractPageText(
      '<title>Fish &amp; Chips &#8211; menu</title><p>Caf&eacute;&nbsp;cr&egrave;me:&#x20AC;4 &lt;b&gt; &copy;&#160;2026&hellip;</p><p>\u200bZero\u00adwidth\u0007 &unknown; &amp</p>',
    );
    expect(page).toEqual({ title: 'Fish & Chips – menu', text: 'Café crème:€4 <b> © 2026…\n\nZerowidth &unknown; &amp' });
  });

  it('takes og:title, then the first h1, when there is no title element', async () => {
    expect(await extractPageText('<meta property="og:title" content="Open &amp; Graph"><h1>Heading</h1><p>Body.</p>')).toMatchObject({ title: 'Open & Graph' });
    expect(await extractPageText('<h1>The <em>first</em> heading</h1><h1>Second</h1><p>Body.</p>')).toMatchObject({ title: 'The first heading' });
    expect(await extractPageText('<p>No title at all.</p>')).toEqual({ text: 'No title at all.' });
  });

  it('reads the publication date from meta tags holding a real ISO 8601 date', async () => {
    expect(await extractPageText('<meta property="article:published_time" content="2026-05-01T10:00:00Z"><p>x</p>')).toMatchObject({ publishedAt: '2026-05-01' });
    expect(await extractPageText('<meta itemprop="datePublished" content="2025-12-31"><p>x</p>')).toMatchObject({ publishedAt: '2025-12-31' });
    for (const content of ['May 1, 2026', '2026-02-30', '2026-13-01', 'yesterday', '']) {
      expect(await extractPageText(`<meta name="date" content="${content}"><p>x</p>`), content).toEqual({ text: 'x' });
    }
  });

  it('costs one pass over the string however many ordinary tags a page has, and refuses a page of more than 20,000 elements to drop', async () => {
    const tags = await extractPageText(`<title>Tags</title>${'<div><span>a</span><b>b</b></div>'.repeat(60_000)}`);
    expect(tags.text.split('\n\n')).toHaveLength(60_000);
    expect(new Set(tags.text.split('\n\n'))).toEqual(new Set(['ab']));
    const scripts = `<p>Text.</p>${'<script></script>'.repeat(MAX_DROPPED_ELEMENTS)}`;
    expect(await extractPageText(scripts)).toEqual({ text: 'Text.' });
    await expect(extractPageText(`${scripts}<style></style>`)).rejects.toThrow(PageUnreadable);
    await expect(extractPageText(`${scripts}<style></style>`)).rejects.toThrow('the page has too much markup to read (over 20,000 scripts, styles and other elements to leave out)');
  });

  it('reads hostile markup in one linear pass (a rescan per tag would take minutes here), and reports what the parser gives up on', async () => {
    for (const html of ['<h1 a="'.repeat(250_000), '<a "'.repeat(500_001), "<a '".repeat(500_001), '<a b="c" d'.repeat(200_000), '<!--'.repeat(400_000)]) {
      expect(await extractPageText(html), html.slice(0, 20)).toEqual({ text: '' });
    }
    await expect(extractPageText('<h1>'.repeat(400_000))).rejects.toThrow(
      new PageUnreadable('the page could not be read as HTML (Parser error: The memory limit has been exceeded.)'),
    );
  });

  it('reads markup that a tag-stripping regex would get wrong the way a browser does', async () => {
    const page = await extractPageText(
      '<p title="a > b" data-x=\'<p>\'>Quoted &gt; attributes.</p><p>1 < 2 and 3 <4.</p><!-- <p>comment</p> --><textarea><p>typed</p></textarea><p>Last.</p>',
    );
    expect(page).toEqual({ text: 'Quoted > attributes.\n\n1 < 2 and 3 <4.\n\nLast.' });
  });

  it('gives no text for a page of scripts and navigation only', async () => {
    expect(await extractPageText('<html><head><title>Empty</title></head><body><script>app()</script><nav>Menu</nav></body></html>')).toEqual({ title: 'Empty', text: '' });
  });
});

describe('decodeEntities', () => {
  it('decodes decimal, hex and named references, maps 0x80-0x9F as browsers do, and replaces invalid code points', () => {
    expect(decodeEntities('&#65;&#x42;&#X43;&#68 &amp;&quot;&apos;&rsquo;')).toBe('ABCD &"\'’');
    expect(decodeEntities('&#128;&#x99;&#150;')).toBe('€™–');
    expect(decodeEntities('&#0;&#xD800;&#x110000;')).toBe('\ufffd\ufffd\ufffd');
    expect(decodeEntities('&#x1F600;')).toBe('😀');
    expect(decodeEntities('AT&T &nosuch; & &amp')).toBe('AT&T &nosuch; & &amp');
  });
});
