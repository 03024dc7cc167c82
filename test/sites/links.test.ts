import { describe, expect, it } from 'vitest';
import { extractLinks, isHtmlResponse, MAX_FEEDS } from '../../src/sites/links.ts';

const html = (body: string | ReadableStream<Uint8Array>) => new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } });

/** A body streamed in chunks, made on demand, counting how many bytes were pulled from it. */
function streamed(chunks: number, chunk: (i: number) => string, pulled: { bytes: number }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= chunks) {
        controller.close();
        return;
      }
      const bytes = encoder.encode(chunk(i));
      i += 1;
      pulled.bytes += bytes.byteLength;
      controller.enqueue(bytes);
    },
  });
}

describe('extractLinks', () => {
  it('collects <a href> resolved against the page, and the canonical URL', async () => {
    const page = `<!doctype html><html><head>
      <link rel="stylesheet" href="/site.css">
      <link rel="Canonical" href="/pricing">
      <link rel="canonical" href="/second-canonical-ignored">
    </head><body>
      <a href="/about">About</a> <a href="plans?x=1#y">Plans</a> <a href="https://other.test/">Off</a>
      <a href="/about">About again</a> <a>no href</a> <a href="  /careers  ">Jobs</a>
      <a href="mailto:sales@example.com">Mail</a> <a href="http://[::1">broken</a>
    </body></html>`;
    const result = await extractLinks(html(page), 'https://example.com/en/pricing-page');
    expect(result.links).toEqual([
      'https://example.com/about',
      'https://example.com/en/plans?x=1#y',
      'https://other.test/',
      'https://example.com/careers',
      'mailto:sales@example.com',
    ]);
    expect(result.canonical).toBe('https://example.com/pricing');
    expect(result.base).toBe('https://example.com/en/pricing-page');
    expect(result.droppedLinks).toBe(1);
    expect(result.truncatedBytes).toBe(false);
    expect(result.bytesRead).toBe(new TextEncoder().encode(page).byteLength);
    expect(result.parseError).toBeUndefined();
  });

  it('resolves every link against the first <base href>, even links written before it', async () => {
    const page = `<a href="early">Early</a><head><base href="https://www.example.com/docs/"><base href="/ignored/"></head>
      <a href="guide">Guide</a><a href="../pricing">Pricing</a><link rel="canonical" href="index">`;
    const result = await extractLinks(html(page), 'https://example.com/somewhere/else');
    expect(result.base).toBe('https://www.example.com/docs/');
    expect(result.links).toEqual(['https://www.example.com/docs/early', 'https://www.example.com/docs/guide', 'https://www.example.com/pricing']);
    expect(result.canonical).toBe('https://www.example.com/docs/index');
  });

  it('takes a relative <base href> against the page, and ignores a broken one', async () => {
    expect((await extractLinks(html('<base href="/v2/"><a href="x">x</a>'), 'https://example.com/a/b')).links).toEqual(['https://example.com/v2/x']);
    expect((await extractLinks(html('<base href="http://[::1"><a href="x">x</a>'), 'https://example.com/a/b')).links).toEqual(['https://example.com/a/x']);
  });

  it('survives broken markup', async () => {
    const page = `<html><body><a href="/one">one<div><a href='/two'<a href=/three>three</a><p><<<>>></a href="/four">
      <a href="/five" <!-- unclosed comment <a href="/hidden"> --> <a href="/six"> <script><a href="/in-script"></script><a href="/seven"`;
    const result = await extractLinks(html(page), 'https://example.com/');
    expect(result.links).toContain('https://example.com/one');
    expect(result.links).toContain('https://example.com/six');
    expect(result.links).not.toContain('https://example.com/in-script');
    expect(result.links).not.toContain('https://example.com/hidden');
    expect(result.parseError).toBeUndefined();
  });

  it('drops huge attribute values without keeping them', async () => {
    const huge = 'a'.repeat(1_000_000);
    const result = await extractLinks(html(`<a href="/ok">ok</a><a href="/${huge}">huge</a><a title="${huge}" href="/after">after</a><link rel="canonical" href="/${huge}">`), 'https://example.com/');
    expect(result.links).toEqual(['https://example.com/ok', 'https://example.com/after']);
    expect(result.canonical).toBeUndefined();
    expect(result.droppedLinks).toBe(1);
    expect(result.parseError).toBeUndefined();
  });

  it('reports a parser that gives up (400,000 unclosed elements, past its memory limit) and keeps the links found before, instead of throwing', async () => {
    const page = `<a href="/ok">ok</a>${'<div>'.repeat(400_000)}<a href="/after">after</a>`;
    const result = await extractLinks(html(page), 'https://example.com/', { maxBytes: 16 * 1024 * 1024 });
    expect(result.parseError).toMatch(/memory limit/);
    expect(result.links).toEqual(['https://example.com/ok']);
  });

  it('reads a tag of megabytes whole: the body is handed to the parser at once, not in 4 KiB chunks it must buffer a tag across', async () => {
    const page = `<a href="/ok">ok</a><a data-x="${'b'.repeat(8_000_000)}" href="/after">after</a>`;
    const result = await extractLinks(html(page), 'https://example.com/', { maxBytes: 16 * 1024 * 1024 });
    expect(result.parseError).toBeUndefined();
    expect(result.links).toEqual(['https://example.com/ok', 'https://example.com/after']);
  });

  it('keeps at most maxLinks of 100,000 links and counts the rest', async () => {
    const pulled = { bytes: 0 };
    const body = streamed(1_000, (c) => Array.from({ length: 100 }, (_, i) => `<a href="/p/${c * 100 + i}">x</a>`).join(''), pulled);
    // About 2.3 MB: past the default byte bound, so that bound is raised here to test the link bound alone.
    const result = await extractLinks(html(body), 'https://example.com/', { maxBytes: 8 * 1024 * 1024 });
    expect(result.bytesRead).toBe(pulled.bytes);
    expect(result.links).toHaveLength(1_000);
    expect(result.links[0]).toBe('https://example.com/p/0');
    expect(result.links[999]).toBe('https://example.com/p/999');
    expect(result.droppedLinks).toBe(99_000);
    expect(result.truncatedBytes).toBe(false);

    const few = await extractLinks(html('<a href="/a">a</a><a href="/b">b</a><a href="/c">c</a>'), 'https://example.com/', { maxLinks: 2 });
    expect(few.links).toEqual(['https://example.com/a', 'https://example.com/b']);
    expect(few.droppedLinks).toBe(1);
  });

  it('reads at most maxBytes of the body and leaves the rest unread', async () => {
    const pulled = { bytes: 0 };
    // 100 MB of links, offered 10 kB at a time.
    const body = streamed(10_000, (c) => `<a href="/c${c}">x</a>`.padEnd(10_000, ' '), pulled);
    const result = await extractLinks(html(body), 'https://example.com/', { maxBytes: 50_000 });
    expect(result.bytesRead).toBe(50_000);
    expect(result.truncatedBytes).toBe(true);
    expect(result.links).toEqual(['https://example.com/c0', 'https://example.com/c1', 'https://example.com/c2', 'https://example.com/c3', 'https://example.com/c4']);
    expect(pulled.bytes).toBeLessThan(200_000);
  });

  it('lists the feeds a page names, resolved against the base, without repeats', async () => {
    const page = `<head><base href="https://example.com/blog/">
      <link rel="alternate" type="application/rss+xml" title="RSS" href="feed.xml">
      <link rel="Alternate" type="Application/Atom+XML; charset=utf-8" href="/atom">
      <link rel="alternate" type="application/feed+json" href="https://cdn.example.net/feed.json">
      <link rel="alternate" type="application/rss+xml" href="./feed.xml">
      <link rel="alternate" hreflang="de" href="/de/">
      <link rel="alternate" type="application/json" href="/wp-json/wp/v2/pages/12">
      <link rel="stylesheet" type="application/rss+xml" href="/not-alternate.xml">
      <link rel="alternate" type="application/rss+xml">
      <link rel="alternate" type="application/rss+xml" href="http://[::1">
      <link rel="canonical" href="/blog/"></head><a href="/post">Post</a>`;
    const result = await extractLinks(html(page), 'https://example.com/blog/post');
    expect(result.feeds).toEqual(['https://example.com/blog/feed.xml', 'https://example.com/atom', 'https://cdn.example.net/feed.json']);
    expect(result.canonical).toBe('https://example.com/blog/');
    expect(result.links).toEqual(['https://example.com/post']);
  });

  it('keeps at most 10 feeds of a page that names thousands, and drops a huge feed href unread', async () => {
    const feeds = Array.from({ length: 5_000 }, (_, i) => `<link rel="alternate" type="application/rss+xml" href="/feed/${i}.xml">`).join('');
    const huge = `<link rel="alternate" type="application/rss+xml" href="/${'f'.repeat(1_000_000)}">`;
    const result = await extractLinks(html(`${huge}${feeds}`), 'https://example.com/');
    expect(result.feeds).toEqual(Array.from({ length: MAX_FEEDS }, (_, i) => `https://example.com/feed/${i}.xml`));
    expect(result.droppedLinks).toBe(1);
  });

  it('reads what the robots meta tags forbid, merged, wherever they stand (in the body too)', async () => {
    const head = await extractLinks(html('<head><meta name="robots" content="nofollow"><meta name="ReconBot" content="noindex"></head>'), 'https://example.com/');
    expect(head.robots).toEqual({ noindex: true, nofollow: true });
    const body = await extractLinks(html('<body><p>Text</p><meta name="robots" content="NOINDEX"><a href="/x">x</a></body>'), 'https://example.com/');
    expect(body.robots).toEqual({ noindex: true, nofollow: false });
    expect(body.links).toEqual(['https://example.com/x']);
  });

  it('ignores robots meta tags of other crawlers, and the ones that restrict nothing', async () => {
    const page = '<meta name="googlebot" content="noindex, nofollow"><meta name="robots" content="index, follow"><meta property="robots" content="none"><meta name="robots">';
    expect((await extractLinks(html(page), 'https://example.com/')).robots).toEqual({ noindex: false, nofollow: false });
  });

  it('reads a robots meta tag with megabytes of content in bounded time, and still reads the site name', async () => {
    // About 1 MB each, within the parser's memory limit for one tag.
    const page = `<meta name="robots" content="${'index, '.repeat(150_000)}noindex"><meta name="robots" content="nofollow${' x'.repeat(500_000)}"><meta property="og:site_name" content="Globex">`;
    const result = await extractLinks(html(page), 'https://example.com/', { maxBytes: 4 * 1024 * 1024 });
    expect(result.parseError).toBeUndefined();
    expect(result.robots).toEqual({ noindex: false, nofollow: true });
    expect(result.siteName).toBe('Globex');
    expect(result.parseError).toBeUndefined();
  });

  it('answers an empty body with no links, and refuses bad bounds', async () => {
    const result = await extractLinks(new Response(null), 'https://example.com/');
    expect(result).toEqual({
      links: [],
      feeds: [],
      robots: { noindex: false, nofollow: false },
      base: 'https://example.com/',
      bytesRead: 0,
      truncatedBytes: false,
      droppedLinks: 0,
    });
    await expect(extractLinks(html(''), 'https://example.com/', { maxLinks: 0 })).rejects.toThrow(RangeError);
    await expect(extractLinks(html(''), 'https://example.com/', { maxBytes: 1.5 })).rejects.toThrow(RangeError);
  });
});

describe('isHtmlResponse', () => {
  it('knows an HTML page by its content type', () => {
    const typed = (type: string) => new Response('', { headers: { 'content-type': type } });
    expect(isHtmlResponse(typed('text/html; charset=utf-8'))).toBe(true);
    expect(isHtmlResponse(typed('Application/XHTML+XML'))).toBe(true);
    expect(isHtmlResponse(typed('application/pdf'))).toBe(false);
    expect(isHtmlResponse(typed('text/plain'))).toBe(false);
    expect(isHtmlResponse(new Response(new Uint8Array([1]), { headers: {} }))).toBe(false);
  });
});
