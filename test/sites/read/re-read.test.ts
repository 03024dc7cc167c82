import { beforeAll, describe, expect, it } from 'vitest';
import { call, createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { readSiteToEnd, type FinishedRead } from '../../helpers/site-reads.ts';
import { removeSitePage, resetSiteLog, setSitePage, siteLog } from '../../helpers/sites.ts';
import { COMPANY_DOMAINS, PRICE_AFTER, PRICE_BEFORE, pricingPage, pricingSentence } from '../fixture-sites.ts';

/**
 * Reading a site again: conditional requests from what the last read stored, a 304 changing nothing
 * and costing nothing, a changed page re-indexed with its history, a page gone marked and kept. This
 * file owns COMPANY_DOMAINS[1] (it changes pages and reads the log).
 */
const DOMAIN = COMPANY_DOMAINS[1];
const PAGES = 15;

let org: TestOrganization;
let first: FinishedRead;
let unchanged: FinishedRead;
let unchangedLog: Awaited<ReturnType<typeof siteLog>>;
let changed: FinishedRead;

async function pricingSource(): Promise<string> {
  const response = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'source', key: `https://${DOMAIN}/pricing` } });
  expect(response.status).toBe(200);
  return (await response.json<{ properties: { content: string } }>()).properties.content;
}

async function pagesFetchedToday(): Promise<number> {
  const { env } = await import('cloudflare:workers');
  const row = await env.DB.prepare('SELECT pages FROM site_read_usage WHERE organization_id = ?1').bind(org.id).first<{ pages: number }>();
  return row?.pages ?? 0;
}

beforeAll(async () => {
  org = await createOrganization();
  await setSitePage(DOMAIN, '/pricing', pricingPage(PRICE_BEFORE));
  first = await readSiteToEnd(org, { domain: DOMAIN, pages: PAGES });
  expect(first.status).toBe('completed');
  await resetSiteLog(DOMAIN);
  unchanged = await readSiteToEnd(org, { domain: DOMAIN, pages: PAGES });
  unchangedLog = await siteLog(DOMAIN);
  await setSitePage(DOMAIN, '/pricing', pricingPage(PRICE_AFTER));
  await removeSitePage(DOMAIN, '/careers');
  changed = await readSiteToEnd(org, { domain: DOMAIN, pages: PAGES });
});

describe('reading a site again', () => {
  it('sends If-None-Match and If-Modified-Since for every page the last read stored, and takes each 304 as unchanged', () => {
    const pages = unchangedLog.requests.filter((r) => r.method === 'GET' && r.path === '/pricing');
    expect(pages).toHaveLength(1);
    expect(pages[0]!.ifNoneMatch).toBeTruthy();
    expect(pages[0]!.ifModifiedSince).toBeTruthy();
    expect(pages[0]!.status).toBe(304);
    // Every page the first read stored is asked for again and answers 304; the budget left goes to pages not read
    // before (the fixture's endless calendar has a next month every time).
    const stored = Number(/New: (\d+)\./.exec(first.report)![1]);
    expect(unchanged.report).toMatch(new RegExp(`Changed: 0\\. Unchanged: ${stored} \\(${stored} answered 304 Not Modified\\)`));
    // robots.txt, the sitemaps and the feed are files the site's shared copy revalidates too; the pages are counted here.
    const conditional = unchangedLog.requests.filter((r) => r.ifNoneMatch !== undefined && !/^\/(robots\.txt|sitemap|feed)/.test(r.path));
    expect(conditional).toHaveLength(stored);
    expect(conditional.every((r) => r.status === 304 && r.ifModifiedSince !== undefined)).toBe(true);
  });

  it('counts a 304 as no page fetched: the day\'s count is what the first read fetched, plus the changed read\'s bodies', async () => {
    const firstFetched = Number(/(\d+) new/.exec(first.report)![1]);
    expect(firstFetched).toBeGreaterThan(5);
    // The third read fetched bodies only for the changed pricing page (and none for the 304s).
    expect(await pagesFetchedToday()).toBeGreaterThanOrEqual(firstFetched + 1);
    expect(await pagesFetchedToday()).toBeLessThan(firstFetched * 2);
  });

  it('re-indexes a changed page: its source holds the new text and its history the change, with provenance site-read', async () => {
    expect(changed.report).toMatch(/Changed: 1\./);
    const content = await pricingSource();
    expect(content).toContain(pricingSentence(PRICE_AFTER));
    expect(content).not.toContain(PRICE_BEFORE);
    const response = await call('/api/v1/oms/objects/provenance', { key: org.key, body: { type: 'source', key: `https://${DOMAIN}/pricing` } });
    const provenance = await response.json<{ history: { property: string; from: unknown; to: unknown; source: { kind: string; id: string } }[] }>();
    const contentChanges = provenance.history.filter((h) => h.property === 'content');
    expect(contentChanges.map((h) => h.source)).toEqual(expect.arrayContaining([{ kind: 'site-read', id: changed.id }, { kind: 'site-read', id: first.id }]));
    const research = await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Northwind Robotics Fleet plan price' } });
    expect(await research.text()).toContain(PRICE_AFTER);
  });

  it('marks a page gone (404) in the report and keeps its source', async () => {
    expect(changed.report).toMatch(/Gone \(404\/410, marked, not deleted\): 1\./);
    const response = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'source', key: `https://${DOMAIN}/careers` } });
    expect(response.status).toBe(200);
  });
});
