import { describe, expect, it } from 'vitest';
import { MAX_RESULT_TOKENS, tokensOf } from '../../src/mcp/tools/text-bound.ts';
import type { ResearchOutput } from '../../src/operations/commands/command-outputs.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

/**
 * Long answers through the SDK client: no tool result carries more than MAX_RESULT_TOKENS of text
 * (clients cut larger ones); a long page is answered with fewer objects and a next-page token that
 * goes on from there, an object too long alone has its longest strings shortened, marked, and a long
 * brief keeps its first whole lines; each says so in a note that points to the whole.
 */
type Content = { type: string; text?: string; uri?: string }[];

const textOf = (content: Content) => content.filter((c) => c.type === 'text').map((c) => c.text!);
const tokensIn = (content: Content) => textOf(content).reduce((sum, text) => sum + tokensOf(text), 0);

/** About `chars` characters of plain sentences about `about`. */
function prose(about: string, chars: number): string {
  const sentence = `${about} publishes its price list every quarter and answers support tickets within a day. `;
  return sentence.repeat(Math.ceil(chars / sentence.length)).slice(0, chars).trimEnd();
}

async function importLines(key: string, lines: unknown[]): Promise<void> {
  const response = await call('/api/v1/oms/objects/import', {
    key,
    rawBody: lines.map((line) => JSON.stringify(line)).join('\n'),
    headers: { 'Content-Type': 'application/x-ndjson' },
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

describe('long tool results', () => {
  it('oms-search: a page too long is answered with fewer objects, and its token goes on to every other', async () => {
    const org = await createOrganization();
    const urls = Array.from({ length: 5 }, (_, i) => `https://longpages.example/page-${i}`);
    // Each source about 20,000 tokens: one fits in a result, two do not.
    await importLines(org.key, urls.map((url, i) => ({ type: 'source', key: url, properties: { title: `Long page ${i}`, content: prose(`Vendor ${i}`, 60_000) } })));
    const client = await connectMcpClient(org.key);
    try {
      const seen: string[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        pages++;
        const args = { type: 'source', filters: [{ property: 'title', op: 'contains', value: 'Long page' }], pageSize: 5, ...(pageToken ? { pageToken } : {}) };
        const result = await client.callTool({ name: 'oms-search', arguments: args });
        expect(result.isError).toBeFalsy();
        const content = result.content as Content;
        expect(tokensIn(content)).toBeLessThanOrEqual(MAX_RESULT_TOKENS);
        const page = result.structuredContent as { objects: { key: string; properties: { content: string } }[]; nextPageToken: string | null };
        // The text is the JSON of the page, whole: nothing in it is cut.
        expect(JSON.parse(textOf(content)[0]!)).toEqual(page);
        for (const object of page.objects) expect(object.properties.content).toBe(prose(`Vendor ${urls.indexOf(object.key)}`, 60_000));
        if (page.nextPageToken) expect(textOf(content)[1]).toContain(`holds ${page.objects.length} items rather than up to 5 (pageSize)`);
        seen.push(...page.objects.map((object) => object.key));
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
      expect(seen).toEqual(urls);
      expect(pages).toBe(5);
    } finally {
      await client.close();
    }
  });

  it('oms-get: an object too long alone has its longest string shortened, marked, and the note names it and REST', async () => {
    const org = await createOrganization();
    const url = 'https://longpages.example/whole-book';
    const content = prose('Acme Analytics', 190_000);
    await importLines(org.key, [{ type: 'source', key: url, properties: { title: 'A whole book', content } }]);
    const client = await connectMcpClient(org.key);
    try {
      const result = await client.callTool({ name: 'oms-get', arguments: { type: 'source', key: url } });
      const text = result.content as Content;
      expect(tokensIn(text)).toBeLessThanOrEqual(MAX_RESULT_TOKENS);
      const object = result.structuredContent as { key: string; properties: { title: string; content: string } };
      expect(textOf(text)[0]).toBe(JSON.stringify(object));
      expect(object.key).toBe(url);
      expect(object.properties.title).toBe('A whole book');
      const [kept, marker] = object.properties.content.split('… [cut: ');
      expect(kept!.length).toBeGreaterThan(50_000);
      expect(content.startsWith(kept!)).toBe(true);
      expect(marker).toBe(`${(content.length - kept!.length).toLocaleString('en-US')} more characters]`);
      expect(textOf(text)[1]).toContain('properties.content (190,000 characters)');
      expect(textOf(text)[1]).toContain('The whole answer: POST /api/v1/oms/objects/get with the same arguments');
      // REST still answers the whole object.
      const rest = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'source', key: url } });
      expect(((await rest.json()) as { properties: { content: string } }).properties.content).toBe(content);
    } finally {
      await client.close();
    }
  });

  it('research: a brief too long keeps its first whole lines, its claims whole as data, and links the whole brief', async () => {
    const org = await createOrganization();
    // Sentences of CJK text run at about a token a character: each finding here is about 6,000 tokens.
    const sentence = (i: number) => `Acme Analytics pricing report number ${i} says ${'価格表'.repeat(2_000)} in full.`;
    await importLines(
      org.key,
      Array.from({ length: 6 }, (_, i) => ({
        type: 'source',
        key: `https://cjk.example/report-${i}`,
        properties: { title: `Report ${i}`, content: `${sentence(i)} Other text follows here for the reader.` },
      })),
    );
    const args = { topic: 'Acme Analytics pricing', tier: 'base' };
    const markdown = await (await call('/api/v1/commands/research', { key: org.key, body: args })).text();
    expect(tokensOf(markdown)).toBeGreaterThan(MAX_RESULT_TOKENS);
    const client = await connectMcpClient(org.key);
    try {
      const result = await client.callTool({ name: 'research', arguments: args });
      const content = result.content as Content;
      expect(tokensIn(content)).toBeLessThanOrEqual(MAX_RESULT_TOKENS);
      const [text, note] = textOf(content);
      // The first lines of the REST markdown, byte for byte, cut only between lines.
      expect(markdown.startsWith(`${text}\n`)).toBe(true);
      expect(text).toContain('**Answer:**');
      const data = result.structuredContent as ResearchOutput;
      expect(data.claims.length).toBeGreaterThan(4);
      for (const claim of data.claims) expect(claim.text).toMatch(/^Acme Analytics pricing report number \d says (価格表){2000} in full\.$/);
      expect(note).toContain(`The whole answer: the resource recon://briefs/${data.brief} (resources/read, with the oms:read scope)`);
      expect(note).toContain('The structured content is whole.');
      expect(content.at(-1)).toMatchObject({ type: 'resource_link', uri: `recon://briefs/${data.brief}` });
      const whole = await client.readResource({ uri: `recon://briefs/${data.brief}` });
      expect(whole.contents[0]).toMatchObject({ text: markdown });
    } finally {
      await client.close();
    }
  });
});
