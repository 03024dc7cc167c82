import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';

const SOURCE = {
  type: 'source',
  key: 'https://analyst:s3cret@acme.com/pricing',
  properties: { title: 'Acme pricing', publishedAt: '2026-05-01', content: 'The Acme Analytics Team plan costs $49 per seat per month for every team.' },
};

describe('source URLs with credentials', () => {
  it('are imported without their user:pass@, so no brief ever shows them', async () => {
    const org = await createOrganization();
    const lines = [SOURCE, { ...SOURCE, key: 'https://token@acme.com/customers', properties: { ...SOURCE.properties, title: 'Acme customers' } }];
    const response = await call('/api/v1/oms/objects/import', {
      key: org.key,
      method: 'POST',
      rawBody: lines.map((line) => JSON.stringify(line)).join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(await response.json()).toMatchObject({ imported: 2, failed: 0 });

    const rows = await env.DB.prepare("SELECT key, properties FROM objects WHERE organization_id = ? AND type = 'source' ORDER BY key")
      .bind(org.id)
      .all<{ key: string; properties: string }>();
    expect(rows.results.map((row) => [row.key, JSON.parse(row.properties).url])).toEqual([
      ['https://acme.com/customers', 'https://acme.com/customers'],
      ['https://acme.com/pricing', 'https://acme.com/pricing'],
    ]);

    const markdown = await (await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics Team plan' } })).text();
    expect(markdown).toContain('https://acme.com/pricing');
    expect(markdown).not.toMatch(/s3cret|analyst@|token@/);
  });
});
