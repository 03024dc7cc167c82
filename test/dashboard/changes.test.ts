import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Change } from '../../src/ground/schemas/changes.ts';
import { isoWeek, weekStart } from '../../src/dashboard/pages/changes.tsx';
import { createOrganization } from '../helpers/fixtures.ts';
import { Browser } from './browser.ts';
import { dashboardOrganization, page } from './pages.ts';

const DAY = 86_400_000;

function daysAgo(days: number, hours = 0): string {
  return new Date(Date.now() - days * DAY - hours * 3_600_000).toISOString();
}

const PRICE: Change = {
  kind: 'pricing',
  action: 'changed',
  text: 'Team plan: $129 per seat per month.',
  url: 'https://globex.com/pricing',
  title: 'Globex pricing',
  plan: 'Team',
  before: '$99',
  after: '$129',
};
const ROLE: Change = { kind: 'hiring', action: 'opened', text: 'Senior Account Executive', url: 'https://jobs.globex.com/ae', title: 'Senior Account Executive', location: 'Berlin' };
const REMOVED: Change = {
  kind: 'customers',
  action: 'removed',
  text: 'Initrode runs its warehouses on Globex.',
  url: 'https://globex.com/customers',
  title: 'Customers',
  lastSeenAt: '2026-11-20T08:00:00.000Z',
};
const NEWS: Change = { kind: 'funding-news', action: 'new-entry', text: 'Hooli raises a Series C', url: 'https://hooli.com/news/series-c', title: 'Hooli raises a Series C' };

interface Seed {
  company: string;
  change: Change;
  detectedAt: string;
}

/** Writes the changes as executions commit them (one execution per row here), straight into `watch_changes`. */
async function seed(organizationId: string, rows: readonly Seed[]): Promise<void> {
  const statements = rows.map((row) => {
    const execution = `wex_${crypto.randomUUID().replaceAll('-', '')}`;
    return env.DB.prepare(
      'INSERT INTO watch_changes (organization_id, id, watch_id, execution_id, company, kind, detected_at, change) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)',
    ).bind(organizationId, `${execution}:9999`, 'wch_seeded', execution, row.company, row.change.kind, row.detectedAt, JSON.stringify(row.change));
  });
  for (let i = 0; i < statements.length; i += 50) await env.DB.batch(statements.slice(i, i + 50));
}

