import { describe, expect, it } from 'vitest';
import { createKey, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { auditReport, importLines, section } from './audit-helpers.ts';

const PRIORITY = { high: 0, medium: 1, low: 2 } as const;

describe('the organization audit gives a fix list', () => {
  it('orders fixes by impact, each saying what to do and where, naming the objects and keys', async () => {
    const org = await createOrganization({ profile: { ...FINISHED_PROFILE, competitors: [], valueProps: [] } });
    await importMarket(org.key);
    await importLines(org.key, [
      ...['nameless-1.example', 'nameless-2.example', 'nameless-3.example'].map((key) => ({ type: 'company', key, properties: {} })),
      { type: 'source', key: 'https://old.example/2020', properties: { title: 'An old page', publishedAt: '2020-01-01', content: 'Acme Analytics was small then, said an old page.' } },
    ]);
    const { keyId } = await createKey(org.id);
    const fixes = section(await auditReport(org.key), 'Recommendations');
    expect(fixes).toContain('_Ordered by impact: high before medium before low; within a level, the fix that concerns more objects first._');
    const lines = [...fixes.matchAll(/^\d+\. \*\*(high|medium|low)\*\* \((.+?)\) (.+) Where: (.+)\.$/gm)];
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const priorities = lines.map((line) => PRIORITY[line[1] as keyof typeof PRIORITY]);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));

    const at = (text: string) => lines.findIndex((line) => line[3]!.includes(text));
    const missing = lines[at('missing key properties')]!;
    expect(missing[3]).toContain('3 object(s): `company nameless-1.example`, `company nameless-2.example`, `company nameless-3.example`.');
    expect(missing[4]).toContain('POST /api/v1/oms/objects/import');
    const revoke = lines[at(`Revoke key ${keyId}`)]!;
    expect(revoke[4]).toContain(`/dashboard/settings/keys (key ${keyId})`);
    // Both medium: the fix for three objects comes before the fix for one key.
    expect(missing[1]).toBe('medium');
    expect(revoke[1]).toBe('medium');
    expect(at('missing key properties')).toBeLessThan(at(`Revoke key ${keyId}`));
    const stale = lines[at('published over two years ago')]!;
    expect(stale[1]).toBe('low');
    expect(stale[3]).toContain('`https://old.example/2020`');
    const optional = lines[at('Add competitors and valueProps to the profile')]!;
    expect(optional[4]).toContain('PUT /api/v1/profile (fields competitors, valueProps)');
  });
});
