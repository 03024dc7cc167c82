import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeSalesProfile } from '../../src/db/sales-profiles.ts';
import { PROFILE_CACHE_TTL_MS } from '../../src/operations/profile/profile.ts';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';

// Commands reuse a finished sales profile in the isolate for PROFILE_CACHE_TTL_MS. A write through
// this isolate (PUT /api/v1/profile) is seen at once; a write elsewhere (here: straight to D1, as
// another isolate's would land) within the TTL; an unfinished profile is never kept.

const SAAS_LINE = /^- \*\*SaaS\*\* \(an industry you sell to\)/m;
const RETAIL = { ...FINISHED_PROFILE, icp: { ...FINISHED_PROFILE.icp, industries: ['Retail'] } };

async function research(key: string): Promise<Response> {
  return call('/api/v1/commands/research', { key, body: { topic: 'Acme Analytics reviews', tier: 'base' } });
}

describe('the sales profile commands use', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the new one at once after PUT /api/v1/profile', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    expect(await (await research(org.key)).text()).toMatch(SAAS_LINE);
    const put = await call('/api/v1/profile', { key: org.key, method: 'PUT', body: RETAIL });
    expect(put.status).toBe(200);
    expect(await (await research(org.key)).text()).not.toMatch(SAAS_LINE);
  });

  it('lets commands run as soon as onboarding is finished, wherever it was finished', async () => {
    const org = await createOrganization({ profile: 'none' });
    expect((await research(org.key)).status).toBe(428);
    await writeSalesProfile(env.DB, org.id, FINISHED_PROFILE, true, new Date().toISOString());
    expect((await research(org.key)).status).toBe(200);
  });

  it('is read again once PROFILE_CACHE_TTL_MS has passed after a change elsewhere', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    vi.useFakeTimers({ toFake: ['Date'] });
    expect(await (await research(org.key)).text()).toMatch(SAAS_LINE);
    await writeSalesProfile(env.DB, org.id, RETAIL, true, new Date().toISOString());
    vi.setSystemTime(Date.now() + PROFILE_CACHE_TTL_MS);
    expect(await (await research(org.key)).text()).not.toMatch(SAAS_LINE);
  });
});
