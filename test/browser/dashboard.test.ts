/**
 * The dashboard in real headless Chromium against the real dev server: sign up, finish onboarding
 * (the organization's keys stop getting 428), create a key and use it against the REST API, see
 * it once only, revoke it and see the API answer 401. A screenshot of each page is saved.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDevServer, type DevServer } from '../e2e/dev-server.ts';
import { launchChromium, screenshot } from './chromium.ts';
import { callApi, fillSalesProfile, fillSignUp, watchPage } from './flows.ts';

let server: DevServer;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  server = await startDevServer({ knowledgeBase: false });
  browser = await launchChromium();
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  // A CSP violation (an inline script or style) shows up as a console error.
  // (Refused forms answer 400/401 and /favicon.ico is 404: those console lines are expected.)
  watchPage(page, consoleErrors);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, key: string, init: RequestInit = {}) => callApi(server.url, path, key, init);

describe('the dashboard in Chromium', () => {
  const email = `ada-${Date.now()}@example.com`;
  let key = '';

  test('sign up lands on the sales profile, with the onboarding banner', async () => {
    await page.goto(`${server.url}/dashboard/sign-up`);
    await screenshot(page, '01-sign-up');
    await fillSignUp(page, email);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard/onboarding');
    await page.getByRole('note', { name: 'Onboarding' }).waitFor();
    const cookies = await page.context().cookies();
    const session = cookies.find((cookie) => cookie.name === 'recon_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await screenshot(page, '02-onboarding-empty');
  });

  test('a refused field shows its message beside it', async () => {
    await page.getByLabel('Company domain').fill('not a domain');
    await page.getByRole('button', { name: 'Save sales profile' }).click();
    const domain = page.getByLabel('Company domain');
    expect(await domain.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await domain.getAttribute('aria-describedby'))!;
    const error = page.locator(`#${describedBy.split(' ').find((id) => id.endsWith('-error'))}`);
    expect(await error.textContent()).toContain('domain must be a domain such as acme.com');
    expect(await page.locator('#form-errors').evaluate((element) => element === document.activeElement)).toBe(true);
    await screenshot(page, '03-onboarding-errors');
  });

  test('create a key: shown once with a copy button; the key gets 428 before onboarding', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('CLI');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('this key will not be shown again').waitFor();
    key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^rk_live_[A-Za-z0-9]{43}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, '04-key-created');

    const refused = await api('/api/v1/commands/research', key, { method: 'POST', body: JSON.stringify({ topic: 'pricing' }) });
    expect(refused.status).toBe(428);
    expect((await refused.json()).message).toContain('/dashboard/onboarding');

    await page.goto(`${server.url}/dashboard/settings/keys`);
    expect(await page.content()).not.toContain(key);
    await page.getByRole('cell', { name: 'CLI', exact: true }).waitFor();
    await screenshot(page, '05-keys-list');
  });

  test('finish onboarding: the banner goes and the key runs commands', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Sales profile' }).click();
    await fillSalesProfile(page, 'Fintech\nSaaS');
    await page.getByRole('button', { name: 'Save sales profile' }).click();
    await page.getByText('Saved. Your sales profile is complete').waitFor();
    expect(await page.getByRole('note', { name: 'Onboarding' }).count()).toBe(0);
    await screenshot(page, '06-onboarding-done');

    const research = await api('/api/v1/commands/research', key, { method: 'POST', body: JSON.stringify({ topic: 'pricing' }) });
    expect(research.status).toBe(200);
    expect((await api('/api/v1/profile', key)).status).toBe(200);
  });

  test('revoke after confirmation: the API answers 401', async () => {
    await page.goto(`${server.url}/dashboard/settings/keys`);
    await page.getByRole('link', { name: 'Revoke CLI' }).click();
    await screenshot(page, '07-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Revoked "CLI"').waitFor();
    await screenshot(page, '08-key-revoked');
    // Revocation holds within KEY_CACHE_TTL_MS (10 s) in every isolate; the dev server has one.
    let status = 0;
    for (let i = 0; i < 25 && status !== 401; i++) {
      status = (await api('/api/v1/profile', key)).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe(401);
  });

  test('team page and an invitation link; sign out and back in', async () => {
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    expect(await page.locator('#invite-link').textContent()).toContain('/dashboard/invite?token=');
    await screenshot(page, '09-team-invite');
    await page.goto(`${server.url}/dashboard`);
    await screenshot(page, '10-overview');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/dashboard/sign-in');
    await screenshot(page, '11-sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('That email and password do not match an account.');
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
  });

  test('no page broke its Content-Security-Policy or threw', () => {
    expect(consoleErrors).toEqual([]);
  });
});
