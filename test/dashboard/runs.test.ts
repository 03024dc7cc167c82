import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { startEarlyInWindow } from '../helpers/rate-window.ts';
import { Browser, count, finishedProfileForm } from './browser.ts';
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

  it('shows a running run with its progress bar (steps done of total), a reload link and a cancel button, and its report once it has finished', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const run = await heldRun(mine.org.id);
    const running = await page(mine.browser, `/dashboard/runs/${run.id}`);
    expect(running.status).toBe(200);
    // No meta refresh (axe counts it as critical): the script polls, and a link reloads without scripts.
    expect(running.html).not.toContain('http-equiv="refresh"');
    expect(running.html).toContain(`<section aria-labelledby="progress-title" class="run-progress" data-run-progress="/dashboard/runs/${run.id}/progress">`);
    expect(running.html).toContain('<p role="status" data-run-line="">Running gtm-audit for acme.com: step 1 of 2 (pricing)</p>');
    expect(running.html).toContain('<p><progress max="2" value="0" aria-label="Steps done">0 of 2</progress> <span data-run-count="">0 of 2 steps done</span></p>');
    expect(running.html).toContain(`<a href="/dashboard/runs/${run.id}">reload the page</a>`);
    expect(running.html).toContain(`<form method="post" action="/dashboard/runs/cancel/${run.id}"><button type="submit" class="danger">Cancel this run</button></form>`);
    expect(running.html).toContain('<dt>Status</dt><dd>running</dd>');
    expect(running.html).toContain('<dt>Finished</dt><dd>—</dd>');
    expect(running.html).not.toContain('<article');
    expect(running.html).not.toContain('<svg');
    expectOnlyDashboardScript(running.html);

    run.release();
    await finishRun(run.id);
    const finished = await page(mine.browser, `/dashboard/runs/${run.id}`);
    expect(finished.html).toContain('<dt>Status</dt><dd>completed</dd>');
    expect(finished.html).not.toContain('data-run-progress');
    expect(finished.html).not.toContain('/dashboard/runs/cancel/');
    expect(finished.html).toContain('<article class="markdown" aria-label="Report"><h2>GTM audit: Acme Analytics</h2>');
  });

  it('answers the progress of a run as JSON for the page script: steps done of total, the status line, when to ask again', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const run = await heldRun(mine.org.id, ['pricing', 'icp', 'content']);
    const response = await mine.browser.get(`/dashboard/runs/${run.id}/progress`, { Accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.json()).toEqual({
      id: run.id,
      kind: 'gtm-audit',
      status: 'running',
      stepsDone: 0,
      stepsTotal: 3,
      line: 'Running gtm-audit for acme.com: step 1 of 3 (pricing)',
      retryAfter: 2,
    });
    run.release();
    await finishRun(run.id);
    const done = await (await mine.browser.get(`/dashboard/runs/${run.id}/progress`)).json();
    expect(done).toEqual({ id: run.id, kind: 'gtm-audit', status: 'completed', stepsDone: 3, stepsTotal: 3, line: '', retryAfter: null });

    // Another organization's run is not found; a visitor without a session is sent to sign in.
    const other = await dashboardOrganization();
    expect((await other.browser.get(`/dashboard/runs/${run.id}/progress`)).status).toBe(404);
    const anonymous = await new Browser().get(`/dashboard/runs/${run.id}/progress`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('Location')).toBe(`/dashboard/sign-in?next=${encodeURIComponent(`/dashboard/runs/${run.id}/progress`)}`);
  });

  it('cancels a running run from its page (a form post from this site only), keeping what was done', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const run = await heldRun(mine.org.id);
    const forged = await mine.browser.post(`/dashboard/runs/cancel/${run.id}`, {}, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect((await (await mine.browser.get(`/dashboard/runs/${run.id}/progress`)).json<{ status: string }>()).status).toBe('running');
    const other = await dashboardOrganization();
    expect((await other.browser.post(`/dashboard/runs/cancel/${run.id}`)).status).toBe(404);
    expect((await (await mine.browser.get(`/dashboard/runs/${run.id}/progress`)).json<{ status: string }>()).status).toBe('running');

    const cancelled = await mine.browser.post(`/dashboard/runs/cancel/${run.id}`);
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('Location')).toBe(`/dashboard/runs/${run.id}`);
    const shown = await page(mine.browser, `/dashboard/runs/${run.id}`);
    expect(shown.html).toContain('<dt>Status</dt><dd>cancelled</dd>');
    expect(shown.html).toContain('Cancelled</strong> after 0 of 2 steps');
    expect((await call(`/api/v1/runs/gtm-audit/${run.id}`, { key: mine.key })).headers.get('X-Run-Status')).toBe('cancelled');
    run.release();
  });

  it('starts a gtm-audit from the form with a company and focus areas, as the API does, and opens its page', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const list = await page(mine.browser, '/dashboard/runs');
    expect(list.html).toContain('<form method="post" action="/dashboard/runs/gtm-audit" novalidate="">');
    expect(list.html).toContain('<label for="field-company">Company domain</label>');
    expect(list.html).toContain('<input type="checkbox" name="focus" value="pricing" id="focus-pricing" checked=""/> <label for="focus-pricing">Pricing</label>');

    const started = await mine.browser.post('/dashboard/runs/gtm-audit', { company: ' acme.com ', focus: ['pricing', 'positioning'] });
    expect(started.status).toBe(303);
    const id = /^\/dashboard\/runs\/([0-9a-f]{64})$/.exec(started.headers.get('Location')!)![1]!;
    expect(await count("SELECT count(*) AS n FROM runs WHERE id = ? AND organization_id = ? AND kind = 'gtm-audit'", id, mine.org.id)).toBe(1);
    // The run the API sees: the same arguments, one step per area asked for, in the order asked.
    const progress = await (await mine.browser.get(`/dashboard/runs/${id}/progress`)).json();
    expect(progress).toMatchObject({ id, kind: 'gtm-audit', stepsTotal: 2 });
    const listed = (await (await call('/api/v1/runs?kind=gtm-audit', { key: mine.key, headers: { Accept: 'application/json' } })).json()) as { runs: { id: string; args: Record<string, unknown> }[] };
    expect(listed.runs.find((run) => run.id === id)?.args).toMatchObject({ company: 'acme.com', focus: ['pricing', 'positioning'] });
    await finishRun(id);
    const finished = await page(mine.browser, `/dashboard/runs/${id}`);
    expect(finished.html).toContain('<h1>GTM audit of acme.com</h1>');
    expect(finished.html).toContain('<dt>Status</dt><dd>completed</dd>');
  });

  it('starts a gtm-audit of your own company over every area when the company is empty and no area is checked', async () => {
    const mine = await dashboardOrganization();
    const started = await mine.browser.post('/dashboard/runs/gtm-audit', { company: '' });
    expect(started.status).toBe(303);
    const id = /([0-9a-f]{64})$/.exec(started.headers.get('Location')!)![1]!;
    const progress = await (await mine.browser.get(`/dashboard/runs/${id}/progress`)).json();
    expect(progress).toMatchObject({ kind: 'gtm-audit', stepsTotal: 6 });
    const shown = await page(mine.browser, `/dashboard/runs/${id}`);
    // The sales profile's own domain (FINISHED_PROFILE).
    expect(shown.html).toContain('<dt>Target</dt><dd>acme.com</dd>');
  });

  it('refuses a gtm-audit with a company that is not a domain or an unknown area (400, the message beside the field), writing no run', async () => {
    const mine = await dashboardOrganization();
    const refused = await mine.browser.post('/dashboard/runs/gtm-audit', { company: 'not a <b>domain</b>', focus: ['pricing', 'astrology'] });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain('<div class="alert alert-error" role="alert" tabindex="-1" id="form-errors">');
    expect(html).toMatch(/<p class="error" id="field-company-error">[^<]*domain[^<]*<\/p>/);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('<p class="error" id="focus-error">');
    // What was typed comes back, as text.
    expect(html).toContain('value="not a &lt;b&gt;domain&lt;/b&gt;"');
    expect(await count('SELECT count(*) AS n FROM runs WHERE organization_id = ?', mine.org.id)).toBe(0);

    const notOnboarded = await dashboardOrganization({ onboarded: false });
    const early = await notOnboarded.browser.post('/dashboard/runs/gtm-audit', { company: 'acme.com' });
    expect(early.status).toBe(428);
    expect(await early.text()).toContain('/dashboard/onboarding');
    const forged = await mine.browser.post('/dashboard/runs/gtm-audit', { company: 'acme.com' }, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect(await count('SELECT count(*) AS n FROM runs WHERE organization_id IN (?, ?)', mine.org.id, notOnboarded.org.id)).toBe(0);
  });

  it("refuses a start past the minute's commands (429, shown on the page), as the API counts a key's, writing no run", async () => {
    const mine = await dashboardOrganization();
    // The person's command budget (60 a minute, wrangler.toml).
    await startEarlyInWindow(10_000);
    for (let i = 0; i < 60; i++) await env.COMMAND_RATE_LIMITER.limit({ key: mine.userId });
    for (const [path, form] of [['/dashboard/runs/gtm-audit', { company: 'acme.com' }], ['/dashboard/runs/audit', {}]] as const) {
      const limited = await mine.browser.post(path, form);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
      const html = await limited.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain('used up its command calls for this minute');
    }
    expect(await count('SELECT count(*) AS n FROM runs WHERE organization_id = ?', mine.org.id)).toBe(0);
  });

  it("draws a finished gtm-audit's scorecard as an SVG bar chart with role, name and a text equivalent matching the report", async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const id = await startGtmAudit(mine.key, ['pricing', 'icp', 'positioning']);
    await finishRun(id);
    const markdown = await (await call(`/api/v1/runs/gtm-audit/${id}`, { key: mine.key })).text();
    const card = markdown.slice(markdown.indexOf('## Scorecard'), markdown.indexOf('\n## ', markdown.indexOf('## Scorecard') + 3));
    const rows = [...card.matchAll(/^\| ([^|]+?) \| ([^|]+?) \|/gm)].map((m) => [m[1]!, m[2]!]).filter(([area]) => area !== 'Area' && area !== '---');
    expect(rows.map(([area]) => area)).toEqual(['Pricing', 'Ideal customer profile', 'Positioning']);

    const { html } = await page(mine.browser, `/dashboard/runs/${id}`);
    const svg = /<svg\b[^>]*>[\s\S]*?<\/svg>/.exec(html)![0];
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" role="img" aria-label="Scores of the GTM audit of acme.com, out of 100" /);
    expect(svg).toContain('<title>Scores of the GTM audit of acme.com, out of 100</title>');
    for (const [area, score] of rows) {
      expect(svg).toContain(`>${area}</text>`);
      expect(svg).toContain(`>${score}</text>`);
    }
    // One filled bar per scored area.
    expect(svg.match(/<rect class="bar"/g)?.length ?? 0).toBe(rows.filter(([, score]) => score !== 'no evidence found').length);
    expect(html).toContain(`<figcaption>Scores out of 100, by area: ${rows.map(([area, score]) => `${area}: ${score}`).join('; ')}.</figcaption>`);
    // The chart comes before the report, and the page still runs only the dashboard's script.
    expect(html.indexOf('<svg')).toBeLessThan(html.indexOf('<article class="markdown"'));
    expectOnlyDashboardScript(html);
  });

  it("draws the organization audit's scorecard too, a hostile company name escaped in the chart's name", async () => {
    const mine = await dashboardOrganization();
    const hostile = 'Acme <script>globalThis.pwned = 1</script> & "Co"';
    expect((await mine.browser.post('/dashboard/onboarding', { ...finishedProfileForm(), companyName: hostile })).status).toBe(303);
    const started = await mine.browser.post('/dashboard/runs/audit');
    const id = /([0-9a-f]{64})$/.exec(started.headers.get('Location')!)![1]!;
    await finishRun(id);
    const { html } = await page(mine.browser, `/dashboard/runs/${id}`);
    const escaped = 'Acme &lt;script&gt;globalThis.pwned = 1&lt;/script&gt; &amp; &quot;Co&quot;';
    expect(html).toContain(`role="img" aria-label="Scores of the audit of ${escaped}, out of 100"`);
    expect(html).toContain(`<title>Scores of the audit of ${escaped}, out of 100</title>`);
    // One bar label per audit step, in the report's order.
    const svg = /<svg\b[\s\S]*?<\/svg>/.exec(html)![0];
    expect([...svg.matchAll(/text-anchor="end"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual(['Sales profile', 'Go-to-market', 'Data in the OMS', 'API keys', 'Approval requests', 'Research watches']);
    expect(html).toMatch(/<figcaption>Scores out of 100, by area: Sales profile: (?:\d+\/100|n\/a); Go-to-market: /);
    expectOnlyDashboardScript(html);
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
