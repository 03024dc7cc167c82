import { describe, expect, it } from 'vitest';
import type { CompetitorsOutput, ResearchOutput } from '../../src/operations/commands/command-outputs.ts';
import { escapeInline } from '../../src/research/markdown-escape.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket, MARKET_LINES } from '../helpers/market.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

/**
 * research and competitors over MCP: the markdown REST answers, byte for byte, as text, and the
 * same brief's claims as structuredContent, made by the same core call (not parsed back out of the
 * markdown). help answers the catalog as data.
 */
type Content = { type: string; text?: string; uri?: string }[];

const contentOf = new Map(
  MARKET_LINES.filter((line) => line.type === 'source').map((line) => [line.key, String((line.properties as { content: string }).content)]),
);

describe('claims as structured content', () => {
  it('research: the REST markdown as text, and each claim with its sources as data, the stored brief linked', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const args = { topic: 'Acme Analytics pricing', tier: 'base' };
    const rest = await call('/api/v1/commands/research', { key: org.key, body: args });
    expect(rest.status).toBe(200);
    const markdown = await rest.text();
    const client = await connectMcpClient(org.key);
    try {
      const result = await client.callTool({ name: 'research', arguments: args });
      const content = result.content as Content;
      expect(content[0]).toEqual({ type: 'text', text: markdown });
      const data = result.structuredContent as ResearchOutput;
      expect(data).toMatchObject({ topic: args.topic, tier: 'base', engine: 'embedded' });
      expect(data.claims.length).toBeGreaterThan(1);
      expect(data.claims[0]!.answer).toBe(true);
      expect(data.claims.slice(1).every((claim) => !claim.answer)).toBe(true);
      expect(markdown).toContain(`**Answer:** "${escapeInline(data.claims[0]!.text)}"`);
      for (const claim of data.claims) {
        expect(markdown).toContain(escapeInline(claim.text));
        for (const source of claim.sources) {
          // The claim is its own quote: verbatim in every source it cites, each listed in the brief.
          expect(contentOf.get(source.url), source.url).toContain(claim.text);
          expect(markdown).toContain(`${escapeInline(source.title)}, ${source.domain}, ${source.publishedAt ?? 'undated'}, ${source.url}`);
        }
      }
      // The brief the call stored: its markdown is the text, linked as a resource.
      expect(content.at(-1)).toMatchObject({ type: 'resource_link', uri: `recon://briefs/${data.brief}` });
      const brief = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'brief', key: data.brief } });
      expect(((await brief.json()) as { properties: { markdown: string } }).properties.markdown).toBe(markdown);
    } finally {
      await client.close();
    }
  });

  it('competitors: the REST markdown as text, and the ranked competitors with every quoted claim as data', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const args = { company: 'acme.com' };
    const markdown = await (await call('/api/v1/commands/competitors', { key: org.key, body: args })).text();
    const client = await connectMcpClient(org.key);
    try {
      const result = await client.callTool({ name: 'competitors', arguments: args });
      expect(result.content).toEqual([{ type: 'text', text: markdown }]);
      const data = result.structuredContent as CompetitorsOutput;
      expect(data.company.key).toBe('acme.com');
      expect(data.competitors.map((c) => c.key)).toContain('globex.com');
      data.competitors.forEach((competitor, i) => {
        expect(competitor.rank).toBe(i + 1);
        expect(markdown).toContain(`| ${competitor.rank} | ${competitor.name ?? competitor.key} | ${competitor.key} | ${competitor.evidence}`);
      });
      expect(data.claims.length).toBeGreaterThan(0);
      for (const claim of data.claims) {
        const source = claim.sources[0]!;
        expect(contentOf.get(source.url), source.url).toContain(claim.quote ?? claim.text);
        if (claim.quote) expect(claim.quote).toContain(claim.text);
        expect(markdown).toContain(source.url);
      }
    } finally {
      await client.close();
    }
  });

  it('help: the catalog REST answers as text, and its commands as data', async () => {
    const org = await createOrganization();
    const catalog = await (await call('/api/v1/commands', { key: org.key })).text();
    const client = await connectMcpClient(org.key);
    try {
      const result = await client.callTool({ name: 'help', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: catalog }]);
      const { commands } = result.structuredContent as { commands: { name: string; mode: string; requiresOnboarding: boolean }[] };
      expect(commands.map((c) => [c.name, c.mode, c.requiresOnboarding])).toEqual([
        ['research', 'sync', true],
        ['competitors', 'sync', true],
        ['gtm-audit', 'async', true],
        ['audit', 'async', true],
        ['help', 'sync', false],
      ]);
    } finally {
      await client.close();
    }
  });
});
