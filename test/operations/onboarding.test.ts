import { describe, expect, it } from 'vitest';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';

describe('onboarding', () => {
  it.each(['research', 'competitors', 'gtm-audit', 'audit'])(
    '%s answers 428 until the sales profile is finished, naming the page and the missing fields',
    async (command) => {
      const org = await createOrganization({ profile: 'none' });
      const body = command === 'research' ? { topic: 'pricing' } : {};
      const response = await call(`/api/v1/commands/${command}`, { key: org.key, body });
      expect(response.status).toBe(428);
      const error = await response.json<{ error: string; message: string }>();
      expect(error.error).toBe('onboarding_required');
      expect(error.message).toContain('on the dashboard at /dashboard/onboarding');
      expect(error.message).toContain('PUT /api/v1/profile');
      expect(error.message).toContain('companyName, domain, offering, icp.industries');
    },
  );

  it('validates arguments before onboarding, so a bad call says what is wrong with it', async () => {
    const org = await createOrganization({ profile: 'none' });
    const response = await call('/api/v1/commands/research', { key: org.key, body: {} });
    expect(response.status).toBe(400);
  });

  it('lets commands through once PUT /api/v1/profile finishes the profile', async () => {
    const org = await createOrganization({ profile: 'none' });
    const partial = { ...FINISHED_PROFILE, icp: { ...FINISHED_PROFILE.icp, regions: [] } };
    const put = await call('/api/v1/profile', { key: org.key, method: 'PUT', body: partial });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ complete: false, missing: ['icp.regions'] });
    expect((await call('/api/v1/commands/audit', { key: org.key, body: {} })).status).toBe(428);

    const done = await call('/api/v1/profile', { key: org.key, method: 'PUT', body: FINISHED_PROFILE });
    expect(await done.json()).toMatchObject({ complete: true, missing: [] });
    expect((await call('/api/v1/commands/audit', { key: org.key, body: {} })).status).toBe(202);
  });
});