/** The rows of the feed's table: each row's five cells as text (tags dropped). */
function feedRows(html: string): string[][] {
  const body = /<table class="changes">[\s\S]*?<tbody>([\s\S]*)<\/tbody><\/table>/.exec(html)?.[1] ?? '';
  const text = (cell: string) => cell.replace(/<[^>]+>/g, '').trim();
  return [...body.matchAll(/<tr><td>(<time[\s\S]*?)<\/td><td>([\s\S]*?)<\/td><td>(<span class="badge[\s\S]*?)<\/td><td>([\s\S]*?)<\/td><td>((?:<a |<span>)(?:(?!<\/td>)[\s\S])*)<\/td><\/tr>/g)].map((row) =>
    row.slice(1).map(text),
  );
}

async function withChanges() {
  const mine = await dashboardOrganization();
  await seed(mine.org.id, [
    { company: 'globex.com', change: PRICE, detectedAt: daysAgo(1) },
    { company: 'globex.com', change: ROLE, detectedAt: daysAgo(2) },
    { company: 'globex.com', change: REMOVED, detectedAt: daysAgo(3) },
    { company: 'hooli.com', change: NEWS, detectedAt: daysAgo(4) },
    // Outside the last 7 days.
    { company: 'hooli.com', change: { ...ROLE, text: 'Staff Engineer', location: 'Remote' }, detectedAt: daysAgo(10) },
  ]);
  return mine;
}

describe('the changes page', () => {
  it('is in the navigation beside Watches, and behind sign-in', async () => {
    const mine = await dashboardOrganization();
    const { status, html } = await page(mine.browser, '/dashboard/changes');
    expect(status).toBe(200);
    expect(html).toContain('<h1>Changes</h1>');
    expect(html).toContain('<a href="/dashboard/watches">Watches</a></li><li><a href="/dashboard/changes" aria-current="page">Changes</a>');
    expect(html).toContain('No changes yet.');
    const anonymous = await new Browser().get('/dashboard/changes?view=week');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('Location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fchanges%3Fview%3Dweek');
  });

  it("lists the feed newest first: when, company, a kind badge, the change (a price before and after) and its cited URL; none of another organization's", async () => {
    const mine = await withChanges();
    const theirs = await createOrganization();
    await seed(theirs.id, [{ company: 'globex.com', change: { ...PRICE, plan: 'Their plan' }, detectedAt: daysAgo(0) }]);
    const { status, html } = await page(mine.browser, '/dashboard/changes');
    expect(status).toBe(200);
    const rows = feedRows(html);
    expect(rows.map((row) => row.slice(1))).toEqual([
      ['globex.com', 'pricing', 'Price of TeamBeforeAfter$99$129Team plan: $129 per seat per month.', 'Globex pricing'],
      ['globex.com', 'hiring', 'Role opened: Senior Account Executive, Berlin', 'Senior Account Executive'],
      ['globex.com', 'customers', 'Removed: Initrode runs its warehouses on Globex.', 'Customers (last seen 2026-11-20)'],
      ['hooli.com', 'funding-news', 'New entry: Hooli raises a Series C', 'Hooli raises a Series C'],
      ['hooli.com', 'hiring', 'Role opened: Staff Engineer, Remote', 'Senior Account Executive'],
    ]);
    expect(rows[0]![0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    // The price side by side: one row of a small table, Before | After.
    expect(html).toContain(
      '<table class="price-change"><caption>Price of Team</caption><thead><tr><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody><tr><td>$99</td><td>$129</td></tr></tbody></table>',
    );
    expect(html).toContain('<td><span class="badge badge-pricing">pricing</span></td>');
    expect(html).toContain('<a href="https://globex.com/pricing" rel="noopener noreferrer nofollow">Globex pricing</a>');
    expect(html).toContain('<a href="/dashboard/objects/view?type=company&amp;key=globex.com">globex.com</a>');
    expect(html).not.toContain('Their plan');
    expect(html).not.toContain('Older');
  });

  it('filters by kind (one or several), by company and by days, each kept in the form', async () => {
    const mine = await withChanges();
    const hiring = await page(mine.browser, '/dashboard/changes?kind=hiring');
    expect(hiring.status).toBe(200);
    expect(feedRows(hiring.html).map((row) => row[3])).toEqual(['Role opened: Senior Account Executive, Berlin', 'Role opened: Staff Engineer, Remote']);
    expect(hiring.html).toContain('<input type="checkbox" name="kind" value="hiring" id="kind-hiring" checked=""/>');
    expect(hiring.html).toContain('<input type="checkbox" name="kind" value="pricing" id="kind-pricing"/>');

    const two = await page(mine.browser, '/dashboard/changes?kind=pricing&kind=funding-news');
    expect(feedRows(two.html).map((row) => row[2])).toEqual(['pricing', 'funding-news']);

    const hooli = await page(mine.browser, '/dashboard/changes?company=HOOLI.com');
    expect(feedRows(hooli.html).map((row) => row[1])).toEqual(['hooli.com', 'hooli.com']);
    expect(hooli.html).toMatch(/<input id="field-company" name="company" [^>]*value="HOOLI.com"\/>/);

    // Days: since from its start, until to its end (UTC).
    const since = daysAgo(4).slice(0, 10);
    const until = daysAgo(2).slice(0, 10);
    const days = await page(mine.browser, `/dashboard/changes?since=${since}&until=${until}`);
    expect(days.status).toBe(200);
    expect(feedRows(days.html).map((row) => row[2])).toEqual(['hiring', 'customers', 'funding-news']);
    expect(days.html).toContain(`<input type="date" id="field-since" name="since" value="${since}"`);

    const none = await page(mine.browser, '/dashboard/changes?company=initech.example');
    expect(none.html).toContain('<p>No change matches these filters.</p>');
  });

  it('pages older changes by cursor, keeping the filters', async () => {
    const mine = await dashboardOrganization();
    await seed(
      mine.org.id,
      Array.from({ length: 55 }, (_, i) => ({ company: 'globex.com', change: { ...ROLE, text: `Role ${String(i).padStart(2, '0')}` }, detectedAt: daysAgo(0, i + 1) })),
    );
    const first = await page(mine.browser, '/dashboard/changes?kind=hiring');
    expect(feedRows(first.html)).toHaveLength(50);
    const older = /<a href="(\/dashboard\/changes\?kind=hiring&amp;cursor=[^"]+)">Older<\/a>/.exec(first.html)?.[1];
    expect(older).toBeDefined();
    const second = await page(mine.browser, older!.replaceAll('&amp;', '&'));
    expect(second.status).toBe(200);
    expect(feedRows(second.html).map((row) => row[3])).toEqual(['Role opened: Role 50, Berlin', 'Role opened: Role 51, Berlin', 'Role opened: Role 52, Berlin', 'Role opened: Role 53, Berlin', 'Role opened: Role 54, Berlin']);
    expect(second.html).not.toContain('>Older</a>');
  });

  it('refuses bad filters on the form with a 400, each message beside its field, never a 500', async () => {
    const mine = await withChanges();
    const since = await mine.browser.get('/dashboard/changes?since=yesterday');
    expect(since.status).toBe(400);
    const html = await since.text();
    expect(html).toContain('<h1>Changes</h1>');
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/<p class="error" id="field-since-error">since must be an ISO 8601 date or time[^<]*<\/p>/);
    expect(html).toContain('<input type="date" id="field-since" name="since" value="yesterday" aria-invalid="true" aria-describedby="field-since-hint field-since-error"/>');
    expect(html).not.toContain('<table class="changes">');

    const order = await mine.browser.get(`/dashboard/changes?since=${daysAgo(1).slice(0, 10)}&until=${daysAgo(3).slice(0, 10)}`);
    expect(order.status).toBe(400);
    expect(await order.text()).toMatch(/<p class="error" id="field-since-error">[^<]*must be before until<\/p>/);

    const kind = await mine.browser.get('/dashboard/changes?kind=prices');
    expect(kind.status).toBe(400);
    expect(await kind.text()).toMatch(/<p class="error" id="kind-error">[^<]*unknown kind &quot;prices&quot;[^<]*<\/p>/);

    const company = await mine.browser.get('/dashboard/changes?company=not a domain');
    expect(company.status).toBe(400);
    expect(await company.text()).toContain('id="field-company-error"');

    const cursor = await mine.browser.get('/dashboard/changes?cursor=forged');
    expect(cursor.status).toBe(400);
    expect(await cursor.text()).toContain('role="alert"');

    const week = await mine.browser.get('/dashboard/changes?view=week&week=2026-W60');
    expect(week.status).toBe(400);
    expect(await week.text()).toMatch(/<p class="error" id="field-week-error">week must be an ISO week such as 2026-W48[^<]*<\/p>/);
  });

  it('escapes hostile text of a change, and links only http(s) URLs', async () => {
    const mine = await dashboardOrganization();
    const hostile: Change = {
      kind: 'pricing',
      action: 'changed',
      text: '<script>alert(1)</script> & "more"',
      url: 'javascript:alert(1)',
      title: '<img src=x onerror=alert(1)>',
      plan: '</caption><script>alert(2)</script>',
      before: '<b>$1</b>',
      after: '$2 <iframe>',
    };
    await seed(mine.org.id, [
      { company: 'globex.com', change: hostile, detectedAt: daysAgo(1) },
      { company: 'globex.com', change: { ...REMOVED, text: '</q></td></tr><script>alert(3)</script>', url: 'https://globex.com/a?x=1&y="2"' }, detectedAt: daysAgo(1, 1) },
    ]);
    for (const path of ['/dashboard/changes', '/dashboard/changes?view=week']) {
      const { status, html } = await page(mine.browser, path);
      expect(status).toBe(200);
      expect(html).not.toMatch(/<script>alert|<img src=x|<iframe>|<b>\$1/);
      expect(html).not.toContain('href="javascript:');
      expect(html).toContain('<q>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot;</q>');
      expect(html).toContain('<span>&lt;img src=x onerror=alert(1)&gt;</span>');
      expect(html).toContain('<caption>Price of &lt;/caption&gt;&lt;script&gt;alert(2)&lt;/script&gt;</caption>');
      expect(html).toContain('<td>&lt;b&gt;$1&lt;/b&gt;</td><td>$2 &lt;iframe&gt;</td>');
      expect(html).toContain('<a href="https://globex.com/a?x=1&amp;y=&quot;2&quot;" rel="noopener noreferrer nofollow">Customers</a>');
    }
  });
});

describe('the weekly digest', () => {
  it('groups the last 7 days per company (most changes first), then per kind, with counts, each change cited', async () => {
    const mine = await withChanges();
    const { status, html } = await page(mine.browser, '/dashboard/changes?view=week');
    expect(status).toBe(200);
    expect(html).toContain('<h1>Changes: weekly digest</h1>');
    expect(html).toContain('<a href="/dashboard/changes?view=week" aria-current="page">Weekly digest</a>');
    expect(html).toMatch(/<h2 id="digest-title">The last 7 days, since \d{4}-\d\d-\d\d \d\d:\d\d UTC<\/h2>/);
    expect(html).toContain('<p>4 changes at 2 companies: pricing 1, hiring 1, funding and news 1, customers 1.</p>');
    const headings = [...html.matchAll(/<h([34])[^>]*>([\s\S]*?)<\/h\1>/g)].map((m) => `${m[1]} ${m[2]!.replace(/<[^>]+>/g, '')}`);
    expect(headings).toEqual(['3 globex.com: 3 changes', '4 Pricing (1)', '4 Hiring (1)', '4 Customers (1)', '3 hooli.com: 1 change', '4 Funding and news (1)']);
    expect(html).toContain('<td>$99</td><td>$129</td>');
    expect(html).toContain('Role opened: Senior Account Executive, Berlin <span class="muted">at</span> <a href="https://jobs.globex.com/ae" rel="noopener noreferrer nofollow">Senior Account Executive</a>');
    expect(html).toContain('<span class="muted"> (last seen 2026-11-20)</span>');
    // Ten days ago is not in the last 7.
    expect(html).not.toContain('Staff Engineer');
  });

  it('shows the week the `week` parameter names, with the company and kinds filters, and links the weeks around it', async () => {
    const mine = await dashboardOrganization();
    await seed(mine.org.id, [
      { company: 'globex.com', change: PRICE, detectedAt: '2026-03-02T00:00:00.000Z' }, // Monday of 2026-W10
      { company: 'globex.com', change: ROLE, detectedAt: '2026-03-08T23:59:00.000Z' }, // its Sunday
      { company: 'hooli.com', change: NEWS, detectedAt: '2026-03-05T12:00:00.000Z' },
      { company: 'globex.com', change: REMOVED, detectedAt: '2026-03-09T00:00:00.000Z' }, // the next Monday
    ]);
    const { status, html } = await page(mine.browser, '/dashboard/changes?view=week&week=2026-W10');
    expect(status).toBe(200);
    expect(html).toContain('<h2 id="digest-title">Week 2026-W10, Monday 2026-03-02 to Sunday 2026-03-08</h2>');
    expect(html).toContain('<p>3 changes at 2 companies: pricing 1, hiring 1, funding and news 1.</p>');
    expect(html).toContain('<a href="/dashboard/changes?view=week&amp;week=2026-W09">Previous week (2026-W09)</a>');
    expect(html).toContain('<a href="/dashboard/changes?view=week&amp;week=2026-W11">Next week (2026-W11)</a>');
    expect(html).toContain('<input type="week" id="field-week" name="week" value="2026-W10"');

    const filtered = await page(mine.browser, '/dashboard/changes?view=week&week=2026-03-04&company=globex.com&kind=hiring');
    expect(filtered.status).toBe(200);
    expect(filtered.html).toContain('<p>1 change at 1 company: hiring 1.</p>');
    expect(filtered.html).toContain('<a href="/dashboard/changes?view=week&amp;week=2026-W09&amp;company=globex.com&amp;kind=hiring">Previous week (2026-W09)</a>');

    const empty = await page(mine.browser, '/dashboard/changes?view=week&week=2025-W10');
    expect(empty.html).toContain('<p>No change found in these days.</p>');
  });
});

describe('ISO weeks of the digest', () => {
  it('names the week of a time, Monday to Sunday, and the Monday of a week or of a day in it', () => {
    expect(isoWeek(Date.parse('2026-01-01T12:00:00Z'))).toBe('2026-W01');
    expect(isoWeek(Date.parse('2027-01-01T00:00:00Z'))).toBe('2026-W53');
    expect(isoWeek(Date.parse('2024-12-30T00:00:00Z'))).toBe('2025-W01');
    expect(isoWeek(Date.parse('2026-03-08T23:59:59Z'))).toBe('2026-W10');
    expect(new Date(weekStart('2026-W10')!).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(new Date(weekStart('2026-W53')!).toISOString()).toBe('2026-12-28T00:00:00.000Z');
    expect(new Date(weekStart('2026-03-08')!).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    for (const bad of ['2025-W53', '2026-W00', '2026-W54', '2026-02-30', 'W10', '']) expect(weekStart(bad)).toBeNull();
  });
});
