import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[]).map((part) => part.text).join('');

const GLOBEX_PROFILE = {
  companyName: 'Globex',
  domain: 'https://www.Globex.com/',
  offering: 'Supply-chain software for mid-size manufacturers',
  icp: { industries: ['Manufacturing'], companySizes: ['201-1000'], regions: ['Europe'], personas: ['COO'] },
};

const SOURCES = [
  { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
  {
    type: 'source',
    key: 'https://globex.com/pricing',
    properties: {
      title: 'Globex pricing',
      publishedAt: '2026-05-02',
      content: 'Globex pricing starts at $900 per plant per month. The Plus plan costs $1,400 per plant per month and adds demand forecasting.',
    },
  },
  {
    type: 'source',
    key: 'https://reviews.example/globex',
    properties: {
      title: 'Globex review',
      publishedAt: '2026-06-11',
      content: 'Operations leaders say Globex pricing pays back within two quarters. One COO wrote that Globex cut stockouts by 30 percent.',
    },
  },
];

describe('an agent takes a new organization from 428 to its first brief over MCP alone', () => {
  it('research is refused (428), set-profile finishes onboarding, import-objects loads sources, research cites them', async () => {
    const org = await createOrganization({ profile: 'none' });
    const client = await connectMcpClient(org.key);

    const refused = await client.callTool({ name: 'research', arguments: { topic: 'Globex pricing' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'onboarding_required' });
    expect(textOf(refused)).toContain('set-profile');

    const before = await client.callTool({ name: 'get-profile', arguments: {} });
    expect(before.structuredContent).toMatchObject({ complete: false, updatedAt: null });
    expect((before.structuredContent as { missing: string[] }).missing).toContain('companyName');
    expect(textOf(before)).toBe(await (await call('/api/v1/profile', { key: org.key })).text());

    const set = await client.callTool({ name: 'set-profile', arguments: GLOBEX_PROFILE });
    expect(set.isError).toBeFalsy();
    expect(set.structuredContent).toMatchObject({ complete: true, missing: [], profile: { domain: 'globex.com' } });
    expect(textOf(await client.callTool({ name: 'get-profile', arguments: {} }))).toBe(
      await (await call('/api/v1/profile', { key: org.key })).text(),
    );

    const imported = await client.callTool({
      name: 'import-objects',
      arguments: { ndjson: SOURCES.map((line) => JSON.stringify(line)).join('\n') },
    });
    expect(imported.isError).toBeFalsy();
    expect(imported.structuredContent).toMatchObject({ imported: 3, failed: 0, errors: [] });

    const brief = await client.callTool({ name: 'research', arguments: { topic: 'Globex pricing' } });
    expect(brief.isError).toBeFalsy();
    const markdown = textOf(brief);
    expect(markdown).toContain('[1]');
    expect(markdown).toContain('https://globex.com/pricing');
    expect(markdown).toContain('Globex pricing starts at $900 per plant per month.');
    await client.close();
  });

  it('set-profile refuses what PUT /api/v1/profile refuses, with the same message, and writes nothing', async () => {
    const org = await createOrganization({ profile: 'none' });
    const client = await connectMcpClient(org.key);
    const bad = { ...GLOBEX_PROFILE, domian: 'globex.com' };
    const result = await client.callTool({ name: 'set-profile', arguments: bad });
    const rest = await (await call('/api/v1/profile', { key: org.key, method: 'PUT', body: bad })).json<{ message: string }>();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'invalid_input', message: rest.message });
    expect((await client.callTool({ name: 'get-profile', arguments: {} })).structuredContent).toMatchObject({ updatedAt: null });
    await client.close();
  });
});
