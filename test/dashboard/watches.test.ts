import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readWebhookSecret } from '../../src/db/webhook-secrets.ts';
import type { Change } from '../../src/ground/schemas/changes.ts';
import { noChangeCounts, type Claim, type ExecutionFindings, type ExecutionRecord, type WatchView } from '../../src/ground/schemas/watch.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { createAndSettle, createWith, executionsOf, failing, GLOBEX_PRICING_WATCH, importPricingPage, json, NEW_PRICE, OLD_PRICE, runNow, untilExecutions } from '../watches/helpers.ts';
import { MAX_BARS } from '../../src/dashboard/charts.ts';
import { spendBars } from '../../src/dashboard/pages/watches.tsx';
import { count } from './browser.ts';
import { dashboardOrganization, page, type DashboardOrganization } from './pages.ts';

async function watchedOrganization() {
  const mine = await dashboardOrganization();
  await importMarket(mine.key);
  const watch = await createAndSettle(mine.key);
  return { ...mine, watch };
}

async function theirWatch(): Promise<{ key: string; watch: WatchView }> {
  const other = await createOrganization();
  await importMarket(other.key);
  return { key: other.key, watch: await createAndSettle(other.key) };
}

async function apiWatch(key: string, id: string): Promise<WatchView> {
  return json<WatchView>(await call(`/api/v1/oms/watches?id=${id}`, { key }), 200);
}

describe('the watches page', () => {
  it('lists status, schedule, next run, spend against the cap as a meter, and executions; none of another organization', async () => {
    const mine = await watchedOrganization();
    const theirs = await theirWatch();
    const { status, html } = await page(mine.browser, '/dashboard/watches');
    expect(status).toBe(200);
    const { watch } = mine;
    expect(watch.spentMicros).toBe(3000);
    expect(html).toContain(`<td><a href="/dashboard/watches/${watch.id}">company globex.com</a></td><td>active</td><td>every 1d, lite</td>`);
    expect(html).toMatch(/<td>active<\/td><td>every 1d, lite<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td>/);
    expect(html).toContain(`<meter min="0" max="9000" value="3000" high="7200" optimum="0" aria-label="Spent $0.003 of $0.009">$0.003 of $0.009</meter> $0.003 of $0.009`);
    expect(html).toContain(`aria-label="1 execution of the watch of company globex.com">1</a>`);
    expect(html).not.toContain(theirs.watch.id);
  });

  it('opens a watch with its executions, each linking its brief', async () => {
    const mine = await watchedOrganization();
    const { status, html } = await page(mine.browser, `/dashboard/watches/${mine.watch.id}`);
    expect(status).toBe(200);
    expect(html).toContain('<h1>Watch of company globex.com</h1>');
    expect(html).toContain('<h2>Executions (1)</h2>');
    expect(html).toMatch(/<tr><td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td><td>succeeded<\/td><td>\$0\.003<\/td><td><a href="\/dashboard\/objects\/view\?type=brief&amp;key=[^"]+">/);
    expect(html).toContain(`href="/dashboard/watches/${mine.watch.id}/cancel"`);
  });

  it("shows what changed in each execution's cited claims", async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    await importPricingPage(mine.key, OLD_PRICE);
    const watch = await createAndSettle(mine.key, GLOBEX_PRICING_WATCH);
    await runNow(mine.key, watch.id);
    await importPricingPage(mine.key, NEW_PRICE);
    await runNow(mine.key, watch.id);
    const { html } = await page(mine.browser, `/dashboard/watches/${watch.id}`);
    expect(html).toContain('<th scope="col">Cited claims</th>');
    const cells = [...html.matchAll(/<td>(first reading|no change|\d+ added, \d+ removed)<\/td><\/tr>/g)].map((m) => m[1]);
    expect(cells).toEqual(['1 added, 1 removed', 'no change', 'first reading']);
  });

  it('cancels after a confirmation page: the watch never executes again', async () => {
    const mine = await watchedOrganization();
    const confirm = await page(mine.browser, `/dashboard/watches/${mine.watch.id}/cancel`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain(`<form method="post" action="/dashboard/watches/${mine.watch.id}/cancel"`);
    expect((await apiWatch(mine.key, mine.watch.id)).status).toBe('active');

    const cancelled = await mine.browser.post(`/dashboard/watches/${mine.watch.id}/cancel`);
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('Location')).toBe(`/dashboard/watches/${mine.watch.id}?done=cancelled`);
    const after = await apiWatch(mine.key, mine.watch.id);
    expect(after.status).toBe('cancelled');
    expect(after.nextRunAt).toBeNull();
    expect((await call(`/api/v1/oms/watches/run?id=${mine.watch.id}`, { key: mine.key, method: 'POST' })).status).toBe(409);

    const { html } = await page(mine.browser, `/dashboard/watches/${mine.watch.id}?done=cancelled`);
    expect(html).toContain('Cancelled. This watch never executes again.');
    expect(html).toContain('<dt>Status</dt><dd>cancelled</dd>');
    expect(html).not.toContain('Cancel this watch');
    // The confirmation of a cancelled watch goes back to it.
    expect((await mine.browser.get(`/dashboard/watches/${mine.watch.id}/cancel`)).status).toBe(303);
  });

  it("answers 404 for another organization's watch, and its cancel changes nothing", async () => {
    const mine = await dashboardOrganization();
    const theirs = await theirWatch();
    for (const path of [`/dashboard/watches/${theirs.watch.id}`, `/dashboard/watches/${theirs.watch.id}/cancel`, '/dashboard/watches/wch_nope']) {
      const { status, html } = await page(mine.browser, path);
      expect(status).toBe(404);
      expect(html).toContain('<h1>Not found</h1>');
    }
    const refused = await mine.browser.post(`/dashboard/watches/${theirs.watch.id}/cancel`);
    expect(refused.status).toBe(404);
    expect((await apiWatch(theirs.key, theirs.watch.id)).status).toBe('active');
  });

  it('refuses a cancel posted from another site', async () => {
    const mine = await watchedOrganization();
    const forged = await mine.browser.post(`/dashboard/watches/${mine.watch.id}/cancel`, {}, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect((await apiWatch(mine.key, mine.watch.id)).status).toBe('active');
  });
});

