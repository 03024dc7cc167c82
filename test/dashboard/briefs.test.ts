import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { storeBrief } from '../../src/research/store-brief.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { createAndSettle } from '../watches/helpers.ts';
import { dashboardOrganization, expectOnlyDashboardScript, page } from './pages.ts';

/** Researches `topic` through the REST API with the organization's key; answers the stored brief's key. */
async function researchByApi(key: string, topic: string): Promise<string> {
  const response = await call('/api/v1/commands/research', { key, body: { topic } });
  expect(response.status).toBe(200);
  return briefKeyOf(key, topic);
}

/** The key of the newest brief of `topic` (through the API's search). */
async function briefKeyOf(key: string, topic: string): Promise<string> {
  const response = await call('/api/v1/oms/objects/search', {
    key,
    body: { type: 'brief', filters: [{ property: 'topic', op: 'eq', value: topic }], orderBy: { property: 'createdAt', direction: 'desc' }, pageSize: 1 },
  });
  const { objects } = (await response.json()) as { objects: { key: string }[] };
  return objects[0]!.key;
}

/** The brief keys a list page links, in order. */
function listed(html: string): string[] {
  return [...html.matchAll(/<td><a href="\/dashboard\/briefs\/([^"]+)">/g)].map((m) => decodeURIComponent(m[1]!));
}

describe('the briefs page', () => {
  it("lists every brief of the organization, newest first, whoever ran it, and none of another's", async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const byApi = await researchByApi(mine.key, 'Acme Analytics pricing');
    const fromPage = await mine.browser.post('/dashboard/research', { topic: 'Globex launch', tier: 'lite' });
    const byPage = /<a href="\/dashboard\/briefs\/(brf_[0-9a-f]+)">open it again later<\/a>/.exec(await fromPage.text())![1]!;
    const watch = await createAndSettle(mine.key);
    const other = await createOrganization();
    await importMarket(other.key);
    const theirs = await researchByApi(other.key, 'Acme Analytics pricing');

    const { status, html } = await page(mine.browser, '/dashboard/briefs');
    expect(status).toBe(200);
    expect(html).toContain('aria-current="page">Briefs</a>');
    const keys = listed(html);
    expect(keys).not.toContain(theirs);
    expect(keys.indexOf(byPage)).toBeGreaterThan(-1);
    expect(keys.indexOf(byApi)).toBeGreaterThan(keys.indexOf(byPage));
    expect(keys).toHaveLength(3);
    // The watch's brief is the newest.
    expect(keys[0]).toMatch(/^wex_/);
    expect(html).toContain(`<a href="/dashboard/briefs/${byPage}">Globex launch</a></td><td>lite</td><td>embedded</td><td>`);
  });

  it('opens a brief rendered, with what wrote it and when: a research call, or a watch execution', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const byApi = await researchByApi(mine.key, 'Acme Analytics pricing');
    const { status, html } = await page(mine.browser, `/dashboard/briefs/${byApi}`);
    expect(status).toBe(200);
    expectOnlyDashboardScript(html);
    expect(html).toContain('<h1>Brief: Acme Analytics pricing</h1>');
    expect(html).toContain(`<dt>Written by</dt><dd>a research call (the dashboard, the API or an MCP client) <code>${byApi}</code></dd>`);
    expect(html).toMatch(/<dt>Written<\/dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/dd>/);
    expect(html).toContain('<article class="markdown" aria-label="Brief"><h2>Research brief: Acme Analytics pricing</h2>');
    expect(html).toContain('<a href="https://acme.com/pricing" target="_blank" rel="noopener noreferrer nofollow">[1]</a>');
    expect(html).toContain(`<a href="/dashboard/objects/view?type=brief&amp;key=${byApi}">its properties, links and history</a>`);

    const watch = await createAndSettle(mine.key);
    const list = await page(mine.browser, '/dashboard/briefs');
    const byWatch = listed(list.html).find((key) => key.startsWith('wex_'))!;
    const watched = await page(mine.browser, `/dashboard/briefs/${byWatch}`);
    expect(watched.status).toBe(200);
    expect(watched.html).toContain(`<dt>Written by</dt><dd>an execution of the watch <a href="/dashboard/watches/${watch.id}"><code>${watch.id}</code></a></dd>`);
  });

  it('finds briefs by words of their topic, in any case', async () => {
    const mine = await dashboardOrganization();
    await importMarket(mine.key);
    const pricing = await researchByApi(mine.key, 'Acme Analytics pricing');
    const customers = await researchByApi(mine.key, 'Acme Analytics customers');
    expect(listed((await page(mine.browser, '/dashboard/briefs?q=ACME+pricing')).html)).toEqual([pricing]);
    expect(listed((await page(mine.browser, '/dashboard/briefs?q=analytics')).html)).toEqual([customers, pricing]);
    const none = await page(mine.browser, '/dashboard/briefs?q=pricing+globex');
    expect(listed(none.html)).toEqual([]);
    expect(none.html).toContain('No brief&#39;s topic has all of these words.');
    expect(none.html).toContain('value="pricing globex"');
  });

  it('pages by keyset, 25 a page, newest first, each brief once; a forged cursor is refused (400)', async () => {
    const mine = await dashboardOrganization();
    const written: string[] = [];
    for (let i = 0; i < 27; i++) {
      const key = `brf_${i.toString(16).padStart(32, '0')}`;
      const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      await storeBrief(env.DB, mine.org.id, { key, topic: `Topic ${i}`, tier: 'lite', markdown: `# Topic ${i}`, createdAt, result: { findings: [], sources: [], engine: 'embedded' }, about: [] }, { kind: 'research', id: key });
      written.push(key);
    }
    const first = await page(mine.browser, '/dashboard/briefs');
    expect(listed(first.html)).toEqual(written.slice(2).reverse());
    const next = /<a href="(\/dashboard\/briefs\?cursor=[^"]+)">Older briefs<\/a>/.exec(first.html)![1]!.replace(/&amp;/g, '&');
    const second = await page(mine.browser, next);
    expect(listed(second.html)).toEqual([written[1], written[0]]);
    expect(second.html).not.toContain('Older briefs');

    // A search's pages keep the search.
    const searched = await page(mine.browser, '/dashboard/briefs?q=topic');
    expect(searched.html).toMatch(/<a href="\/dashboard\/briefs\?q=topic&amp;cursor=[^"]+">Older briefs<\/a>/);

    const forged = await page(mine.browser, '/dashboard/briefs?cursor=forged');
    expect(forged.status).toBe(400);
    expect(forged.html).toContain('id="form-errors"');
  });

  it("answers 404 for another organization's brief and an unknown one", async () => {
    const mine = await dashboardOrganization();
    const other = await createOrganization();
    await importMarket(other.key);
    const theirs = await researchByApi(other.key, 'Acme Analytics pricing');
    for (const key of [theirs, 'brf_00000000000000000000000000000000']) {
      const { status, html } = await page(mine.browser, `/dashboard/briefs/${key}`);
      expect(status).toBe(404);
      expect(html).toContain('<h1>Not found</h1>');
      expect(html).not.toContain('Research brief');
    }
  });
});
