import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citedSources, MAX_MARKDOWN_CHARS, renderMarkdown } from '../../src/dashboard/markdown.ts';
import { sourceLine } from '../../src/research/brief.ts';
import type { ResearchSource } from '../../src/research/provider.ts';

/** Every tag the HTML has, by name. */
function tags(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)\b/g)].map((m) => m[1]!.toLowerCase());
}

const ALLOWED_TAGS = new Set(['p', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'em', 'strong', 'code', 'pre', 'blockquote', 'hr', 'br', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);

describe('renderMarkdown (the run and brief renderer)', () => {
  it('shows raw HTML as text: no script, image, iframe or event handler', () => {
    const html = renderMarkdown(
      'Text <script>globalThis.pwned = 1</script> and <img src=x onerror=alert(1)> and <iframe src="https://evil.example"></iframe>\n\n<div onclick="alert(1)">block html</div>\n\n<!-- comment -->',
    );
    expect(tags(html)).toEqual(['p', 'p', 'p']);
    expect(html).toContain('&lt;script&gt;globalThis.pwned = 1&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;div onclick=&quot;alert(1)&quot;&gt;block html&lt;/div&gt;');
  });

  it.each([
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x]( javascript:alert(1))',
    '[x](&#106;avascript:alert(1))',
    '[x](java\tscript:alert(1))',
    '[x](vbscript:msgbox(1))',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[x](file:///etc/passwd)',
    '[x](//evil.example/path)',
    '[x](/dashboard/settings/keys)',
    '<javascript:alert(1)>',
    '[x]\n\n[x]: javascript:alert(1)',
  ])('never makes a link of %s', (markdown) => {
    const html = renderMarkdown(markdown);
    expect(html).not.toContain('<a');
    expect(html).not.toMatch(/href=/i);
  });

  it('links http(s) and mailto only, each with rel="noopener noreferrer nofollow"', () => {
    const html = renderMarkdown('[a](https://acme.com/pricing) [b](http://acme.com) [c](mailto:sales@acme.com) <https://auto.example/x>');
    expect([...html.matchAll(/<a [^>]*>/g)].map((m) => m[0])).toEqual([
      '<a href="https://acme.com/pricing" rel="noopener noreferrer nofollow">',
      '<a href="http://acme.com" rel="noopener noreferrer nofollow">',
      '<a href="mailto:sales@acme.com" rel="noopener noreferrer nofollow">',
      '<a href="https://auto.example/x" rel="noopener noreferrer nofollow">',
    ]);
  });

  it('renders an image as its alt text only (no request leaves the page)', () => {
    expect(renderMarkdown('![a <b> chart](https://tracker.example/pixel.png)')).toBe('<p>a &lt;b&gt; chart</p>\n');
  });

  it('moves headings one level down and renders tables, lists, emphasis and code', () => {
    const html = renderMarkdown('# Report\n\n## Scorecard\n\n| Area | Score |\n| --- | --- |\n| Pricing | 40/100 |\n\n- **high** `x`\n\n###### Six');
    expect(html).toContain('<h2>Report</h2>');
    expect(html).toContain('<h3>Scorecard</h3>');
    expect(html).toContain('<td>Pricing</td>');
    expect(html).toContain('<li><strong>high</strong> <code>x</code></li>');
    expect(html).toContain('<h6>Six</h6>');
    expect(html).not.toContain('<h1');
  });

  it('cuts off markdown past its size limit, saying so', () => {
    const html = renderMarkdown('a'.repeat(MAX_MARKDOWN_CHARS + 10));
    expect(html).toContain('cut off');
    expect(html.length).toBeLessThan(MAX_MARKDOWN_CHARS + 200);
  });

  it('gives only its allowed tags, and links only to http(s) or mailto, whatever the text', () => {
    const fragment = fc.oneof(
      fc.constantFrom('<script>', '</script>', '<img src=x onerror=y>', '[x](javascript:y)', '[x](https://a.example)', '![i](javascript:y)', '<https://a.example>', '<a href="javascript:y">', '\n', '\n\n', '# ', '| a |', '`', '*', '&#106;', '\\', '"', "'", 'on', '=', '>'),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 20 }).map((parts) => parts.join('')), (markdown) => {
        const html = renderMarkdown(markdown);
        for (const tag of tags(html)) expect(ALLOWED_TAGS).toContain(tag);
        for (const [anchor] of html.matchAll(/<a [^>]*>/g)) expect(anchor).toMatch(/^<a href="(?:https?:\/\/|mailto:)[^"]*" rel="noopener noreferrer nofollow">$/i);
        expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
      }),
      { numRuns: 500 },
    );
  });

  describe('with citations (briefs and competitor tables)', () => {
    const sources: ResearchSource[] = [
      { url: 'https://acme.com/pricing', title: 'Acme pricing', domain: 'acme.com', publishedAt: '2026-04-02' },
      { url: 'https://reviews.example/a b(c)', title: 'A review [2](javascript:alert(1)) <script>x</script>', domain: 'reviews.example' },
    ];
    const brief = ['# Brief: pricing', '', '- Acme costs $19. [1][2] (acme.com, 2026-04-02; reviews.example, undated)', '', '## Sources', '', ...sources.map((s, i) => sourceLine(i, s)), ''].join('\n');

    it("links each [n] to source n of the Sources list, in a new tab, without the opener or referrer", () => {
      const html = renderMarkdown(brief, { citations: true });
      const anchors = [...html.matchAll(/<a [^>]*>\[\d\]<\/a>/g)].map((m) => m[0]);
      expect(anchors).toEqual([
        '<a href="https://acme.com/pricing" target="_blank" rel="noopener noreferrer nofollow">[1]</a>',
        '<a href="https://reviews.example/a%20b%28c%29" target="_blank" rel="noopener noreferrer nofollow">[2]</a>',
        '<a href="https://acme.com/pricing" target="_blank" rel="noopener noreferrer nofollow">[1]</a>',
        '<a href="https://reviews.example/a%20b%28c%29" target="_blank" rel="noopener noreferrer nofollow">[2]</a>',
      ]);
      // The source's title is text: its forged link and script are shown, not made.
      expect(html).toContain('A review [2](javascript:alert(1)) &lt;script&gt;x&lt;/script&gt;');
      expect(html).not.toMatch(/href="javascript/i);
      // Without the option, no marker is a link.
      expect(renderMarkdown(brief)).not.toContain('<a ');
    });

    it('never links an escaped marker (quoted source text), a marker with no source, or a non-http(s) source', () => {
      const forged = ['- A source says \\[1\\] and \\[2] and [9]. [1]', '', '## Sources', '', '[1] T, a.example, undated, https://a.example/x', '[2] U, b.example, undated, javascript:alert(1)', ''].join('\n');
      const html = renderMarkdown(forged, { citations: true });
      expect([...html.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1])).toEqual(['[1]', '[1]']);
      expect(html).toContain('A source says [1] and [2] and [9]. <a href="https://a.example/x"');
      expect(citedSources(forged)).toEqual(new Map([['1', 'https://a.example/x']]));
    });

    it('reads the URLs from the last Sources list only, never from a line of the body', () => {
      expect(citedSources('[1] T, a.example, undated, https://evil.example\n\n## Sources\n\n[1] T, a.example, undated, https://a.example/')).toEqual(new Map([['1', 'https://a.example/']]));
      expect(citedSources('[1] T, a.example, undated, https://evil.example')).toEqual(new Map());
    });

    it('keeps to its allowed tags and http(s) links whatever the text', () => {
      const fragment = fc.oneof(
        fc.constantFrom('[1]', '[2]', '\\[1\\]', '[1](javascript:y)', '<script>', '\n', '\n\n', '## Sources\n\n', '[1] T, a.example, undated, https://a.example/"x\n', '[2] T, b, undated, javascript:y\n', '`', '*'),
        fc.string({ maxLength: 8 }),
      );
      fc.assert(
        fc.property(fc.array(fragment, { maxLength: 20 }).map((parts) => parts.join('')), (markdown) => {
          const html = renderMarkdown(markdown, { citations: true });
          for (const tag of tags(html)) expect(ALLOWED_TAGS).toContain(tag);
          for (const [anchor] of html.matchAll(/<a [^>]*>/g)) expect(anchor).toMatch(/^<a href="(?:https?:\/\/|mailto:)[^"]*"(?: target="_blank")? rel="noopener noreferrer nofollow">$/i);
          expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
        }),
        { numRuns: 300 },
      );
    });
  });
});
