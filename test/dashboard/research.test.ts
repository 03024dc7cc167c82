import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/fixtures.ts';
import { importMarket, MARKET_LINES } from '../helpers/market.ts';
import { startEarlyInWindow } from '../helpers/rate-window.ts';
import { Browser, count } from './browser.ts';
import { dashboardOrganization, expectOnlyDashboardScript, page } from './pages.ts';

const MARKET_URLS = new Set(MARKET_LINES.filter((line) => line.type === 'source').map((line) => line.key));

/** The HTML of the page's rendered answer (the article), and every anchor tag in it. */
function article(html: string, label: string): { html: string; anchors: string[] } {
  const match = new RegExp(`<article class="markdown" aria-label="${label}">([\\s\\S]*?)</article>`).exec(html);
  expect(match, `an article labelled ${label}`).not.toBeNull();
  return { html: match![1]!, anchors: [...match![1]!.matchAll(/<a [^>]*>/g)].map((m) => m[0]) };
}

function hrefOf(anchor: string): string {
  return /href="([^"]*)"/.exec(anchor)![1]!.replace(/&amp;/g, '&');
}

describe('the research page', () => {
  it('shows the research and competitors forms, and is in the navigation', async () => {
    const mine = await dashboardOrganization();
    const { status, html } = await page(mine.browser, '/dashboard/research');
    expect(status).toBe(200);
    expect(html).toContain('<form method="post" action="/dashboard/research">');
    expect(html).toContain('<label for="field-topic">Topic</label>');
    expect(html).toContain('<label for="field-userContext">Context (optional)</label>');
    expect(html).toContain('<input type="radio" id="field-tier-lite" name="tier" value="lite" checked=""');
    expect(html).toContain('<form method="post" action="/dashboard/research/competitors">');
    expect(html).toContain('<label for="field-company">Company</label>');
    expect(html).toContain('aria-current="page">Research</a>');
    expect(html).toContain('<a href="/dashboard/briefs">Briefs</a>');
  });

  it('researches a topic through the research operation and shows the brief with each [n] a link to its source in a new tab', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const response = await mine.browser.post('/dashboard/research', { topic: 'Acme Analytics pricing', userContext: 'We sell to SaaS teams.', tier: 'base' });
    expect(response.status).toBe(200);
    const html = await response.text();
    expectOnlyDashboardScript(html);
    const brief = article(html, 'Brief');
    expect(brief.html).toMatch(/^<h2>[^<]*Acme Analytics pricing/);
    expect(brief.anchors.length).toBeGreaterThan(0);
    for (const anchor of brief.anchors) {
      expect(anchor).toMatch(/^<a href="[^"]+" target="_blank" rel="noopener noreferrer nofollow">$/);
      expect(MARKET_URLS).toContain(hrefOf(anchor));
    }
    // Each marker names its own source: [n] links to the URL of line n of the Sources list.
    const listed = new Map(
      [...brief.html.split('<h3>Sources</h3>')[1]!.matchAll(/<a href="([^"]+)" target="_blank" rel="[^"]+">\[(\d+)\]<\/a> [^\n<]*, ([^\s<]+)(?=\n|<\/p>)/g)].map((m) => {
        expect(m[1]).toBe(m[3]);
        return [m[2]!, m[1]!];
      }),
    );
    expect(listed.size).toBeGreaterThan(1);
    for (const m of brief.html.matchAll(/<a href="([^"]+)" target="_blank" rel="[^"]+">\[(\d+)\]<\/a>/g)) expect(listed.get(m[2]!)).toBe(m[1]);
    // The form keeps what was sent, and the brief is stored and linked.
    expect(html).toContain('value="Acme Analytics pricing"');
    expect(html).toContain('<input type="radio" id="field-tier-base" name="tier" value="base" checked=""');
    const key = /<a href="\/dashboard\/briefs\/(brf_[0-9a-f]+)">open it again later<\/a>/.exec(html)![1]!;
    expect(await count("SELECT count(*) AS n FROM objects WHERE organization_id = ? AND type = 'brief' AND key = ?", mine.org.id, key)).toBe(1);
  });

  it('shows a refused topic beside its field (400), before the sales profile is finished (428), and past the minute\'s commands (429)', async () => {
    const mine = await dashboardOrganization();
    const empty = await mine.browser.post('/dashboard/research', { topic: '   ', tier: 'lite' });
    expect(empty.status).toBe(400);
    const emptyHtml = await empty.text();
    expect(emptyHtml).toMatch(/<p class="error" id="field-topic-error">[^<]+<\/p>/);
    expect(emptyHtml).toContain('aria-invalid="true"');
    expect(emptyHtml).not.toContain('aria-label="Brief"');

    const badTier = await mine.browser.post('/dashboard/research', { topic: 'pricing', tier: 'deep' });
    expect(badTier.status).toBe(400);
    expect(await badTier.text()).toContain('id="form-errors"');

    const fresh = await dashboardOrganization({ onboarded: false });
    const early = await fresh.browser.post('/dashboard/research', { topic: 'pricing', tier: 'lite' });
    expect(early.status).toBe(428);
    expect(await early.text()).toContain("Finish your organization&#39;s sales profile first");
    const earlyCompetitors = await fresh.browser.post('/dashboard/research/competitors', { company: 'acme.com' });
    expect(earlyCompetitors.status).toBe(428);

    // The person's command budget (60 a minute, wrangler.toml), counted as the API counts a key's.
    await startEarlyInWindow(10_000);
    for (let i = 0; i < 60; i++) await env.COMMAND_RATE_LIMITER.limit({ key: mine.userId });
    const limited = await mine.browser.post('/dashboard/research', { topic: 'pricing', tier: 'lite' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain('used up its command calls for this minute');
  });

  it('refuses a post from another site (403) and without a session (to sign-in)', async () => {
    const mine = await dashboardOrganization();
    const crossSite = await mine.browser.post('/dashboard/research', { topic: 'pricing' }, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const anonymous = await new Browser().post('/dashboard/research', { topic: 'pricing' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('Location')).toBe('/dashboard/sign-in');
    expect((await new Browser().get('/dashboard/research')).headers.get('Location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fresearch');
  });

  it('analyses competitors and shows the table with its citations linked', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const response = await mine.browser.post('/dashboard/research/competitors', { company: 'acme.com' });
    expect(response.status).toBe(200);
    const html = await response.text();
    const table = article(html, 'Competitors');
    expect(table.html).toMatch(/^<h2>Competitors of Acme Analytics<\/h2>/);
    expect(table.html).toContain('<td>globex.com</td>');
    expect(table.anchors.length).toBeGreaterThan(0);
    for (const anchor of table.anchors) expect(MARKET_URLS).toContain(hrefOf(anchor));
    expect(html).toContain('value="acme.com"');
  });

  it("keeps a hostile source's <script>, javascript: links and markdown tricks inert on the page", async () => {
    const mine = await dashboardOrganization();
    const hostile = {
      type: 'source',
      key: 'https://reviews.example/initech',
      properties: {
        title: 'Initech pricing review <script>globalThis.pwned = 1</script> [1](javascript:alert(1))',
        publishedAt: '2026-05-01',
        content:
          'Initech Labs pricing starts at $29 per seat per month <script>globalThis.pwned = 1</script> for small teams. ' +
          'Initech Labs pricing is listed [here](javascript:alert(1)) and <img src=x onerror=alert(1)> for every buyer. ' +
          'Initech Labs pricing has [1] a forged citation and\n## Sources\n[1] Evil, evil.example, undated, https://evil.example/ in its text.',
      },
    };
    const imported = await call('/api/v1/oms/objects/import', { key: mine.key, method: 'POST', rawBody: JSON.stringify(hostile), headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(await imported.json()).toMatchObject({ failed: 0 });

    const response = await mine.browser.post('/dashboard/research', { topic: 'Initech Labs pricing', tier: 'lite' });
    expect(response.status).toBe(200);
    const html = await response.text();
    expectOnlyDashboardScript(html);
    const brief = article(html, 'Brief');
    expect(brief.html).toContain('&lt;script&gt;globalThis.pwned = 1&lt;/script&gt;');
    expect(brief.html).not.toMatch(/<img\b|<script\b|<iframe\b/i);
    expect(brief.html).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
    expect(brief.anchors.length).toBeGreaterThan(0);
    // Every link is a citation of the one real source: no javascript:, and never the forged Sources line.
    for (const anchor of brief.anchors) expect(hrefOf(anchor)).toBe('https://reviews.example/initech');
    expect(brief.html).toContain('[here](javascript:alert(1))');
  });
});
