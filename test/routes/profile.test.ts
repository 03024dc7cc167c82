import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';

describe('GET/PUT /api/v1/profile', () => {
  it('shows an empty, unfinished profile before onboarding', async () => {
    const org = await createOrganization({ profile: 'none' });
    const response = await call('/api/v1/profile', { key: org.key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      profile: { icp: { industries: [], companySizes: [], regions: [], personas: [] }, competitors: [], valueProps: [] },
      complete: false,
      missing: ['companyName', 'domain', 'offering', 'icp.industries', 'icp.companySizes', 'icp.regions', 'icp.personas'],
      updatedAt: null,
    });
  });

  it('stores a profile, normalizing domains, and reads it back', async () => {
    const org = await createOrganization({ profile: 'none' });
    const put = await call('/api/v1/profile', {
      key: org.key,
      method: 'PUT',
      body: { ...FINISHED_PROFILE, domain: ' ACME.com ', competitors: ['Globex.COM'] },
    });
    expect(put.status).toBe(200);
    const { siteReads, ...stored } = await put.json<{ profile: typeof FINISHED_PROFILE; updatedAt: string; siteReads?: unknown[] }>();
    expect(stored.profile.domain).toBe('acme.com');
    expect(stored.profile.competitors).toEqual(['globex.com']);
    // Finishing the profile reads the sites this deployment reads: in tests, only the fixture sites.
    expect(siteReads).toEqual([]);
    const get = await call('/api/v1/profile', { key: org.key });
    expect(await get.json()).toEqual(stored);
  });

  it('rejects an invalid profile with per-field details and writes nothing', async () => {
    const org = await createOrganization({ profile: 'none' });
    const response = await call('/api/v1/profile', {
      key: org.key,
      method: 'PUT',
      body: { ...FINISHED_PROFILE, domain: 'ftp://acme.com', icp: { ...FINISHED_PROFILE.icp, industry: ['SaaS'] } },
    });
    expect(response.status).toBe(400);
    const error = await response.json<{ details: { path: string }[] }>();
    expect(error.details.map((d) => d.path).sort()).toEqual(['domain', 'icp.industry']);
    const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM sales_profiles WHERE organization_id = ?').bind(org.id).first<{ n: number }>();
    expect(row?.n).toBe(0);
  });
});
