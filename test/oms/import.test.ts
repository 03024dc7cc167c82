import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';

function ndjson(...lines: unknown[]): string {
  return lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');
}

function importBody(key: string, body: string, contentType = 'application/x-ndjson') {
  return call('/api/v1/oms/objects/import', { key, method: 'POST', rawBody: body, headers: { 'Content-Type': contentType } });
}

const PRICING = {
  type: 'source',
  key: 'https://www.Acme.com/pricing#plans',
  properties: { title: 'Acme pricing', publishedAt: '2026-05-01', content: 'The Team plan costs $49 per seat per month. The Scale plan adds SSO and audit logs for larger teams.' },
};

describe('POST /api/v1/oms/objects/import', () => {
  it('upserts objects and links, normalizing keys and deriving a source domain', async () => {
    const org = await createOrganization();
    const response = await importBody(
      org.key,
      ndjson(
        { type: 'company', key: 'WWW.Acme.com', properties: { name: 'Acme' } },
        { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
        PRICING,
        { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'company', key: 'globex.com' } },
      ),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ imported: 4, updated: 0, unchanged: 0, failed: 0, errors: [], superseded: 0, supersededLines: [] });

    const row = await env.DB.prepare("SELECT properties, version FROM objects WHERE organization_id = ? AND type = 'source'")
      .bind(org.id)
      .first<{ properties: string; version: number }>();
    expect(JSON.parse(row!.properties)).toMatchObject({ url: 'https://www.acme.com/pricing', domain: 'acme.com', title: 'Acme pricing' });
    const companies = await env.DB.prepare("SELECT key FROM objects WHERE organization_id = ? AND type = 'company' ORDER BY key").bind(org.id).all();
    expect(companies.results.map((r) => r.key)).toEqual(['acme.com', 'globex.com']);
    const passages = await env.DB.prepare('SELECT COUNT(*) AS n FROM passages WHERE organization_id = ?').bind(org.id).first<{ n: number }>();
    expect(passages!.n).toBeGreaterThan(0);
  });

  it('reports unchanged lines, updates changed ones with history, and re-indexes changed sources', async () => {
    const org = await createOrganization();
    await importBody(org.key, ndjson(PRICING));
    const again = await importBody(org.key, ndjson(PRICING));
    expect(await again.json()).toMatchObject({ imported: 0, updated: 0, unchanged: 1 });

    const changed = { ...PRICING, properties: { ...PRICING.properties, content: 'The Team plan now costs $59 per seat per month.' } };
    expect(await (await importBody(org.key, ndjson(changed))).json()).toMatchObject({ updated: 1 });
    const texts = await env.DB.prepare('SELECT text FROM passages WHERE organization_id = ?').bind(org.id).all<{ text: string }>();
    expect(texts.results.map((r) => r.text)).toEqual(['The Team plan now costs $59 per seat per month.']);
    const history = await env.DB.prepare("SELECT property, from_value, to_value, source_kind FROM object_history WHERE organization_id = ? AND property = 'content' ORDER BY id")
      .bind(org.id)
      .all<{ from_value: string | null; to_value: string; source_kind: string }>();
    expect(history.results).toHaveLength(2);
    expect(history.results[1]).toMatchObject({ source_kind: 'import', to_value: JSON.stringify('The Team plan now costs $59 per seat per month.') });
  });

  it('keeps the date stored with the index in step when only a source\'s date changes', async () => {
    const org = await createOrganization();
    await importBody(org.key, ndjson(PRICING));
    const redated = { ...PRICING, properties: { ...PRICING.properties, publishedAt: '2026-07-15' } };
    expect(await (await importBody(org.key, ndjson(redated))).json()).toMatchObject({ updated: 1 });
    const dates = await env.DB.prepare('SELECT DISTINCT published_at FROM passages WHERE organization_id = ?').bind(org.id).all();
    expect(dates.results).toEqual([{ published_at: '2026-07-15' }]);
  });

  it('skips bad lines whole, reporting each with its line number, and keeps the good ones', async () => {
    const org = await createOrganization();
    const response = await importBody(
      org.key,
      ndjson(
        '{"type": "company", ',
        { type: 'company', key: 'not a domain' },
        { type: 'source', key: 'ftp://x.com/a', properties: { title: 't', content: 'c' } },
        { type: 'source', key: 'https://x.com/a', properties: { content: 'no title here.' } },
        { type: 'planet', key: 'mars' },
        { link: 'competitors', from: { type: 'company', key: 'a.com' }, to: { type: 'person', key: 'p@a.com' } },
        { type: 'company', key: 'good.com', properties: { name: 'Good' } },
      ),
    );
    const result = await response.json<{ imported: number; failed: number; errors: { line: number; message: string }[] }>();
    expect(result.imported).toBe(1);
    expect(result.failed).toBe(6);
    expect(result.errors.map((e) => e.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(result.errors[0]!.message).toBe('not valid JSON');
    expect(result.errors[3]!.message).toContain('properties.title');
    expect(result.errors[5]!.message).toContain("link 'competitors' goes from a company to a company");
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM objects WHERE organization_id = ?').bind(org.id).first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it('needs the oms:write scope and an NDJSON body', async () => {
    const reader = await createOrganization({ scopes: ['commands', 'oms:read'] });
    expect((await importBody(reader.key, ndjson(PRICING))).status).toBe(403);
    const writer = await createOrganization();
    const wrongType = await importBody(writer.key, ndjson(PRICING), 'application/xml');
    expect(wrongType.status).toBe(400);
  });

  it('accepts imports up to 10 MiB, more than the 256 KiB of other routes', async () => {
    const org = await createOrganization();
    const content = 'Acme ships weekly releases to its customers. '.repeat(3_000);
    const lines = [1, 2, 3].map((n) => ({ type: 'source', key: `https://acme.com/changelog/${n}`, properties: { title: 'Changelog', content } }));
    const big = ndjson(...lines);
    expect(big.length).toBeGreaterThan(256 * 1024);
    const response = await importBody(org.key, big);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ imported: 3, failed: 0 });
  });
});
