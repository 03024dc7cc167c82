import { describe, expect, it } from 'vitest';
import { call, createKey } from '../helpers/fixtures.ts';
import { Browser, finishedProfileForm, organizationOf, signUp } from './browser.ts';

const BANNER = '<div class="banner" role="note" aria-label="Onboarding">';

describe('onboarding through the dashboard', () => {
  it('shows the banner linking to the sales profile on every page until the profile is finished', async () => {
    const browser = new Browser();
    await signUp(browser);
    for (const path of ['/dashboard', '/dashboard/onboarding', '/dashboard/settings/keys', '/dashboard/team']) {
      const html = await (await browser.get(path)).text();
      expect(html).toContain(BANNER);
      expect(html).toContain('<a href="/dashboard/onboarding">Finish the sales profile</a>');
    }
    expect((await browser.post('/dashboard/onboarding', finishedProfileForm())).headers.get('Location')).toBe('/dashboard/onboarding?saved=1');
    for (const path of ['/dashboard', '/dashboard/onboarding', '/dashboard/settings/keys', '/dashboard/team']) {
      expect(await (await browser.get(path)).text()).not.toContain(BANNER);
    }
  });

  it("a key of the organization gets 428 naming /dashboard/onboarding, and runs commands once the form is finished", async () => {
    const browser = new Browser();
    await signUp(browser);
    const org = await organizationOf(browser);
    const { key } = await createKey(org.id);
    const refused = await call('/api/v1/commands/audit', { key, body: {} });
    expect(refused.status).toBe(428);
    expect((await refused.json<{ message: string }>()).message).toContain('/dashboard/onboarding');

    await browser.post('/dashboard/onboarding', finishedProfileForm());
    expect((await call('/api/v1/commands/audit', { key, body: {} })).status).toBe(202);
    // The dashboard and the API read the same profile.
    expect(await (await call('/api/v1/profile', { key })).json()).toMatchObject({ complete: true, profile: { companyName: 'Acme Analytics', icp: { regions: ['North America'] } } });
  });

  it('saves a partial profile and says what is still missing', async () => {
    const browser = new Browser();
    await signUp(browser);
    const form = { ...finishedProfileForm(), 'icp.regions': '' };
    await browser.post('/dashboard/onboarding', form);
    const html = await (await browser.get('/dashboard/onboarding?saved=1')).text();
    expect(html).toContain('Saved. Still needed before commands run: Regions you sell in.');
    expect(html).toContain(BANNER);
  });

  it("refuses what PUT /api/v1/profile refuses, with the core's messages beside the fields, and writes nothing", async () => {
    const browser = new Browser();
    await signUp(browser);
    const org = await organizationOf(browser);
    const { key } = await createKey(org.id);
    const response = await browser.post('/dashboard/onboarding', { ...finishedProfileForm(), domain: 'not a domain', competitors: 'globex.com\nnope' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toMatch(/<p class="error" id="field-domain-error">domain must be a domain such as acme.com, or a URL such as https:\/\/acme.com<\/p><input id="field-domain" name="domain" required="" aria-invalid="true" aria-describedby="field-domain-hint field-domain-error"/);
    expect(html).toContain('id="field-competitors-error">competitors.1 must be a domain');
    // What was typed stays in the form.
    expect(html).toContain('value="not a domain"');
    expect(await (await call('/api/v1/profile', { key })).json()).toMatchObject({ updatedAt: null, complete: false });
  });
});
