import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';

const LINES = [
  { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics' } },
  { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
  { type: 'company', key: 'initech.io', properties: { name: 'Initech' } },
  { type: 'company', key: 'umbrella.io', properties: { name: 'Umbrella Metrics' } },
  {
    type: 'source',
    key: 'https://reviewhub.example/acme-vs-initech',
    properties: {
      title: 'Acme Analytics vs Initech',
      publishedAt: '2026-02-01',
      content:
        'Acme Analytics vs Initech is the comparison most buyers ask about. Many teams switched from Initech to Acme Analytics last year. ' +
        'Initech is often described as an alternative to Acme Analytics for smaller budgets. The weather was pleasant at the conference.',
    },
  },
  {
    type: 'source',
    key: 'https://news.example/umbrella',
    properties: {
      title: 'Umbrella Metrics raises funds',
      publishedAt: '2026-03-01',
      content: 'Umbrella Metrics competes with Acme Analytics in the European mid-market. Umbrella Metrics raised a Series B round this spring.',
    },
  },
  { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'company', key: 'umbrella.io' } },
];

async function orgWithMarket() {
  const org = await createOrganization({ profile: { ...FINISHED_PROFILE, competitors: ['globex.com'] } });
  const body = LINES.map((l) => JSON.stringify(l)).join('\n');
  const response = await call('/api/v1/oms/objects/import', { key: org.key, method: 'POST', rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
  expect(await response.json()).toMatchObject({ failed: 0 });
  return org;
}

describe('competitors', () => {
  it('ranks competitors from the profile, links and sources by evidence, citing each sentence', async () => {
    const org = await orgWithMarket();
    const response = await call('/api/v1/commands/competitors', { key: org.key, body: {} });
    expect(response.status).toBe(200);
    const markdown = await response.text();
    expect(markdown).toMatch(/^# Competitors of Acme Analytics/);
    const rows = markdown.split('\n').filter((line) => /^\| \d+ \|/.test(line));
    expect(rows.map((row) => row.split(' | ')[2])).toEqual(['initech.io', 'umbrella.io', 'globex.com']);
    expect(rows[0]).toContain('| 3 |');
    expect(rows[0]).toContain('Many teams switched from Initech to Acme Analytics last year. [1]');
    expect(rows[1]).toContain('| 1 (also: link) |');
    // Globex is known only from the profile: no source gives its price, a strength or a weakness.
    expect(rows[2]).toContain('| 0 (also: profile) | not found | not found | not found | — |');
    expect(markdown).not.toContain('weather');
    expect(markdown).toContain('[1] Acme Analytics vs Initech, reviewhub.example, 2026-02-01, https://reviewhub.example/acme-vs-initech');
  });

  it('writes competitors found in sources back as links, with research provenance', async () => {
    const org = await orgWithMarket();
    await call('/api/v1/commands/competitors', { key: org.key, body: {} });
    const links = await env.DB.prepare("SELECT to_key, source_kind FROM links WHERE organization_id = ? AND link = 'competitors' AND from_key = 'acme.com' ORDER BY to_key")
      .bind(org.id)
      .all<{ to_key: string; source_kind: string }>();
    expect(links.results).toEqual([
      { to_key: 'initech.io', source_kind: 'research' },
      { to_key: 'umbrella.io', source_kind: 'import' },
    ]);
  });

  it('analyses another company by name and honours the limit', async () => {
    const org = await orgWithMarket();
    const markdown = await (await call('/api/v1/commands/competitors', { key: org.key, body: { company: 'Initech', limit: 1 } })).text();
    expect(markdown).toMatch(/^# Competitors of Initech/);
    const rows = markdown.split('\n').filter((line) => /^\| \d+ \|/.test(line));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('acme.com');
  });

  it('says so when it knows of no competitor', async () => {
    const org = await createOrganization({ profile: { ...FINISHED_PROFILE, competitors: [] } });
    const markdown = await (await call('/api/v1/commands/competitors', { key: org.key, body: {} })).text();
    expect(markdown).toContain('No competitors of Acme Analytics are known yet');
  });
});

describe('competitors, asked twice', () => {
  it('gives the same answer: links it wrote itself do not count as independent knowledge', async () => {
    const org = await orgWithMarket();
    const first = await (await call('/api/v1/commands/competitors', { key: org.key, body: {} })).text();
    const second = await (await call('/api/v1/commands/competitors', { key: org.key, body: {} })).text();
    expect(second).toBe(first);
  });
});