/** The create form as a person fills it in: Globex every day, lite, a cap of 9000 micros. */
function createForm(fields: Record<string, string> = {}): Record<string, string> {
  return { target: 'globex.com', frequency: '1d', tier: 'lite', costCapMicros: '9000', 'sourcePolicy.include': '', 'sourcePolicy.exclude': '', 'webhook.url': '', ...fields };
}

async function watchRows(organizationId: string): Promise<number> {
  return count('SELECT count(*) AS n FROM watches WHERE organization_id = ?', organizationId);
}

async function marketDashboard(): Promise<DashboardOrganization> {
  const mine = await dashboardOrganization();
  await importMarket(mine.key);
  return mine;
}

describe('creating a watch from the watches page', () => {
  it('shows the form with each field labelled, the tiers with their prices and what the cap pays for', async () => {
    const mine = await dashboardOrganization();
    const { status, html } = await page(mine.browser, '/dashboard/watches');
    expect(status).toBe(200);
    expect(html).toContain('<form method="post" action="/dashboard/watches" novalidate="">');
    for (const [name, label] of [
      ['target', 'Company domain'],
      ['frequency', 'Frequency'],
      ['costCapMicros', 'Cost cap (micros)'],
      ['sourcePolicy-include', 'Only sources from (optional)'],
      ['sourcePolicy-exclude', 'Never sources from (optional)'],
      ['webhook-url', 'Webhook URL (optional)'],
    ]) {
      expect(html).toContain(`<label for="field-${name}">${label}</label>`);
    }
    expect(html).toContain('<label for="tier-lite">lite, $0.003 per execution</label>');
    expect(html).toContain('<label for="tier-base">base, $0.01 per execution</label>');
    expect(html).toContain('Each execution costs lite $0.003, base $0.01. A cap of 90000 micros ($0.09) pays for 30 lite execution(s).');
  });

  it('creates the watch through the operation of POST /api/v1/oms/watches, with every setting, and opens it', async () => {
    const mine = await marketDashboard();
    const created = await mine.browser.post(
      '/dashboard/watches',
      createForm({ frequency: '6h', tier: 'base', costCapMicros: '30000', 'sourcePolicy.include': 'globex.com\nexample.org', 'sourcePolicy.exclude': 'reddit.com' }),
    );
    expect(created.status).toBe(303);
    const id = /^\/dashboard\/watches\/(wch_[A-Za-z0-9_-]+)\?done=created$/.exec(created.headers.get('Location')!)![1]!;
    const watch = await apiWatch(mine.key, id);
    expect(watch).toMatchObject({
      target: { type: 'company', key: 'globex.com' },
      frequency: '6h',
      tier: 'base',
      costCapMicros: 30000,
      sourcePolicy: { include: ['globex.com', 'example.org'], exclude: ['reddit.com'] },
      webhook: null,
    });
    await untilExecutions(id, 1);
    const { status, html } = await page(mine.browser, `/dashboard/watches/${id}?done=created`);
    expect(status).toBe(200);
    expect(html).toContain('Created. Its first execution runs now; reload to see it.');
    expect(html).toContain('<dt>Schedule</dt><dd>every 6h, tier base</dd>');
    expect(html).toContain('<dt>Sources</dt><dd>only globex.com, example.org; never reddit.com</dd>');
    expect(html).toContain('<dt>Webhook</dt><dd>none</dd>');
  });

  it('creates a watch with its own ignore patterns and webhook kinds, shows them, and refuses a pattern that could take exponential time beside its field', async () => {
    const mine = await marketDashboard();
    const refused = await mine.browser.post('/dashboard/watches', createForm({ ignore: '\\d+ open tickets\n(a+)+$' }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/<p class="error" id="field-ignore-error">[^<]*\(a\+\)\+\$[^<]*<\/p>/);
    expect(await watchRows(mine.org.id)).toBe(0);

    const created = await mine.browser.post('/dashboard/watches', createForm({ ignore: '\\d+ open tickets\nToday, [^.]*', 'webhook.url': 'http://127.0.0.1:9/recon', 'webhook.kinds': 'pricing, hiring' }));
    expect(created.status).toBe(200);
    const id = /href="\/dashboard\/watches\/(wch_[^"]+)">Open the watch<\/a>/.exec(await created.text())![1]!;
    const watch = await apiWatch(mine.key, id);
    expect(watch.ignore).toEqual(['\\d+ open tickets', 'Today, [^.]*']);
    expect(watch.webhook).toEqual({ url: 'http://127.0.0.1:9/recon', kinds: ['pricing', 'hiring'] });
    const shown = await page(mine.browser, `/dashboard/watches/${id}`);
    expect(shown.html).toContain('<code>\\d+ open tickets</code>');
    expect(shown.html).toContain('only executions with pricing, hiring changes');
  });

  it("shows the organization's new webhook secret once, on the answer of the create that made it", async () => {
    const mine = await marketDashboard();
    const created = await mine.browser.post('/dashboard/watches', createForm({ 'webhook.url': 'http://127.0.0.1:9/recon' }));
    expect(created.status).toBe(200);
    const html = await created.text();
    const secret = (await readWebhookSecret(env.DB, mine.org.id))!;
    expect(secret).not.toBeNull();
    expect(html).toMatch(/<code>whsec_[^<]+<\/code>/);
    const id = /href="\/dashboard\/watches\/(wch_[^"]+)">Open the watch<\/a>/.exec(html)![1]!;
    expect((await apiWatch(mine.key, id)).webhook).toEqual({ url: 'http://127.0.0.1:9/recon', kinds: [] });
    const again = await page(mine.browser, `/dashboard/watches/${id}`);
    expect(again.html).toContain('<dt>Webhook</dt><dd>http://127.0.0.1:9/recon</dd>');
    expect(again.html).not.toMatch(/whsec_/);
  });

  it("shows the API's refusals beside their fields, keeps what was typed, and writes nothing", async () => {
    const mine = await marketDashboard();
    const refused = await mine.browser.post(
      '/dashboard/watches',
      createForm({ frequency: '90m', costCapMicros: '100', 'sourcePolicy.exclude': 'https://reddit.com/r/x', 'webhook.url': 'http://hooks.example.com/recon' }),
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/<p class="error" id="field-frequency-error">[^<]*must be a whole number and a unit[^<]*<\/p>/);
    expect(html).toMatch(/<p class="error" id="field-costCapMicros-error">[^<]*3000[^<]*<\/p>/);
    expect(html).toMatch(/<p class="error" id="field-sourcePolicy-exclude-error">[^<]*bare domain[^<]*<\/p>/);
    expect(html).toContain('aria-invalid="true" aria-describedby="field-frequency-hint field-frequency-error"');
    expect(html).toContain('value="90m"');
    expect(html).toContain('https://reddit.com/r/x</textarea>');

    const badHook = await mine.browser.post('/dashboard/watches', createForm({ 'webhook.url': 'http://hooks.example.com/recon' }));
    expect(badHook.status).toBe(400);
    expect(await badHook.text()).toMatch(/<p class="error" id="field-webhook-url-error">[^<]*must use https[^<]*<\/p>/);

    expect(await watchRows(mine.org.id)).toBe(0);
    expect(await readWebhookSecret(env.DB, mine.org.id)).toBeNull();
  });

  it('refuses a create posted from another site, and writes nothing', async () => {
    const mine = await marketDashboard();
    const forged = await mine.browser.post('/dashboard/watches', createForm(), { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect(await watchRows(mine.org.id)).toBe(0);
  });
});

