/**
 * The dashboard's runs, watches, approvals and objects pages in real headless Chromium against the
 * real dev server: approve a request, start an audit and read it when it completes, start a
 * gtm-audit from the form and watch its progress bar move to the report and its chart, read a report
 * quoting a source with a script in it (which must not run), cancel a watch, search objects. A
 * screenshot of each page is saved (test-results/screenshots/, names starting with `pages-`).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDevServer, type DevServer } from '../e2e/dev-server.ts';
import { launchChromium, screenshot } from './chromium.ts';
import { callApi, fillSalesProfile, fillSignUp, untilFirstExecution, watchPage } from './flows.ts';

let server: DevServer;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
/** What a hostile source's script would print or show, if it ever ran. */
const pwned: string[] = [];

beforeAll(async () => {
  // A pause between a run's steps (2-3 s, as the schedule rounds up to whole seconds), so the progress bar can be seen moving.
  server = await startDevServer({ knowledgeBase: false, vars: { RUN_STEP_PAUSE_MS: '2000' } });
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  watchPage(page, consoleErrors, pwned);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const api = (path: string, key: string, init: RequestInit = {}) => callApi(server.url, path, key, init);

const SCRIPT = `<script>globalThis.pwned = 1; console.log('pwned by script')</script>`;
const LINES = [
  { type: 'company', key: 'initech.example', properties: { name: 'Initech Labs' } },
  { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
  {
    type: 'source',
    key: 'https://reviews.example/initech',
    properties: {
      title: `Initech Labs pricing review ${SCRIPT} <img src=x onerror="console.log('pwned by img')">`,
      publishedAt: '2026-05-01',
      content:
        `Initech Labs pricing starts at $29 per seat per month ${SCRIPT} for small finance teams. ` +
        `Initech Labs pricing plans are listed [here](javascript:console.log('pwned-by-link')) for every buyer.`,
    },
  },
  {
    type: 'source',
    key: 'https://initech.example/pricing',
    properties: { title: 'Initech Labs pricing', publishedAt: '2026-06-01', content: 'Initech Labs pricing has three plans for finance teams of every size.' },
  },
];

describe('runs, watches, approvals and objects in Chromium', () => {
  let key = '';

  test('set up: sign up, finish the sales profile, create a key, load data through the API', async () => {
    await page.goto(`${server.url}/dashboard/sign-up`);
    await fillSignUp(page, `ada-pages-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard/onboarding');
    await fillSalesProfile(page);
    await page.getByRole('button', { name: 'Save sales profile' }).click();
    await page.getByText('Saved. Your sales profile is complete').waitFor();

    await page.goto(`${server.url}/dashboard/settings/keys`);
    await page.getByLabel('Name').fill('Agent');
    await page.getByRole('button', { name: 'Create key' }).click();
    key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^rk_live_/);

    const imported = await api('/api/v1/oms/objects/import', key, {
      method: 'POST',
      body: LINES.map((line) => JSON.stringify(line)).join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(await imported.json()).toMatchObject({ failed: 0 });
  });

  test('approve a request: the diff, then the change applied', async () => {
    const requested = await api('/api/v1/oms/actions', key, {
      method: 'POST',
      body: JSON.stringify({ action: 'update_properties', params: { type: 'company', key: 'globex.com', properties: { name: 'Globex Corporation' } }, reason: 'Their legal name.' }),
    });
    expect(requested.status).toBe(202);
    const { id } = (await requested.json()) as { id: string };

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Approvals' }).click();
    await page.waitForURL('**/dashboard/approvals');
    const card = page.getByRole('region', { name: 'Update properties' });
    expect(await card.locator('del').textContent()).toBe('Globex');
    expect(await card.locator('ins').textContent()).toBe('Globex Corporation');
    await screenshot(page, 'pages-01-approvals-pending');
    await page.getByRole('button', { name: `Approve ${id}` }).click();
    await page.getByText('Request approved and applied.').waitFor();
    await screenshot(page, 'pages-02-approval-applied');

    const after = (await (await api(`/api/v1/oms/actions?id=${id}`, key)).json()) as { status: string };
    expect(after.status).toBe('applied');
    const object = (await (await api('/api/v1/oms/objects/get', key, { method: 'POST', body: JSON.stringify({ type: 'company', key: 'globex.com' }) })).json()) as {
      properties: { name: string };
    };
    expect(object.properties.name).toBe('Globex Corporation');

    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('cell', { name: 'applied', exact: true }).waitFor();
    await screenshot(page, 'pages-03-approvals-history');
  });

  test('start an audit with the button and read it once it has completed (the page follows the run)', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Runs' }).click();
    await screenshot(page, 'pages-04-runs-empty');
    await page.getByRole('button', { name: 'Start an audit' }).click();
    await page.waitForURL(/\/dashboard\/runs\/[0-9a-f]{64}$/);
    await screenshot(page, 'pages-05-run-started');
    // Running: dashboard.js polls the run's progress and reloads the page once the report is there.
    await page.getByRole('article', { name: 'Report' }).waitFor({ timeout: 60_000 });
    expect(await page.locator('dd').nth(2).textContent()).toBe('completed');
    expect(await page.getByRole('article', { name: 'Report' }).getByRole('heading', { level: 2 }).first().textContent()).toBe('Organization audit: Initech Labs');
    expect(await page.getByRole('img', { name: 'Scores of the audit of Initech Labs, out of 100' }).count()).toBe(1);
    await screenshot(page, 'pages-06-run-completed');

    await page.getByRole('link', { name: 'All runs' }).click();
    await page.getByRole('cell', { name: 'completed', exact: true }).waitFor();
    await screenshot(page, 'pages-07-runs-list');
  });

  test('start a gtm-audit from the form: a progress bar of steps done that moves without a reload, then the report and its scorecard chart', async () => {
    await page.goto(`${server.url}/dashboard/runs`);
    await page.getByLabel('Company domain').fill('initech.example');
    for (const area of ['Channels', 'Content']) await page.getByLabel(area, { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Start a GTM audit' }).click();
    await page.waitForURL(/\/dashboard\/runs\/[0-9a-f]{64}$/);
    // Running (steps 2 s apart): steps done of the four areas asked for.
    const bar = page.getByRole('progressbar', { name: 'Steps done' });
    await bar.waitFor();
    expect(await bar.getAttribute('max')).toBe('4');
    const first = await bar.evaluate((element) => (element as HTMLProgressElement).value);
    expect(first).toBeLessThan(4);
    expect(await page.getByRole('status').textContent()).toMatch(/^Running gtm-audit for initech\.example: step \d of 4/);
    await screenshot(page, 'pages-06a-gtm-audit-running');
    // dashboard.js moves the bar without reloading the page (a mark set on this window survives).
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await page.waitForFunction((before) => {
      const progress = document.querySelector('progress[aria-label="Steps done"]') as HTMLProgressElement | null;
      return progress !== null && progress.value > before;
    }, first, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await screenshot(page, 'pages-06b-gtm-audit-progress');

    // Once it has finished, the page reloads itself with the report and the scorecard drawn.
    await page.getByRole('article', { name: 'Report' }).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('GTM audit of initech.example');
    const chart = page.getByRole('img', { name: 'Scores of the GTM audit of initech.example, out of 100' });
    await chart.waitFor();
    expect(await chart.evaluate((svg) => svg.tagName.toLowerCase())).toBe('svg');
    const caption = (await page.locator('figure.chart figcaption').textContent())!;
    expect(caption).toMatch(/^Scores out of 100, by area: Positioning: [^;]+; Ideal customer profile: [^;]+; Pricing: [^;]+; Competition: [^;]+\.$/);
    await screenshot(page, 'pages-06c-gtm-audit-scorecard');
    expect(consoleErrors).toEqual([]);
  });

  test("a report quoting a source's <script>, <img onerror> and javascript: link runs none of them", async () => {
    const started = await api('/api/v1/commands/gtm-audit', key, { method: 'POST', body: JSON.stringify({ focus: ['pricing'] }) });
    expect(started.status).toBe(202);
    const id = started.headers.get('X-Run-Id')!;
    await page.goto(`${server.url}/dashboard/runs/${id}`);
    await page.getByRole('article', { name: 'Report' }).waitFor({ timeout: 60_000 });
    const report = page.getByRole('article', { name: 'Report' });
    expect(await report.textContent()).toContain(`Initech Labs pricing review ${SCRIPT}`);
    expect(await report.locator('script, img, iframe').count()).toBe(0);
    for (const href of await report.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))) expect(href).toMatch(/^(https?:|mailto:)/);
    // Click the text that would have been the javascript: link, if the report shows it.
    const linkText = report.getByText("[here](javascript:console.log('pwned-by-link'))");
    if (await linkText.count()) await linkText.first().click();
    expect(await page.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
    await screenshot(page, 'pages-08-run-hostile-source');
    expect(pwned).toEqual([]);
  });

  test('watches: spend against the cap, the executions, cancel after confirmation', async () => {
    const created = await api('/api/v1/oms/watches', key, {
      method: 'POST',
      body: JSON.stringify({ target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 9000 }),
    });
    expect(created.status).toBe(201);
    const watch = (await created.json()) as { id: string };
    // Its first execution runs at once.
    await untilFirstExecution(server.url, key, watch.id);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Watches' }).click();
    const meter = page.locator('meter').first();
    expect(await meter.getAttribute('value')).toBe('3000');
    expect(await meter.getAttribute('max')).toBe('9000');
    await screenshot(page, 'pages-09-watches');

    await page.getByRole('link', { name: 'company globex.com', exact: true }).click();
    await page.getByRole('heading', { name: 'Executions (1)' }).waitFor();
    await screenshot(page, 'pages-10-watch-detail');
    await page.getByRole('link', { name: 'Cancel this watch' }).click();
    await screenshot(page, 'pages-11-watch-cancel-confirm');
    await page.getByRole('button', { name: 'Cancel watch' }).click();
    await page.getByText('Cancelled. This watch never executes again.').waitFor();
    const after = (await (await api(`/api/v1/oms/watches?id=${watch.id}`, key)).json()) as { status: string };
    expect(after.status).toBe('cancelled');
  });

  test('watches: create one from the form, see its spend charted against the cap, run it now', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Watches' }).click();
    // A refusal first: the API's message beside the field, nothing created.
    await page.getByLabel('Company domain').fill('globex.com');
    await page.getByLabel('Frequency').fill('90m');
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.locator('#field-frequency-error').waitFor();
    expect(await page.getByLabel('Frequency').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'pages-11a-watch-create-refused');

    await page.getByLabel('Frequency').fill('1d');
    await page.getByLabel('base, $0.01 per execution').check();
    await page.getByLabel('Cost cap (micros)').fill('50000');
    await page.getByLabel('Never sources from (optional)').fill('reddit.com');
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.getByText('Created. Its first execution runs now').waitFor();
    // The first execution runs at once; the page shows it on a reload.
    for (let i = 0; i < 100 && !(await page.getByRole('heading', { name: 'Executions (1)' }).count()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await page.reload();
    }
    await page.getByRole('heading', { name: 'Executions (1)' }).waitFor();
    expect(await page.locator('dl.facts').innerText()).toContain('never reddit.com');

    await page.getByRole('button', { name: 'Run now ($0.01)' }).click();
    await page.getByRole('heading', { name: 'Executions (2)' }).waitFor();
    const chart = page.getByRole('img', { name: 'Spend of the watch of company globex.com after each execution, against its cap of $0.05' });
    expect(await chart.locator('rect.bar').count()).toBe(2);
    expect(await page.locator('figure.chart figcaption').innerText()).toMatch(/\$0\.01 of \$0\.05; .*\$0\.02 of \$0\.05 \(cap \$0\.05\)\.$/);
    await screenshot(page, 'pages-11b-watch-spend-chart');
    expect(consoleErrors).toEqual([]);
  });

  test('objects: search, then an object with provenance and history', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Objects' }).click();
    await page.getByLabel('Type').selectOption('company');
    await page.getByLabel('Words').fill('globex');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Globex Corporation' }).waitFor();
    await screenshot(page, 'pages-12-objects-search');
    await page.getByRole('link', { name: 'Globex Corporation' }).click();
    await page.getByRole('heading', { name: 'History' }).waitFor();
    expect(await page.getByRole('row', { name: /^name Globex Corporation action apr_/ }).count()).toBe(1);
    await screenshot(page, 'pages-13-object-detail');
  });

  test('no page broke its Content-Security-Policy, threw, or ran a source\'s script', () => {
    expect(consoleErrors).toEqual([]);
    expect(pwned).toEqual([]);
  });
});
