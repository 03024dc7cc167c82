import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { Browser, count } from './browser.ts';
import { dashboardOrganization, expectOnlyDashboardScript, finishRun, heldRun, page } from './pages.ts';

async function startGtmAudit(key: string, focus = ['pricing']): Promise<string> {
  const response = await call('/api/v1/commands/gtm-audit', { key, body: { focus } });
  expect(response.status).toBe(202);
  return response.headers.get('X-Run-Id')!;
}

describe('the runs page', () => {
  it("lists the organization's runs with kind, status, started and finished, and none of another's", async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const other = await createOrganization();
    const done = await startGtmAudit(mine.key);
    await finishRun(done);
    const running = (await heldRun(mine.org.id)).id;
    const theirs = await startGtmAudit(other.key);

    const { status, html } = await page(mine.browser, '/dashboard/runs');
    expect(status).toBe(200);
    expect(html).toContain(`<a href="/dashboard/runs/${done}">acme.com</a></td><td>gtm-audit</td><td>completed</td>`);
    expect(html).toMatch(new RegExp(`<a href="/dashboard/runs/${running}">acme.com</a></td><td>gtm-audit</td><td>running, step 1 of 2 <progress max="2" value="0"`));
    expect(html).toMatch(new RegExp(`/dashboard/runs/${done}">acme.com</a></td><td>gtm-audit</td><td>completed</td><td>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC</td><td>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC</td>`));
    expect(html).not.toContain(theirs);
    expect(html).toContain('aria-current="page">Runs</a>');
  });

  it("answers 404 for another organization's run, a malformed id and an unknown one", async () => {
    const mine = await dashboardOrganization();
    const other = await createOrganization();
    await importMarket(other.key);
    const theirs = await startGtmAudit(other.key);
    for (const id of [theirs, 'nope', env.RUNS.newUniqueId().toString()]) {
      const { status, html } = await page(mine.browser, `/dashboard/runs/${id}`);
      expect(status).toBe(404);
      expect(html).toContain('<h1>Not found</h1>');
      expect(html).not.toContain('GTM audit');
    }
  });

  it('starts an audit with the button and opens its page', async () => {
    const mine = await dashboardOrganization();
    const started = await mine.browser.post('/dashboard/runs/audit');
    expect(started.status).toBe(303);
    const id = /^\/dashboard\/runs\/([0-9a-f]{64})$/.exec(started.headers.get('Location')!)![1]!;
    expect(await count("SELECT count(*) AS n FROM runs WHERE id = ? AND organization_id = ? AND kind = 'audit'", id, mine.org.id)).toBe(1);
    await finishRun(id);
    const finished = await page(mine.browser, `/dashboard/runs/${id}`);
    expect(finished.status).toBe(200);
    expect(finished.html).toContain('<h1>Audit of Acme Analytics</h1>');
    expect(finished.html).toContain('<dt>Status</dt><dd>completed</dd>');
    // The report's markdown as HTML: its title one level down (the page's h1 is the page title), tables, lists.
    expect(finished.html).toContain('<article class="markdown" aria-label="Report"><h2>Organization audit: Acme Analytics</h2>');
    expect(finished.html).toContain('<table>');
    expect(finished.html).not.toContain('http-equiv="refresh"');
  });

  it('shows a running run with its progress, reloading itself, and its report once it has finished', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const run = await heldRun(mine.org.id);
    const running = await page(mine.browser, `/dashboard/runs/${run.id}`);
    expect(running.status).toBe(200);
    expect(running.html).toContain('<meta http-equiv="refresh" content="3"/>');
    expect(running.html).toContain('<p role="status">Running gtm-audit for acme.com: step 1 of 2 (pricing) <progress max="2" value="0" aria-label="Progress">0 of 2</progress></p>');
    expect(running.html).toContain('<dt>Status</dt><dd>running</dd>');
    expect(running.html).toContain('<dt>Finished</dt><dd>—</dd>');
    expect(running.html).not.toContain('<article');

    run.release();
    await finishRun(run.id);
    const finished = await page(mine.browser, `/dashboard/runs/${run.id}`);
    expect(finished.html).not.toContain('http-equiv="refresh"');
    expect(finished.html).toContain('<dt>Status</dt><dd>completed</dd>');
    expect(finished.html).toContain('<article class="markdown" aria-label="Report"><h2>GTM audit: Acme Analytics</h2>');
  });

  it('refuses to start an audit before the sales profile is finished (428, the page says where), writing no run', async () => {
    const mine = await dashboardOrganization({ onboarded: false });
    const response = await mine.browser.post('/dashboard/runs/audit');
    expect(response.status).toBe(428);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('/dashboard/onboarding');
    expect(await count('SELECT count(*) AS n FROM runs WHERE organization_id = ?', mine.org.id)).toBe(0);
  });

  it('sends a signed-out visitor to sign in, and refuses a start posted from another site', async () => {
    const mine = await dashboardOrganization();
    const anonymous = await new Browser().get('/dashboard/runs');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('Location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fruns');
    const forged = await mine.browser.post('/dashboard/runs/audit', {}, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect(await count('SELECT count(*) AS n FROM runs WHERE organization_id = ?', mine.org.id)).toBe(0);
  });
});

