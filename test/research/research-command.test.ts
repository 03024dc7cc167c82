import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket, MARKET_LINES } from '../helpers/market.ts';
import { briefClaims, briefSources } from './brief-claims.ts';

const SOURCES = MARKET_LINES.filter((line) => line.type === 'source');

async function orgWithSources() {
  const org = await createOrganization();
  await importMarket(org.key);
  return org;
}

describe('research', () => {
  it('returns a cited brief whose findings are sentences of the sources they cite', async () => {
    const org = await orgWithSources();
    const response = await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics pricing' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/markdown/);
    const markdown = await response.text();
    expect(markdown).toMatch(/^# Research brief: Acme Analytics pricing\n\n_\d{4}-\d\d-\d\d · tier lite · \d sources · embedded engine_/);
    expect(markdown).toMatch(/\n\n\*\*Answer:\*\* ".+" (\[\d+\])+ \(.+\)\n\n## Summary\n\n/);
    expect(markdown).toContain('## Key findings');
    expect(markdown).toMatch(/^\[\d\] Acme Analytics pricing, acme\.com, 2026-04-02, https:\/\/acme\.com\/pricing$/m);
    // Every quoted sentence (the answer, each finding) is in every source it cites.
    const claims = briefClaims(markdown);
    expect(claims.length).toBeGreaterThanOrEqual(3);
    const sourceUrls = briefSources(markdown).map((s) => s.url);
    for (const { sentence, cites } of claims) {
      for (const n of cites) {
        const content = SOURCES.find((s) => s.key === sourceUrls[n - 1])!.properties.content!;
        expect(content).toContain(sentence);
      }
    }
    // The answer to a pricing topic holds a price.
    expect(claims[0]!.sentence).toMatch(/\$\d/);
  });

  it('relates findings to the sales profile where they overlap', async () => {
    const org = await orgWithSources();
    const markdown = await (await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics reviews', tier: 'base' } })).text();
    expect(markdown).toContain('## How this relates to your sales profile');
    // One line per tag, naming the findings that mention it.
    expect(markdown).toMatch(/^- \*\*SaaS\*\* \(an industry you sell to\): (the answer|finding \d+)(, finding \d+)*\.$/m);
  });

  it('honours the source policy', async () => {
    const org = await orgWithSources();
    const markdown = await (
      await call('/api/v1/commands/research', { key: org.key, body: { topic: 'pricing', sourcePolicy: { exclude: ['acme.com'] } } })
    ).text();
    expect(markdown).not.toContain('https://acme.com/pricing');
    expect(markdown).toContain('(sources: not acme.com)');
  });

  it('says honestly when nothing matches', async () => {
    const org = await orgWithSources();
    const markdown = await (await call('/api/v1/commands/research', { key: org.key, body: { topic: 'quantum chromodynamics' } })).text();
    expect(markdown).toContain('Nothing in your knowledge base matches "quantum chromodynamics"');
    expect(markdown).toContain('POST /api/v1/oms/objects/import');
    expect(markdown).not.toContain('## Key findings');
  });

  it('stores the brief linked to the sources it cites and the company it is about', async () => {
    const org = await orgWithSources();
    const markdown = await (await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics pricing' } })).text();
    const brief = await env.DB.prepare("SELECT key, properties FROM objects WHERE organization_id = ? AND type = 'brief'").bind(org.id).first<{ key: string; properties: string }>();
    expect(JSON.parse(brief!.properties)).toMatchObject({ topic: 'Acme Analytics pricing', markdown, tier: 'lite', engine: 'embedded' });
    const links = await env.DB.prepare('SELECT link, to_key FROM links WHERE organization_id = ? AND from_key = ? ORDER BY link, to_key').bind(org.id, brief!.key).all<{ link: string; to_key: string }>();
    expect(links.results).toContainEqual({ link: 'about', to_key: 'acme.com' });
    const cited = links.results.filter((l) => l.link === 'cites').map((l) => l.to_key);
    expect(cited.length).toBe([...markdown.matchAll(/^\[\d+\] /gm)].length);
  });

  it("never reads another organization's sources", async () => {
    await orgWithSources();
    const empty = await createOrganization();
    const markdown = await (await call('/api/v1/commands/research', { key: empty.key, body: { topic: 'Acme Analytics pricing' } })).text();
    expect(markdown).toContain('Nothing in your knowledge base matches');
  });
});
