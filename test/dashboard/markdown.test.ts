import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MARKDOWN_CHARS, renderMarkdown } from '../../src/dashboard/markdown.ts';

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
});