describe('a run report with hostile source text', () => {
  const HOSTILE = [
    { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics' } },
    {
      type: 'source',
      key: 'https://evil.example/review',
      properties: {
        title: 'Acme Analytics pricing review <script>globalThis.pwned = 1</script> [x](javascript:alert(1))',
        publishedAt: '2026-05-01',
        content:
          'Acme Analytics pricing is fair <script>globalThis.pwned = 1</script> for small teams today. ' +
          'Acme Analytics pricing plans are listed [here](javascript:alert(1)) from $19 per seat per month. ' +
          'Acme Analytics pricing compares well <img src=x onerror=alert(1)> with rivals this year.',
      },
    },
  ];

  it('never shows a script tag or a javascript: link as live HTML', async () => {
    const mine = await dashboardOrganization();
    const body = HOSTILE.map((line) => JSON.stringify(line)).join('\n');
    const imported = await call('/api/v1/oms/objects/import', { key: mine.key, method: 'POST', rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(await imported.json()).toMatchObject({ failed: 0 });
    const id = await startGtmAudit(mine.key);
    await finishRun(id);

    const { html } = await page(mine.browser, `/dashboard/runs/${id}`);
    // The quote is there, as text.
    expect(html).toContain('[1] Acme Analytics pricing review &lt;script&gt;globalThis.pwned = 1&lt;/script&gt; [x](javascript:alert(1)), evil.example');
    expect(html).toContain('Acme Analytics pricing plans are listed [here](javascript:alert(1)) from $19 per seat per month.');
    expectOnlyDashboardScript(html);
    expect(html).not.toMatch(/<img\b/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/href="(?!https?:|mailto:|\/|#)/i);
    expect(html).not.toContain('href="javascript:');
    // Every link the report has leads to http(s) and leaks nothing.
    const reportHtml = html.slice(html.indexOf('<article class="markdown"'), html.indexOf('</article>'));
    for (const [anchor] of reportHtml.matchAll(/<a [^>]*>/g)) expect(anchor).toMatch(/^<a href="https?:\/\/[^"]+" rel="noopener noreferrer nofollow">$/);
  });

  it('is the same report the API answers, rendered', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const id = await startGtmAudit(mine.key);
    await finishRun(id);
    const markdown = await (await call(`/api/v1/runs/gtm-audit/${id}`, { key: mine.key })).text();
    const title = /^# (.+)$/m.exec(markdown)![1]!;
    const { html } = await page(mine.browser, `/dashboard/runs/${id}`);
    expect(html).toContain(`<h2>${title}</h2>`);
    // Every finding the API quotes is in the page, as text.
    const findings = [...markdown.matchAll(/^- (.+) \[(\d+)\]$/gm)].map((m) => m[1]!);
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) expect(html).toContain(`<li>${finding.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')} [`);
  });
});
