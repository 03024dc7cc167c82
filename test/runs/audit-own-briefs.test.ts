import { describe, expect, it } from 'vitest';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { auditReport, importLines, section } from './audit-helpers.ts';

/** The audit's coverage findings: what it says your own pages and the evidence about you cover. */
function coverage(report: string) {
  return { profile: section(report, 'Sales profile'), goToMarket: section(report, 'Go-to-market') };
}

describe("the organization audit does not count the organization's own briefs", () => {
  it('finds the same coverage after a brief is stored, and after a brief comes back as a source', async () => {
    const profile = { ...FINISHED_PROFILE, icp: { ...FINISHED_PROFILE.icp, industries: ['SaaS', 'Manufacturing'], personas: ['VP Product', 'COO'] } };
    const org = await createOrganization({ profile });
    await importMarket(org.key);
    const before = await auditReport(org.key);
    expect(section(before, 'Sales profile')).toContain('- ICP industries and personas none of your pages mention: Manufacturing, COO');

    // A research brief, stored as a `brief` object linked to its sources.
    expect((await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics pricing' } })).status).toBe(200);
    const afterBrief = await auditReport(org.key);
    expect(coverage(afterBrief)).toEqual(coverage(before));
    expect(section(afterBrief, 'Data in the OMS')).toEqual(section(before, 'Data in the OMS'));

    // The same kind of brief saved back as a source on the organization's own domain.
    await importLines(org.key, [
      {
        type: 'source',
        key: 'https://acme.com/recon/brief-manufacturing',
        properties: {
          title: 'Research brief: Acme Analytics for Manufacturing',
          publishedAt: new Date().toISOString().slice(0, 10),
          content:
            'Acme Analytics is the product analytics platform built for Manufacturing teams, trusted by more than 900 companies. ' +
            'Every COO at a manufacturer gets a 30-day free trial and the Growth plan costs $39 per seat per month. ' +
            'Acme Analytics partners with Initech and integrates with SAP.',
        },
      },
    ]);
    expect(coverage(await auditReport(org.key))).toEqual(coverage(before));
  });
});
