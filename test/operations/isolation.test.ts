import { describe, expect, it } from 'vitest';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';

describe('cross-organization isolation', () => {
  it("never shows or changes another organization's profile", async () => {
    const acme = await createOrganization({ profile: 'none' });
    const globex = await createOrganization({ profile: 'none' });
    await call('/api/v1/profile', { key: acme.key, method: 'PUT', body: FINISHED_PROFILE });

    const seenByGlobex = await (await call('/api/v1/profile', { key: globex.key })).json<{ complete: boolean }>();
    expect(seenByGlobex.complete).toBe(false);
    // Acme's finished profile does not onboard Globex.
    expect((await call('/api/v1/commands/audit', { key: globex.key, body: {} })).status).toBe(428);

    await call('/api/v1/profile', { key: globex.key, method: 'PUT', body: { companyName: 'Globex' } });
    const seenByAcme = await (await call('/api/v1/profile', { key: acme.key })).json<{ profile: { companyName: string } }>();
    expect(seenByAcme.profile.companyName).toBe('Acme Analytics');
  });
});
