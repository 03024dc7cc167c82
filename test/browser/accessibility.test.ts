/**
 * Accessibility of every dashboard page in real headless Chromium against the real dev server
 * (issue 26, item 6): axe-core (test/browser/axe.ts) finds no moderate, serious or critical violation on any
 * page, signed out and signed in, empty and with content, and with a refused form's errors shown;
 * the main controls of key pages are reached and used with the keyboard alone, each showing a
 * visible focus ring. A screenshot of each page is saved (test-results/screenshots/, `a11y-`).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDevServer, type DevServer } from '../e2e/dev-server.ts';
import { blockingViolations } from './axe.ts';
import { launchChromium, screenshot } from './chromium.ts';
import { callApi, fillSalesProfile, fillSignUp, untilFirstExecution, watchPage } from './flows.ts';

let server: DevServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

// The pages keep their strict CSP while axe runs: a refused script or style would show in consoleErrors.
const watchConsole = (watched: Page) => watchPage(watched, consoleErrors);

beforeAll(async () => {
  server = await startDevServer({ knowledgeBase: false });
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  watchConsole(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, key: string, init: RequestInit = {}) => callApi(server.url, path, key, init);

/** axe-core on the page as it is: no moderate, serious or critical violation; a screenshot either way. */
async function expectAccessible(name: string, on: Page = page): Promise<void> {
  await screenshot(on, `a11y-${name}`);
  expect(await blockingViolations(on), `${name}: ${on.url()}`).toEqual([]);
}

async function open(path: string): Promise<void> {
  const response = await page.goto(server.url + path);
  expect(response?.status(), path).toBeLessThan(500);
}

/** The element that has focus, as `tag#id` or `tag "its name"`, with whether its focus ring shows. */
async function focused(on: Page = page): Promise<{ name: string; ring: boolean }> {
  return on.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { name: 'body', ring: false };
    const style = getComputedStyle(element);
    const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    const label = element.id && element.tagName !== 'A' && element.tagName !== 'BUTTON' ? `#${element.id}` : `"${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim()}"`;
    return { name: `${element.tagName.toLowerCase()} ${label}`, ring };
  });
}

/** Presses Tab until focus reaches `target` (at most `limit` times); answers every stop on the way. */
async function tabTo(target: string, limit = 40, on: Page = page): Promise<{ name: string; ring: boolean }[]> {
  const stops: { name: string; ring: boolean }[] = [];
  for (let i = 0; i < limit; i++) {
    await on.keyboard.press('Tab');
    const stop = await focused(on);
    stops.push(stop);
    if (stop.name === target) return stops;
  }
  throw new Error(`Tab never reached ${target}; it went through ${stops.map((stop) => stop.name).join(', ')}`);
}