const HOSTILE: Claim = { text: 'Globex <img src=x onerror=alert(1)> cut prices & "rebranded"', url: 'https://globex.com/news?a=1&b=<2>' };
const UNSAFE_LINK: Claim = { text: 'An old claim </li></ul><script>alert(1)</script>', url: 'javascript:alert(1)' };

describe("a watch's page", () => {
  it('lists the claims each execution added and removed, escaped, each with its source link (only http(s) as a link)', async () => {
    const mine = await marketDashboard();
    let calls = 0;
    const id = await createWith({ ...mine.org, key: mine.key, keyId: mine.keyId }, (real) => async (...args) => {
      const prepared = await real(...args);
      return calls++ === 0 ? prepared : { ...prepared, findings: { since: 'wex_before', changes: [], changeCounts: noChangeCounts(), added: [HOSTILE], removed: [UNSAFE_LINK] } };
    });
    await untilExecutions(id, 1);
    await runNow(mine.key, id);
    const { status, html } = await page(mine.browser, `/dashboard/watches/${id}`);
    expect(status).toBe(200);
    expect(html).toContain('<h2 id="findings-title">What changed</h2>');
    expect(html).toMatch(/<h3>Execution of \d{4}-\d\d-\d\d \d\d:\d\d UTC: no change on the web; cited claims 1 added, 1 removed<\/h3><div class="hint"><h4>Cited claims<\/h4><h5>Added<\/h5>/);
    expect(html).toContain(
      '<li><q>Globex &lt;img src=x onerror=alert(1)&gt; cut prices &amp; &quot;rebranded&quot;</q> (<a href="https://globex.com/news?a=1&amp;b=&lt;2&gt;" rel="noopener noreferrer nofollow">https://globex.com/news?a=1&amp;b=&lt;2&gt;</a>)</li>',
    );
    expect(html).toContain('<h5>Removed</h5><ul><li><q>An old claim &lt;/li&gt;&lt;/ul&gt;&lt;script&gt;alert(1)&lt;/script&gt;</q> (<span>javascript:alert(1)</span>)</li></ul>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('href="javascript:');
  });

  it("shows what each execution found changed on the company's web, by kind (a price as Before | After), with how many more and the flips, the cited claims below", async () => {
    const mine = await marketDashboard();
    const changes: Change[] = [
      { kind: 'pricing', action: 'changed', text: 'Team: $129 per seat.', url: 'https://globex.com/pricing', title: 'Pricing', plan: 'Team', before: '$99', after: '$129' },
      { kind: 'hiring', action: 'opened', text: 'Account Executive <b>', url: 'https://jobs.globex.com/ae', title: 'Account Executive', location: 'Berlin' },
      { kind: 'page', action: 'gone', text: 'Legacy plans', url: 'https://globex.com/legacy', title: 'Legacy plans', lastSeenAt: '2026-11-20T08:00:00.000Z' },
    ];
    const changeCounts = { total: 7, byKind: { pricing: 1, hiring: 3, page: 1, people: 2 }, flips: 2, pagesCompared: 4 };
    let calls = 0;
    const id = await createWith({ ...mine.org, key: mine.key, keyId: mine.keyId }, (real) => async (...args) => {
      const prepared = await real(...args);
      const call = calls++;
      if (call === 0) return prepared;
      // The third as a record made before web changes (no `changes`, no `changeCounts`): none shown.
      if (call === 2) return { ...prepared, findings: { since: 'wex_before', added: [], removed: [HOSTILE] } as unknown as ExecutionFindings };
      return { ...prepared, findings: { since: 'wex_before', changes, changeCounts, added: [HOSTILE], removed: [] } };
    });
    await untilExecutions(id, 1);
    await runNow(mine.key, id);
    await runNow(mine.key, id);
    const { status, html } = await page(mine.browser, `/dashboard/watches/${id}`);
    expect(status).toBe(200);
    expect(html).toContain('<th scope="col">Changes on the web</th>');
    expect([...html.matchAll(/<td>([^<]*)<\/td><td>(?:first reading|no change|\d+ added, \d+ removed)<\/td><\/tr>/g)].map((m) => m[1])).toEqual(['none', '7 (pricing 1, hiring 3, people 2, page 1)', 'first reading']);
    expect(html).toMatch(/<h3>Execution of [^<]+: no change on the web; cited claims 0 added, 1 removed<\/h3><div class="hint">/);
    const section = [...html.matchAll(/<section aria-label="What the execution of [^"]+ found changed">([\s\S]*?)<\/section>/g)].map((m) => m[1]!).find((text) => text.includes('Pricing'))!;
    expect(section).toMatch(/^<h3>Execution of [^<]+: 7 changes on the web; cited claims 1 added, 0 removed<\/h3><h4>Pricing \(1\)<\/h4>/);
    expect(section).toContain('<caption>Price of Team</caption><thead><tr><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody><tr><td>$99</td><td>$129</td></tr></tbody>');
    expect(section).toContain('<h4>Hiring (3)</h4><ul><li>Role opened: Account Executive &lt;b&gt;, Berlin <span class="muted">at</span> <a href="https://jobs.globex.com/ae" rel="noopener noreferrer nofollow">Account Executive</a></li><li class="muted">and 2 more</li></ul>');
    expect(section).toContain('<h4>Pages (1)</h4><ul><li>Page gone: Legacy plans <span class="muted">at</span> <a href="https://globex.com/legacy" rel="noopener noreferrer nofollow">Legacy plans</a><span class="muted"> (last seen 2026-11-20)</span></li></ul>');
    expect(section).toContain('<p class="muted">and 2 more not listed: people 2.</p>');
    expect(section).toContain('<p class="muted">2 sentences flipped back to how they were shortly before: counted, not listed.</p>');
    // The cited claims after the web's changes, smaller.
    expect(section.indexOf('<div class="hint"><h4>Cited claims</h4><h5>Added</h5>')).toBeGreaterThan(section.indexOf('flipped back'));
    expect(section).not.toContain('<h5>Removed</h5>');
  });

  it('charts spend after each execution against the cap: an image with a name, the cap as a line, and a text equivalent', async () => {
    const mine = await marketDashboard();
    const watch = await createAndSettle(mine.key, { ...GLOBEX_PRICING_WATCH, costCapMicros: 9000 });
    await runNow(mine.key, watch.id);
    const { html } = await page(mine.browser, `/dashboard/watches/${watch.id}`);
    const name = 'Spend of the watch of company globex.com after each execution, against its cap of $0.009';
    const svg = /<svg [\s\S]*?<\/svg>/.exec(html)![0];
    expect(svg).toContain(`role="img" aria-label="${name}"`);
    expect(svg).toContain(`<title>${name}</title>`);
    // Two executions of $0.003 against a cap of $0.009: bars of a third and two thirds of the track, the cap's line at its end.
    expect([...svg.matchAll(/<rect class="bar" [^>]*width="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([100, 200]);
    expect(svg).toContain('>$0.003 of $0.009</text>');
    expect(svg).toContain('>$0.006 of $0.009</text>');
    expect(svg).toMatch(/<g class="marker"><line x1="500" [^>]*\/><text [^>]*>cap \$0\.009<\/text><\/g>/);
    expect(svg).not.toMatch(/<script|style=|href=/i);
    expect(html).toMatch(
      /<figcaption>Spend after each execution, oldest first, against the cap of \$0\.009: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: \$0\.003 of \$0\.009; \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: \$0\.006 of \$0\.009 \(cap \$0\.009\)\.<\/figcaption>/,
    );
  });

  it('charts only the latest MAX_BARS executions past them, and says so', async () => {
    const mine = await marketDashboard();
    // Failed executions (the research provider down) are quick and charge nothing, so the bars all stay at $0.
    const id = await createWith({ ...mine.org, key: mine.key, keyId: mine.keyId }, failing);
    await untilExecutions(id, 1);
    for (let i = 0; i < MAX_BARS; i++) await runNow(mine.key, id);
    expect(await executionsOf(id)).toHaveLength(MAX_BARS + 1);
    const { html } = await page(mine.browser, `/dashboard/watches/${id}`);
    const svg = /<svg [\s\S]*?<\/svg>/.exec(html)![0];
    expect(svg.match(/<g>/g)).toHaveLength(MAX_BARS);
    expect(svg).not.toContain('<rect class="bar"');
    expect(html).toContain(`<figcaption>Spend after the latest ${MAX_BARS} executions, oldest first, against the cap of $0.009: `);
  });

  it('runs the watch now through the operation of POST /api/v1/oms/watches/run, and refuses a forged post', async () => {
    const mine = await watchedOrganization();
    expect(mine.watch.spentMicros).toBe(3000);
    const forged = await mine.browser.post(`/dashboard/watches/${mine.watch.id}/run`, {}, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect(await executionsOf(mine.watch.id)).toHaveLength(1);

    const before = await page(mine.browser, `/dashboard/watches/${mine.watch.id}`);
    expect(before.html).toContain(`<form method="post" action="/dashboard/watches/${mine.watch.id}/run"><button type="submit">Run now ($0.003)</button></form>`);
    const ran = await mine.browser.post(`/dashboard/watches/${mine.watch.id}/run`);
    expect(ran.status).toBe(303);
    expect(ran.headers.get('Location')).toBe(`/dashboard/watches/${mine.watch.id}?done=ran`);
    expect(await executionsOf(mine.watch.id)).toHaveLength(2);
    expect((await apiWatch(mine.key, mine.watch.id)).spentMicros).toBe(6000);
    const { html } = await page(mine.browser, `/dashboard/watches/${mine.watch.id}?done=ran`);
    expect(html).toContain('Executed now; its record is the newest below.');
    expect(html).toContain('<h2>Executions (2)</h2>');
  });

  it("shows the API's refusal of a run on a cancelled watch, with its status, and charges nothing", async () => {
    const mine = await watchedOrganization();
    expect((await mine.browser.post(`/dashboard/watches/${mine.watch.id}/cancel`)).status).toBe(303);
    const { html: after } = await page(mine.browser, `/dashboard/watches/${mine.watch.id}`);
    expect(after).not.toContain('Run now');
    const refused = await mine.browser.post(`/dashboard/watches/${mine.watch.id}/run`);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toMatch(/role="alert" tabindex="-1" id="form-errors">Watch wch_[^ ]+ is cancelled/);
    expect(await executionsOf(mine.watch.id)).toHaveLength(1);
    expect((await apiWatch(mine.key, mine.watch.id)).spentMicros).toBe(3000);
  });

  it("answers 404 to a run-now of another organization's watch, which does not execute", async () => {
    const mine = await dashboardOrganization();
    const theirs = await theirWatch();
    const refused = await mine.browser.post(`/dashboard/watches/${theirs.watch.id}/run`);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain('<h1>Not found</h1>');
    expect(await executionsOf(theirs.watch.id)).toHaveLength(1);
  });
});

describe('spendBars (the spend chart of a watch page)', () => {
  const execution = (i: number, costMicros: number): ExecutionRecord => ({
    id: `wex_${i}`,
    watchId: 'wch_x',
    startedAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
    finishedAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString(),
    outcome: costMicros ? 'succeeded' : 'failed',
    costMicros,
    briefKey: null,
    changes: [],
    findings: null,
  });

  it("gives the spend after each of the latest MAX_BARS executions, oldest first, from the watch's spend now; a failed one adds nothing", () => {
    // 60 executions, oldest first: every seventh failed (not charged), the rest 3000 each.
    const oldestFirst = Array.from({ length: 60 }, (_, i) => execution(i, i % 7 === 3 ? 0 : 3000));
    const spent = oldestFirst.reduce((sum, e) => sum + e.costMicros, 0);
    const bars = spendBars({ spentMicros: spent } as WatchView, [...oldestFirst].reverse());
    expect(bars).toHaveLength(MAX_BARS);
    expect(bars.at(-1)).toEqual({ label: '2026-11-01 00:00:59 UTC', value: spent });
    expect(bars[0]!.label).toBe('2026-11-01 00:00:10 UTC');
    const expected = oldestFirst.slice(10).map((_, i) => oldestFirst.slice(0, 11 + i).reduce((sum, e) => sum + e.costMicros, 0));
    expect(bars.map((b) => b.value)).toEqual(expected);
  });
});
