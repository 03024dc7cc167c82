import { describe, expect, it } from 'vitest';
import { rewriteWith, type RewriterRegistry } from '../../src/ground/reused-rewriter.ts';

/** The text of every `p` and the href of every `a` of `html`, by a parse registered afresh, as each caller registers. */
async function readPage(html: string, options: { throwOn?: string } = {}): Promise<{ texts: string[]; hrefs: string[]; output: string }> {
  const texts: string[] = [];
  const hrefs: string[] = [];
  const register = (registry: RewriterRegistry) =>
    registry
      .on('p', {
        text(chunk) {
          if (chunk.text) texts.push(chunk.text);
        },
      })
      .on('a[href]', {
        element(element) {
          const href = element.getAttribute('href')!;
          if (href === options.throwOn) throw new Error(`refused ${href}`);
          hrefs.push(href);
        },
      })
      .on('script', {
        element(element) {
          element.remove();
        },
      });
  const output = await rewriteWith(register, new Response(html), (response) => response.text());
  return { texts, hrefs, output };
}

describe('rewriteWith', () => {
  it("calls each parse's own handlers, one parse after another", async () => {
    expect(await readPage('<p>one</p><a href="/a">a</a><script>x()</script>')).toEqual({ texts: ['one'], hrefs: ['/a'], output: '<p>one</p><a href="/a">a</a>' });
    expect(await readPage('<p>two</p><a href="/b">b</a>')).toEqual({ texts: ['two'], hrefs: ['/b'], output: '<p>two</p><a href="/b">b</a>' });
  });

  it('keeps parses at once apart', async () => {
    const pages = Array.from({ length: 12 }, (_, i) => `<p>page ${i}</p>${'<a href="/x">x</a>'.repeat(i)}<a href="/p${i}">p</a>`);
    const read = await Promise.all(pages.map((html) => readPage(html)));
    read.forEach((page, i) => {
      expect(page.texts).toEqual([`page ${i}`]);
      expect(page.hrefs).toEqual([...Array(i).fill('/x'), `/p${i}`]);
    });
  });

  it('lets a handler that throws fail its parse only; the next parse of the same registrations is whole', async () => {
    await expect(readPage('<a href="/bad">b</a><p>after</p>', { throwOn: '/bad' })).rejects.toThrow(/refused \/bad/);
    expect(await readPage('<a href="/good">g</a><p>after</p>', { throwOn: '/bad' })).toMatchObject({ texts: ['after'], hrefs: ['/good'] });
  });

  it('never gives one list of registrations the rewriter of another', async () => {
    const seen: string[] = [];
    await rewriteWith((registry) => registry.on('b', { element: () => void seen.push('b') }), new Response('<b>1</b><i>2</i>'), (r) => r.text());
    await rewriteWith((registry) => registry.on('i', { element: () => void seen.push('i') }), new Response('<b>1</b><i>2</i>'), (r) => r.text());
    expect(seen).toEqual(['b', 'i']);
  });
});
