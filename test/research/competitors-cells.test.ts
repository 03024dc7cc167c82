import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { plainText } from '../helpers/markdown-text.ts';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';

/** Sources by URL, from NDJSON lines: what a quoted cell must be verbatim in. */
function contents(ndjson: string): Map<string, string> {
  return new Map(
    ndjson
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type?: string; key?: string; properties?: { content?: string } })
      .filter((line) => line.type === 'source')
      .map((line) => [line.key!, line.properties!.content!]),
  );
}

async function importNdjson(key: string, body: string) {
  const response = await call('/api/v1/oms/objects/import', { key, method: 'POST', rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
  expect(await response.json()).toMatchObject({ failed: 0 });
}

/** The table's rows (the analysed company first) as cells, split on unescaped pipes. */
function table(markdown: string) {
  const urls = new Map([...markdown.matchAll(/^\[(\d+)\] .*, (https?:\/\/\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const rows = markdown
    .split('\n')
    .filter((line) => /^\| (?:\d+|—) \|/.test(line))
    .map((line) => line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim()));
  return { urls, rows };
}

/** A quoted cell: its fragment as a reader sees it, and the URL it cites; undefined for "not found". */
function quoted(cell: string, urls: Map<string, string>) {
  if (cell === 'not found') return undefined;
  const match = /^"(.+)"…? \[(\d+)\]$/.exec(cell);
  expect(match, cell).not.toBeNull();
  return { fragment: plainText(match![1]!.replace(/\\\|/g, '|')), url: urls.get(match![2]!)! };
}

describe('competitors compare', () => {
  it('shows price, strength and weakness cells on the demo market, each a verbatim fragment of its cited source', async () => {
    const org = await createOrganization();
    await importNdjson(org.key, env.TEST_KNOWLEDGE_BASE);
    const content = contents(env.TEST_KNOWLEDGE_BASE);
    const markdown = await (await call('/api/v1/commands/competitors', { key: org.key, body: {} })).text();
    expect(markdown).toContain('| Rank | Competitor | Domain | Evidence | Price | Strength | Weakness | Strongest evidence |');
    expect(markdown).toMatch(/^_Evidence counts the sentences in your sources that name Acme Analytics and the competitor together with a comparison cue/m);
    const { urls, rows } = table(markdown);
    expect(rows[0]!.slice(0, 3)).toEqual(['—', 'Acme Analytics (analysed)', 'acme.com']);
    expect(rows[1]!.slice(0, 3)).toEqual(['1', 'Globex', 'globex.com']);
    let quotes = 0;
    for (const row of rows) {
      expect(row).toHaveLength(8);
      for (const [column, cell] of [[4, row[4]!], [5, row[5]!], [6, row[6]!]] as const) {
        const quote = quoted(cell, urls);
        if (!quote) continue;
        quotes++;
        expect(content.get(quote.url), quote.url).toContain(quote.fragment);
        // The fragment is about the company of its row: it names it first.
        expect(quote.fragment.toLowerCase()).toContain(row[1]!.replace(' (analysed)', '').split(' ')[0]!.toLowerCase());
        if (column === 4) expect(quote.fragment).toMatch(/[$€£]\s?\d|free/i);
      }
    }
    expect(quotes).toBeGreaterThanOrEqual(3 * 6);
    const globex = rows[1]!;
    expect(quoted(globex[4]!, urls)!.fragment).toContain('$49 per seat per month');
    expect(quoted(globex[6]!, urls)!.fragment).toMatch(/limitation|caution/);
  });

  it('says "not found" where no source states a price, strength or weakness, and keeps hostile text inert in its cell', async () => {
    const org = await createOrganization({ profile: { ...FINISHED_PROFILE, competitors: ['quiet.example'] } });
    const hostile = 'Evil | Corp pricing costs $5 per seat per month <script>x</script> [1](javascript:x)\n# Owned by nobody.';
    const lines = [
      { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics' } },
      { type: 'company', key: 'evil.example', properties: { name: 'Evil | Corp' } },
      { type: 'company', key: 'quiet.example', properties: { name: 'Quietco' } },
      {
        type: 'source',
        key: 'https://reviews.example/evil',
        properties: { title: 'Evil vs Acme Analytics', publishedAt: '2026-05-01', content: `Evil | Corp is an alternative to Acme Analytics for small teams. ${hostile}` },
      },
    ];
    const body = lines.map((line) => JSON.stringify(line)).join('\n');
    await importNdjson(org.key, body);
    const markdown = await (await call('/api/v1/commands/competitors', { key: org.key, body: {} })).text();
    const { urls, rows } = table(markdown);
    const evil = rows.find((row) => row[2] === 'evil.example')!;
    const quiet = rows.find((row) => row[2] === 'quiet.example')!;
    expect(quiet.slice(4, 7)).toEqual(['not found', 'not found', 'not found']);
    expect(evil).toHaveLength(8);
    expect(evil[4]).toBe('"Evil \\| Corp pricing costs $5 per seat per month &lt;script>x&lt;/script> \\[1\\](javascript:x) # Owned by nobody." [1]');
    expect(contents(body).get(quoted(evil[4]!, urls)!.url)).toContain(quoted(evil[4]!, urls)!.fragment.replace(' # ', '\n# '));
    expect(markdown).not.toMatch(/<[A-Za-z/!?]/);
    expect(markdown.match(/^#+ .*$/gm)).toEqual(['# Competitors of Acme Analytics', '## Sources']);
  });
});
