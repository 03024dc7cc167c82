/**
 * Research and briefs in real headless Chromium against the real dev server (issue 26, items 1
 * and 2): research a topic from the form and read the cited brief, whose source links open in a
 * new tab without the opener or the referrer; a source quoting a script, an <img onerror> and a
 * javascript: link runs none of them; analyse competitors; find the brief again on the briefs
 * page. A screenshot of each page is saved (test-results/screenshots/, names starting `research-`).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDevServer, type DevServer } from '../e2e/dev-server.ts';
import { launchChromium, screenshot } from './chromium.ts';
import { callApi, fillSalesProfile, fillSignUp, watchPage } from './flows.ts';

let server: DevServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];
/** What a hostile source's script would print or show, if it ever ran. */
const pwned: string[] = [];
/** Requests to the sources' own sites: answered here, so nothing leaves the machine. */
const sourceRequests: { url: string; referer: string | undefined }[] = [];

beforeAll(async () => {
  server = await startDevServer({ knowledgeBase: false });
  browser = await launchChromium();
  context = await browser.newContext();
  await context.route(/^https:\/\/(?:reviews\.example|initech\.example)\//, async (route) => {
    sourceRequests.push({ url: route.request().url(), referer: (await route.request().allHeaders())['referer'] });
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>A source</title><p>The source page.</p>' });
  });
  page = await context.newPage();
  watchPage(page, consoleErrors, pwned);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, key: string, init: RequestInit = {}) => callApi(server.url, path, key, init);

const SCRIPT = `<script>globalThis.pwned = 1; console.log('pwned by script')</script>`;
const SOURCE_URLS = ['https://reviews.example/initech', 'https://initech.example/pricing'];
const LINES = [
  { type: 'company', key: 'initech.example', properties: { name: 'Initech Labs' } },
  { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
  {
    type: 'source',
    key: SOURCE_URLS[0],
    properties: {
      title: `Initech Labs pricing review ${SCRIPT} <img src=x onerror="console.log('pwned by img')">`,
      publishedAt: '2026-05-01',
      content:
        `Initech Labs pricing starts at $29 per seat per month ${SCRIPT} for small finance teams. ` +
        `Initech Labs pricing plans are listed [here](javascript:console.log('pwned-by-link')) for every buyer. ` +
        'Reviewers compared Initech Labs with Globex and found Globex more expensive.',
    },
  },
  {
    type: 'source',
    key: SOURCE_URLS[1],
    properties: { title: 'Initech Labs pricing', publishedAt: '2026-06-01', content: 'Initech Labs pricing has three plans for finance teams of every size.' },
  },
];

describe('research and briefs in Chromium', () => {
  test('set up: sign up, finish the sales profile, load sources through the API', async () => {
    await page.goto(`${server.url}/dashboard/sign-up`);
    await fillSignUp(page, `ada-research-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard/onboarding');
    await fillSalesProfile(page);
    await page.getByRole('button', { name: 'Save sales profile' }).click();
    await page.getByText('Saved. Your sales profile is complete').waitFor();

    await page.goto(`${server.url}/dashboard/settings/keys`);
    await page.getByLabel('Name').fill('Loader');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    const imported = await api('/api/v1/oms/objects/import', key, {
      method: 'POST',
      body: LINES.map((line) => JSON.stringify(line)).join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(await imported.json()).toMatchObject({ failed: 0 });
  });

  test('a refused topic shows its message beside the field', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Research' }).click();
    await page.waitForURL('**/dashboard/research');
    await screenshot(page, 'research-01-form');
    await page.getByLabel('Topic', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Research', exact: true }).click();
    const topic = page.getByLabel('Topic', { exact: true });
    await page.locator('#form-errors').waitFor();
    expect(await topic.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'research-02-refused');
  });

  test('research a topic: the brief, each [n] a link opening its source in a new tab, without opener or referrer', async () => {
    await page.getByLabel('Topic', { exact: true }).fill('Initech Labs pricing');
    await page.getByLabel('Context (optional)').fill('We sell to finance teams.');
    await page.getByLabel(/^Lite/).check();
    await page.getByRole('button', { name: 'Research', exact: true }).click();
    const brief = page.getByRole('article', { name: 'Brief' });
    await brief.waitFor();
    expect(await brief.getByRole('heading', { level: 2 }).first().textContent()).toBe('Research brief: Initech Labs pricing');
    await screenshot(page, 'research-03-brief');

    const citations = brief.getByRole('link', { name: /^\[\d+\]$/ });
    expect(await citations.count()).toBeGreaterThan(1);
    for (const link of await citations.all()) {
      expect(SOURCE_URLS).toContain(await link.getAttribute('href'));
      expect(await link.getAttribute('target')).toBe('_blank');
      expect((await link.getAttribute('rel'))!.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    }
    const first = citations.first();
    const href = (await first.getAttribute('href'))!;
    const [popup] = await Promise.all([context.waitForEvent('page'), first.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(href);
    expect(await popup.evaluate(() => window.opener === null && document.referrer === '')).toBe(true);
    expect(sourceRequests.at(-1)).toEqual({ url: href, referer: undefined });
    await popup.close();

    // The hostile source's text is shown as text, and nothing of it ran.
    expect(await brief.textContent()).toContain(SCRIPT);
    expect(await brief.locator('script, img, iframe').count()).toBe(0);
    for (const link of await brief.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))) expect(SOURCE_URLS).toContain(link);
    expect(await page.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
  });

  test('analyse competitors from the same page', async () => {
    await page.getByLabel('Company', { exact: true }).fill('initech.example');
    await page.getByRole('button', { name: 'Analyse competitors' }).click();
    const table = page.getByRole('article', { name: 'Competitors' });
    await table.waitFor();
    expect(await table.getByRole('heading', { level: 2 }).first().textContent()).toBe('Competitors of Initech Labs');
    await screenshot(page, 'research-04-competitors');
  });

  test('find the brief again on the briefs page, with who wrote it', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Briefs' }).click();
    await page.getByLabel('Words of the topic').fill('initech');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Initech Labs pricing' }).waitFor();
    await screenshot(page, 'research-05-briefs');
    await page.getByRole('link', { name: 'Initech Labs pricing' }).click();
    const brief = page.getByRole('article', { name: 'Brief' });
    await brief.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Brief: Initech Labs pricing');
    expect(await page.locator('dd').first().textContent()).toMatch(/^a research call/);
    expect(await brief.getByRole('link', { name: /^\[\d+\]$/ }).count()).toBeGreaterThan(1);
    await screenshot(page, 'research-06-brief-again');
  });

  test("no page broke its Content-Security-Policy, threw, or ran a source's script", () => {
    expect(consoleErrors).toEqual([]);
    expect(pwned).toEqual([]);
  });
});
