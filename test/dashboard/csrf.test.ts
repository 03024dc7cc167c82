import { describe, expect, it } from 'vitest';
import { Browser, count, organizationOf, signUp, uniqueEmail } from './browser.ts';

const CROSS_SITE = { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' };

describe('CSRF: dashboard forms are accepted from this origin only', () => {
  it('refuses a cross-origin sign-up post with 403 and creates nothing', async () => {
    const email = uniqueEmail();
    const response = await new Browser().post('/dashboard/sign-up', { organizationName: 'Forged', name: 'Eve', email, password: 'a long enough password' }, CROSS_SITE);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('This form was sent from another site, so it was refused.');
    expect(await count('SELECT count(*) AS n FROM users WHERE email = ?', email)).toBe(0);
  });

  it('refuses a cross-origin key creation even with a valid session cookie, and creates no key', async () => {
    const browser = new Browser();
    await signUp(browser);
    const org = await organizationOf(browser);
    const response = await browser.post('/dashboard/settings/keys', { name: 'forged', scopes: ['commands'] }, CROSS_SITE);
    expect(response.status).toBe(403);
    expect(await count('SELECT count(*) AS n FROM api_keys WHERE organization_id = ?', org.id)).toBe(0);
  });

  it('refuses a form post that carries neither Origin nor Sec-Fetch-Site (fails closed)', async () => {
    const browser = new Browser();
    await signUp(browser);
    const org = await organizationOf(browser);
    const response = await browser.request('/dashboard/settings/keys', {
      method: 'POST',
      form: { name: 'no origin', scopes: 'commands' },
      headers: { Origin: '', 'Sec-Fetch-Site': '' },
    });
    expect(response.status).toBe(403);
    expect(await count('SELECT count(*) AS n FROM api_keys WHERE organization_id = ?', org.id)).toBe(0);
  });

  it('refuses a body that is not a form (JSON) instead of reading it', async () => {
    const browser = new Browser();
    await signUp(browser);
    const org = await organizationOf(browser);
    const response = await browser.request('/dashboard/settings/keys', {
      method: 'POST',
      form: {},
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(response.status).toBe(400);
    expect(await count('SELECT count(*) AS n FROM api_keys WHERE organization_id = ?', org.id)).toBe(0);
  });

  it('accepts the same post from this origin', async () => {
    const browser = new Browser();
    await signUp(browser);
    const response = await browser.post('/dashboard/settings/keys', { name: 'mine', scopes: ['commands'] });
    expect(response.status).toBe(201);
  });
});
