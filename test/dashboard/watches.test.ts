import { describe, expect, it } from 'vitest';
import type { WatchView } from '../../src/ground/schemas/watch.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { createAndSettle, GLOBEX_PRICING_WATCH, importPricingPage, json, NEW_PRICE, OLD_PRICE, runNow } from '../watches/helpers.ts';
import { dashboardOrganization, page } from './pages.ts';

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