const LINES = [
  { type: 'company', key: 'initech.example', properties: { name: 'Initech Labs' } },
  { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
  {
    type: 'source',
    key: 'https://reviews.example/initech',
    properties: {
      title: 'Initech Labs pricing review',
      publishedAt: '2026-05-01',
      content: 'Initech Labs pricing starts at $29 per seat per month for small finance teams. Reviewers compared Initech Labs with Globex.',
    },
  },
  {
    type: 'source',
    key: 'https://initech.example/pricing',
    properties: { title: 'Initech Labs pricing', publishedAt: '2026-06-01', content: 'Initech Labs pricing has three plans for finance teams of every size.' },
  },
];

describe('signed out', () => {
  test('sign-up, empty and refused; sign-in, empty and refused; a page that does not exist', async () => {
    await open('/dashboard/sign-up');
    await expectAccessible('sign-up');
    await fillSignUp(page, 'not-an-email@', 'short');
    // The browser's own checks would stop a bad email before the server sees it.
    await page.locator('form').first().evaluate((form) => form.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('#form-errors').waitFor();
    await expectAccessible('sign-up-refused');

    await open('/dashboard/sign-in');
    await expectAccessible('sign-in');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await expectAccessible('sign-in-refused');

    await open('/dashboard/invite?token=not-a-token');
    await expectAccessible('invite-invalid');
    await open('/dashboard/no-such-page');
    await expectAccessible('not-found');
  });

  test('keyboard: sign in with Tab, typing and Enter alone; the skip link moves focus to the content', async () => {
    await open('/dashboard/sign-in');
    const first = await tabTo('a "Skip to content"', 1);
    expect(first[0]!.ring).toBe(true);
    expect(await page.locator('.skip-link').evaluate((link) => link.getBoundingClientRect().left >= 0)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    const stops = await tabTo('input #field-email', 5);
    expect(stops.every((stop) => stop.ring)).toBe(true);
    await page.keyboard.type('nobody@example.com');
    await tabTo('input #field-password', 1);
    await page.keyboard.type('wrong password');
    const button = await tabTo('button "Sign in"', 1);
    expect(button[0]!.ring).toBe(true);
    await page.keyboard.press('Enter');
    // Refused: focus moves to the message, so it is read out.
    await page.getByRole('alert').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('form-errors');
  });
});

describe('signed in', () => {
  let key = '';
  let inviteLink = '';

  test('onboarding: empty, refused, then complete; the overview with and without the banner', async () => {
    await open('/dashboard/sign-up');
    await fillSignUp(page, `ada-a11y-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard/onboarding');
    await expectAccessible('onboarding-empty');

    await open('/dashboard');
    await expectAccessible('overview-onboarding-banner');

    await open('/dashboard/onboarding');
    await page.getByLabel('Company domain').fill('not a domain');
    await page.getByRole('button', { name: 'Save sales profile' }).click();
    await page.locator('#form-errors').waitFor();
    await expectAccessible('onboarding-refused');

    await fillSalesProfile(page);
    await page.getByRole('button', { name: 'Save sales profile' }).click();
    await page.getByText('Saved. Your sales profile is complete').waitFor();
    await expectAccessible('onboarding-saved');
    await open('/dashboard');
    await expectAccessible('overview');
  });

  test('empty states: keys, team, approvals, objects, runs, watches, changes, research, briefs, MCP clients', async () => {
    for (const [name, path] of [
      ['keys-empty', '/dashboard/settings/keys'],
      ['team-alone', '/dashboard/team'],
      ['approvals-empty', '/dashboard/approvals'],
      ['approvals-history-empty', '/dashboard/approvals?tab=history'],
      ['objects-empty', '/dashboard/objects'],
      ['runs-empty', '/dashboard/runs'],
      ['watches-empty', '/dashboard/watches'],
      ['changes-empty', '/dashboard/changes'],
      ['changes-digest-empty', '/dashboard/changes?view=week'],
      ['research-form', '/dashboard/research'],
      ['briefs-empty', '/dashboard/briefs'],
      ['connections-empty', '/dashboard/settings/connections'],
    ] as const) {
      await open(path);
      await expectAccessible(name);
    }
  });

  test('keyboard: create a key and copy it with Tab, typing, Enter and Space alone', async () => {
    await open('/dashboard/settings/keys');
    const stops = await tabTo('a "API keys"');
    // The skip link, the brand and every navigation link come first, each with its focus ring.
    expect(stops.map((stop) => stop.name).slice(0, 3)).toEqual(['a "Skip to content"', 'a "Recon"', 'a "Overview"']);
    expect(stops.every((stop) => stop.ring)).toBe(true);
    const more = await tabTo('input #field-name');
    expect(more.map((stop) => stop.name)).toContain('button "Sign out"');
    expect(more.every((stop) => stop.ring)).toBe(true);
    await page.keyboard.type('Keyboard');
    await page.keyboard.press('Enter');
    await page.locator('#new-key').waitFor();
    key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^rk_live_/);
    await expectAccessible('keys-created');
    // The copy button is next after the key; Space presses it like a click.
    await page.locator('#main').focus();
    const copy = await tabTo('button "Copy"', 10);
    expect(copy.at(-1)!.ring).toBe(true);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Copied' }).waitFor();
  });

  test('content: keys (and one refused) and their confirmations, team and an invitation, the invitation signed out', async () => {
    await open('/dashboard/settings/keys');
    await expectAccessible('keys-list');
    // No name and no scope: both fields refused, side by side.
    for (const box of await page.getByRole('checkbox').all()) await box.uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#form-errors').waitFor();
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible('keys-refused');
    await page.getByRole('link', { name: 'Replace Keyboard' }).click();
    await expectAccessible('keys-replace-confirm');
    await open('/dashboard/settings/keys');
    await page.getByRole('link', { name: 'Revoke Keyboard' }).click();
    await expectAccessible('keys-revoke-confirm');

    await open('/dashboard/team');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    inviteLink = (await page.locator('#invite-link').textContent())!.trim();
    await expectAccessible('team-invitation');

    const stranger = await (await browser.newContext()).newPage();
    watchConsole(stranger);
    await stranger.goto(inviteLink);
    await expectAccessible('invite', stranger);
    await stranger.locator('form').first().evaluate((form) => form.setAttribute('novalidate', ''));
    await stranger.getByRole('button').last().click();
    await stranger.locator('#form-errors').waitFor();
    await expectAccessible('invite-refused', stranger);
    await stranger.context().close();
  });

  test('content: approvals pending, one request, history; objects found and one object', async () => {
    const imported = await api('/api/v1/oms/objects/import', key, {
      method: 'POST',
      body: LINES.map((line) => JSON.stringify(line)).join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(await imported.json()).toMatchObject({ failed: 0 });
    for (const name of ['Globex Corporation', 'Globex Inc.']) {
      const requested = await api('/api/v1/oms/actions', key, {
        method: 'POST',
        body: JSON.stringify({ action: 'update_properties', params: { type: 'company', key: 'globex.com', properties: { name } }, reason: 'Their legal name.' }),
      });
      expect(requested.status).toBe(202);
    }

    await open('/dashboard/approvals');
    await expectAccessible('approvals-pending');
    await page.getByRole('link', { name: 'Update properties' }).first().click();
    await expectAccessible('approval-request');
    await open('/dashboard/approvals');
    await page.getByRole('button', { name: /^Approve / }).first().click();
    await page.getByText('Request approved and applied.').waitFor();
    await expectAccessible('approvals-applied');
    await open('/dashboard/approvals?tab=history');
    await expectAccessible('approvals-history');

    await open('/dashboard/objects');
    await page.getByLabel('Type').selectOption('company');
    await page.getByLabel('Words').fill('globex');
    await page.getByRole('button', { name: 'Search' }).click();
    // Whichever of the two names was approved first.
    const found = page.getByRole('main').getByRole('link', { name: /^Globex (Corporation|Inc\.)$/ });
    await found.waitFor();
    await expectAccessible('objects-found');
    await found.click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await expectAccessible('object');
  });

  test('content: research refused, a brief, competitors; the briefs list and a brief', async () => {
    await open('/dashboard/research');
    await page.getByLabel('Topic', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Research', exact: true }).click();
    await page.locator('#form-errors').waitFor();
    await expectAccessible('research-refused');

    await page.getByLabel('Topic', { exact: true }).fill('Initech Labs pricing');
    await page.getByLabel(/^Lite/).check();
    await page.getByRole('button', { name: 'Research', exact: true }).click();
    await page.getByRole('article', { name: 'Brief' }).waitFor();
    await expectAccessible('research-brief');

    await page.getByLabel('Company', { exact: true }).fill('initech.example');
    await page.getByRole('button', { name: 'Analyse competitors' }).click();
    await page.getByRole('article', { name: 'Competitors' }).waitFor();
    await expectAccessible('research-competitors');

    await open('/dashboard/briefs');
    await expectAccessible('briefs-list');
    await page.getByRole('link', { name: 'Initech Labs pricing' }).first().click();
    await page.getByRole('article', { name: 'Brief' }).waitFor();
    await expectAccessible('brief');
  });

  test('content: runs and a completed report; watches, a watch and its cancel confirmation', async () => {
    const started = await api('/api/v1/commands/gtm-audit', key, { method: 'POST', body: JSON.stringify({ focus: ['pricing'] }) });
    expect(started.status).toBe(202);
    const id = started.headers.get('X-Run-Id')!;
    await open(`/dashboard/runs/${id}`);
    await expectAccessible('run-running');
    await page.getByRole('article', { name: 'Report' }).waitFor({ timeout: 60_000 });
    await expectAccessible('run-report');
    await open('/dashboard/runs');
    await expectAccessible('runs-list');

    const created = await api('/api/v1/oms/watches', key, {
      method: 'POST',
      body: JSON.stringify({ target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 9000 }),
    });
    expect(created.status).toBe(201);
    const watch = (await created.json()) as { id: string };
    await untilFirstExecution(server.url, key, watch.id);
    await open('/dashboard/watches');
    await expectAccessible('watches-list');
    await open(`/dashboard/watches/${watch.id}`);
    await expectAccessible('watch');
    await open(`/dashboard/watches/${watch.id}/cancel`);
    await expectAccessible('watch-cancel-confirm');
  });

  test("an MCP client's consent page, refused with no scope, then allowed; the MCP clients page with it", async () => {
    const redirectUri = 'http://127.0.0.1:9/callback';
    const registered = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Recon a11y client',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id } = (await registered.json()) as { client_id: string };
    // The client's own address: answered here, so the redirect after Allow goes nowhere.
    await context.route(`${redirectUri}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html lang="en"><title>Client</title></html>' }));
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: redirectUri,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 'a11y',
    });
    await open(`/dashboard/oauth/authorize?${query.toString()}`);
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    await expectAccessible('consent');
    for (const box of await page.getByRole('checkbox').all()) await box.uncheck();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.locator('#form-errors').waitFor();
    await expectAccessible('consent-refused');
    await page.getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${redirectUri}**`);

    await open('/dashboard/settings/connections');
    await page.getByRole('button', { name: 'Revoke Recon a11y client' }).waitFor();
    await expectAccessible('connections');
  });

  test('no page broke its Content-Security-Policy or threw while axe ran', () => {
    expect(consoleErrors).toEqual([]);
  });
});
