import { describe, expect, it } from 'vitest';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';
import { advanceToEnd } from '../helpers/site-reads.ts';
import { COMPANY_DOMAINS, COMPANY_NAME } from '../sites/fixture-sites.ts';

/**
 * Finishing the sales profile reads the organization's own site and its competitors' (those this
 * deployment reads: in tests, the fixture sites SITE_ORIGIN_OVERRIDES names); a later save reads only
 * the domains it adds. This file reads COMPANY_DOMAINS[6] (never its log; test/mcp/read-site.test.ts reads it too).
 */
const OWN = COMPANY_DOMAINS[6];
/** A competitor no fixture site serves: offline, it is not read at all. */
const UNSERVED = 'ironclad-automation.example';

interface SavedProfile {
  complete: boolean;
  siteReads?: { domain: string; runId: string | null; refused?: string }[];
}

async function put(key: string, profile: object): Promise<SavedProfile> {
  const response = await call('/api/v1/profile', { key, method: 'PUT', body: profile });
  expect(response.status).toBe(200);
  return response.json<SavedProfile>();
}

describe('site reads when onboarding finishes', () => {
  it("starts a read of the organization's own domain when the profile is finished, and none for a domain it cannot reach", async () => {
    const org = await createOrganization({ profile: 'none' });
    const unfinished = await put(org.key, { companyName: 'Northwind Robotics', domain: OWN });
    expect(unfinished).toMatchObject({ complete: false });
    expect(unfinished.siteReads).toBeUndefined();

    const finished = await put(org.key, { ...FINISHED_PROFILE, companyName: COMPANY_NAME, domain: OWN, competitors: [UNSERVED] });
    expect(finished.complete).toBe(true);
    expect(finished.siteReads).toEqual([{ domain: OWN, runId: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    await advanceToEnd(finished.siteReads![0]!.runId!);
    const poll = await call(`/api/v1/runs/site-read/${finished.siteReads![0]!.runId}`, { key: org.key });
    expect(poll.headers.get('X-Run-Status')).toBe('completed');
    const company = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'company', key: OWN } });
    expect(company.status).toBe(200);

    // Saving the finished profile again reads nothing more.
    const again = await put(org.key, { ...FINISHED_PROFILE, companyName: COMPANY_NAME, domain: OWN, competitors: [UNSERVED], valueProps: ['Robots in two weeks'] });
    expect(again.siteReads).toEqual([]);
    const runs = await call('/api/v1/runs?kind=site-read', { key: org.key });
    expect((await runs.json<{ runs: { target: string }[] }>()).runs.map((run) => run.target)).toEqual([OWN]);
  });
});
