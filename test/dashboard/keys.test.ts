import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { Browser, count, finishedProfileForm, organizationOf, shownKey, signUp } from './browser.ts';

async function onboardedBrowser(): Promise<Browser> {
  const browser = new Browser();
  await signUp(browser);
  expect((await browser.post('/dashboard/onboarding', finishedProfileForm())).status).toBe(303);
  return browser;
}

async function createKey(browser: Browser, name: string, scopes: string[] = ['commands', 'oms:read', 'oms:write', 'oms:approve']) {
  const response = await browser.post('/dashboard/settings/keys', { name, scopes });
  expect(response.status).toBe(201);
  const html = await response.text();
  const key = shownKey(html);
  expect(key).toMatch(/^rk_live_[A-Za-z0-9]{43}$/);
  const keyId = (await env.DB.prepare('SELECT id FROM api_keys WHERE name = ? AND prefix = ?').bind(name, `${key!.slice(0, 12)}…`).first<{ id: string }>())!.id;
  return { key: key!, keyId, html };
}

describe('API keys through the dashboard', () => {
  it('creates a key shown once with a copy button and the warning, that works against the API', async () => {
    const browser = await onboardedBrowser();
    const { key, html } = await createKey(browser, 'CRM sync');
    expect(html).toContain('this key will not be shown again');
    expect(html).toContain('<button type="button" data-copy="new-key">Copy</button>');
    expect((await call('/api/v1/commands', { key })).status).toBe(200);

    const list = await (await browser.get('/dashboard/settings/keys')).text();
    expect(list).toContain('CRM sync');
    expect(list).toContain(`${key.slice(0, 12)}…`);
    expect(list).not.toContain(key);
  });

  it('lists name, prefix, scopes, created and last used', async () => {
    const browser = await onboardedBrowser();
    const { key } = await createKey(browser, 'reader', ['oms:read']);
    let list = await (await browser.get('/dashboard/settings/keys')).text();
    expect(list).toMatch(/<td>reader<\/td><td><code>rk_live_[A-Za-z0-9]{4}…<\/code><\/td><td>oms:read<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td><td>never<\/td><td>active<\/td>/);
    expect((await call('/api/v1/oms/metadata', { key })).status).toBe(200);
    // The last-used write runs after the response (waitUntil); wait for it to land.
    for (let i = 0; i < 50 && /<td>never<\/td>/.test(list); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      list = await (await browser.get('/dashboard/settings/keys')).text();
    }
    expect(list).toMatch(/<td>oms:read<\/td><td>[^<]+<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td><td>active<\/td>/);
  });

  it('keeps the scopes chosen: a key without commands gets 403 naming the key settings page', async () => {
    const browser = await onboardedBrowser();
    const { key } = await createKey(browser, 'reads only', ['oms:read']);
    const response = await call('/api/v1/commands', { key });
    expect(response.status).toBe(403);
    expect((await response.json<{ message: string }>()).message).toContain('/dashboard/settings/keys');
  });

  it('refuses a key without a name or scope, with messages beside the fields, and creates nothing', async () => {
    const browser = await onboardedBrowser();
    const org = await organizationOf(browser);
    const response = await browser.post('/dashboard/settings/keys', { name: '  ' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('id="field-name-error">name');
    expect(html).toContain('id="scopes-error">scopes must be a list of 1 to 4 items');
    expect(shownKey(html)).toBeUndefined();
    expect(await count('SELECT count(*) AS n FROM api_keys WHERE organization_id = ?', org.id)).toBe(0);
  });

  it('revokes after a confirmation page; the API then answers 401 at once (this isolate forgets its cached lookup)', async () => {
    const browser = await onboardedBrowser();
    const { key, keyId } = await createKey(browser, 'to revoke');
    expect((await call('/api/v1/commands', { key })).status).toBe(200);

    const confirm = await browser.get(`/dashboard/settings/keys/${keyId}/revoke`);
    expect(confirm.status).toBe(200);
    const page = await confirm.text();
    expect(page).toContain('Revoke &quot;to revoke&quot;');
    expect(page).toContain(`<form method="post" action="/dashboard/settings/keys/${keyId}/revoke"`);
    expect(await count('SELECT count(*) AS n FROM api_keys WHERE id = ? AND revoked_at IS NULL', keyId)).toBe(1);

    const revoked = await browser.post(`/dashboard/settings/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('Location')).toBe('/dashboard/settings/keys?done=revoked&name=to%20revoke');
    const response = await call('/api/v1/commands', { key });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'unauthorized', message: expect.stringContaining('revoked') });
    expect(await (await browser.get('/dashboard/settings/keys')).text()).toMatch(/<td>revoked \d{4}-/);
  });

  it('replaces a key: a new one with the same name and scopes, shown once, and the old one revoked', async () => {
    const browser = await onboardedBrowser();
    const old = await createKey(browser, 'rotating', ['commands', 'oms:read']);
    expect((await call('/api/v1/commands', { key: old.key })).status).toBe(200);

    expect(await (await browser.get(`/dashboard/settings/keys/${old.keyId}/replace`)).text()).toContain('Replace &quot;rotating&quot;');
    const response = await browser.post(`/dashboard/settings/keys/${old.keyId}/replace`);
    expect(response.status).toBe(201);
    const fresh = shownKey(await response.text())!;
    expect(fresh).toMatch(/^rk_live_/);
    expect(fresh).not.toBe(old.key);

    expect((await call('/api/v1/commands', { key: old.key })).status).toBe(401);
    expect((await call('/api/v1/commands', { key: fresh })).status).toBe(200);
    const row = await env.DB.prepare('SELECT name, scopes, revoked_at FROM api_keys WHERE prefix = ?').bind(`${fresh.slice(0, 12)}…`).first();
    expect(row).toEqual({ name: 'rotating', scopes: 'commands oms:read', revoked_at: null });
    // A revoked key can be neither revoked nor replaced again.
    expect((await browser.post(`/dashboard/settings/keys/${old.keyId}/replace`)).status).toBe(409);
    expect((await browser.post(`/dashboard/settings/keys/${old.keyId}/revoke`)).status).toBe(409);
  });

  it("cannot see, revoke or replace another organization's key (404), which keeps working", async () => {
    const other = await createOrganization();
    const browser = await onboardedBrowser();
    expect((await browser.get(`/dashboard/settings/keys/${other.keyId}/revoke`)).status).toBe(404);
    expect((await browser.post(`/dashboard/settings/keys/${other.keyId}/revoke`)).status).toBe(404);
    expect((await browser.post(`/dashboard/settings/keys/${other.keyId}/replace`)).status).toBe(404);
    expect((await call('/api/v1/commands', { key: other.key })).status).toBe(200);
    expect(await (await browser.get('/dashboard/settings/keys')).text()).not.toContain(other.keyId);
  });
});
