import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { COMPETITORS, importLines, omsRead } from './read-helpers.ts';

async function demo() {
  const org = await createOrganization();
  await importMarket(org.key);
  await importLines(org.key, COMPETITORS);
  return org;
}

describe('OMS reads on the demo data', () => {
  it('metadata lists every type with its key, described properties and links both ways', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/oms/metadata', { key: org.key });
    expect(response.status).toBe(200);
    const metadata = await response.json<any>();
    expect(metadata.version).toBe(1);
    expect(metadata.objectTypes.map((t: any) => t.type)).toEqual(['company', 'person', 'source', 'brief']);
    const company = metadata.objectTypes[0];
    expect(company).toMatchObject({ displayName: 'Company', key: expect.stringContaining('domain') });
    expect(company.properties.map((p: any) => p.name)).toEqual(['name', 'domain', 'description']);
    expect(company.properties[0]).toEqual({ name: 'name', type: 'string', description: expect.any(String), orderable: true });
    expect(company.properties.filter((p: any) => p.orderable).map((p: any) => p.name)).toEqual(['name', 'domain']);
    expect(company.links).toEqual([
      { name: 'competitors', targetType: 'company', cardinality: 'many' },
      { name: 'people', targetType: 'person', cardinality: 'many' },
      { name: 'competitorOf', targetType: 'company', cardinality: 'many' },
      { name: 'briefs', targetType: 'brief', cardinality: 'many' },
    ]);
    const source = metadata.objectTypes[2];
    expect(source.properties.map((p: any) => [p.name, p.type])).toEqual([
      ['title', 'string'], ['url', 'url'], ['domain', 'domain'], ['publishedAt', 'date'], ['content', 'text'],
    ]);
    expect(source.properties.filter((p: any) => p.orderable).map((p: any) => p.name)).toEqual(['domain', 'publishedAt']);
    expect(source.links.map((l: any) => l.name)).toEqual(['citedBy']);
  });

  it('searches companies by text, filter and order', async () => {
    const org = await demo();
    const all = await omsRead(org.key, 'search', { type: 'company' });
    expect(all.status).toBe(200);
    expect(all.json.objects.map((o: any) => o.key)).toEqual(['acme.com', 'globex.com', 'initech.com']);
    expect(all.json.nextPageToken).toBeNull();
    expect(all.json.objects[0]).toEqual({
      type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics' }, createdAt: expect.any(String), updatedAt: expect.any(String), version: 1,
    });
    const analytics = await omsRead(org.key, 'search', { type: 'company', query: 'ANALYTICS' });
    expect(analytics.json.objects.map((o: any) => o.key)).toEqual(['acme.com', 'initech.com']);
    const both = await omsRead(org.key, 'search', { type: 'company', query: 'analytics banks' });
    expect(both.json.objects.map((o: any) => o.key)).toEqual(['initech.com']);
    const filtered = await omsRead(org.key, 'search', {
      type: 'company',
      filters: [{ property: 'name', op: 'in', value: ['Globex', 'Initech'] }],
      orderBy: { property: 'name', direction: 'desc' },
    });
    expect(filtered.json.objects.map((o: any) => o.key)).toEqual(['initech.com', 'globex.com']);
    const neq = await omsRead(org.key, 'search', { type: 'company', filters: [{ property: 'name', op: 'neq', value: 'Globex' }] });
    expect(neq.json.objects.map((o: any) => o.key)).toEqual(['acme.com', 'initech.com']);
  });

  it('searches sources through the passage index (stems) and dates', async () => {
    const org = await demo();
    const priced = await omsRead(org.key, 'search', { type: 'source', query: 'price seat' });
    expect(priced.json.objects.map((o: any) => o.key)).toEqual(['https://acme.com/pricing', 'https://globex.com/blog/launch']);
    const recent = await omsRead(org.key, 'search', {
      type: 'source',
      filters: [{ property: 'publishedAt', op: 'gte', value: '2026-05-01' }],
      orderBy: { property: 'publishedAt', direction: 'desc' },
    });
    expect(recent.json.objects.map((o: any) => o.properties.publishedAt)).toEqual(['2026-06-10', '2026-05-20']);
  });

  it('pivots from Acme Analytics to its competitors and back, and gets by a key written as a URL', async () => {
    const org = await demo();
    const rivals = await omsRead(org.key, 'pivot', { type: 'company', key: 'https://www.ACME.com/', link: 'competitors' });
    expect(rivals.status).toBe(200);
    expect(rivals.json.objects.map((o: any) => [o.key, o.properties.name])).toEqual([['globex.com', 'Globex'], ['initech.com', 'Initech']]);
    const back = await omsRead(org.key, 'pivot', { type: 'company', key: 'globex.com', link: 'competitorOf' });
    expect(back.json).toEqual({ objects: [expect.objectContaining({ key: 'acme.com', properties: { name: 'Acme Analytics' } })], nextPageToken: null });
    const got = await omsRead(org.key, 'get', { type: 'company', key: 'www.acme.com' });
    expect(got).toEqual({ status: 200, json: back.json.objects[0] });
  });

  it('gives provenance after import: each property with its import, links both ways, history', async () => {
    const org = await demo();
    await importLines(org.key, [{ type: 'company', key: 'globex.com', properties: { name: 'Globex Corp' } }]);
    const { status, json } = await omsRead(org.key, 'provenance', { type: 'company', key: 'globex.com' });
    expect(status).toBe(200);
    expect(json.properties).toEqual([{ name: 'name', value: 'Globex Corp', source: { kind: 'import', id: expect.any(String) }, updatedAt: expect.any(String) }]);
    expect(json.relationships).toEqual([
      { link: 'competitorOf', targetType: 'company', targetKey: 'acme.com', source: { kind: 'import', id: expect.any(String) }, createdAt: expect.any(String) },
    ]);
    expect(json.history.map((h: any) => [h.property, h.from, h.to, h.source.kind])).toEqual([
      ['name', 'Globex', 'Globex Corp', 'import'],
      ['name', null, 'Globex', 'import'],
    ]);
  });

  it('reads back a brief written by research, its provenance and the sources it cites', async () => {
    const org = await demo();
    const research = await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics pricing' } });
    expect(research.status).toBe(200);
    const briefs = await omsRead(org.key, 'pivot', { type: 'company', key: 'acme.com', link: 'briefs' });
    expect(briefs.json.objects).toHaveLength(1);
    const brief = briefs.json.objects[0];
    expect(brief.properties).toMatchObject({ topic: 'Acme Analytics pricing', markdown: await research.text() });
    const { json } = await omsRead(org.key, 'provenance', { type: 'brief', key: brief.key });
    expect(json.properties.map((p: any) => p.name)).toEqual(expect.arrayContaining(['topic', 'markdown', 'createdAt']));
    expect(json.properties.every((p: any) => p.source.kind === 'research' && p.source.id === brief.key)).toBe(true);
    const links = json.relationships.map((r: any) => `${r.link} ${r.targetType} ${r.targetKey} ${r.source.kind}`);
    expect(links).toContain('about company acme.com research');
    expect(links).toContain('cites source https://acme.com/pricing research');
    const cited = await omsRead(org.key, 'pivot', { type: 'source', key: 'https://acme.com/pricing', link: 'citedBy' });
    expect(cited.json.objects.map((o: any) => o.key)).toEqual([brief.key]);
  });
});
