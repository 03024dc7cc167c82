import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../../helpers/fixtures.ts';
import { readSiteToEnd, readWithLog } from '../../helpers/site-reads.ts';
import { requestedPaths, setSitePage, siteLog } from '../../helpers/sites.ts';
import { COMPANY_DOMAINS } from '../fixture-sites.ts';
import { LOOP_DOMAIN } from '../real-web-site.ts';

/**
 * Hosts and pages that change their minds: an apex and a www. that redirect to each other (every path,
 * robots.txt included), and a page that is noindex on one read and indexable on the next, and back.
 * This file owns LOOP_DOMAIN's hosts and COMPANY_DOMAINS[10] (it changes its pages).
 */
const DOMAIN = COMPANY_DOMAINS[10];

const noindexAbout = (sentence: string) =>
  `<!doctype html><html lang="en"><head><title>About</title><meta name="robots" content="noindex"></head><body><p>${sentence}</p></body></html>`;
const indexableAbout = (sentence: string) => `<!doctype html><html lang="en"><head><title>About</title></head><body><p>${sentence}</p></body></html>`;

async function aboutSource(key: string): Promise<string | null> {
  const response = await call('/api/v1/oms/objects/get', { key, body: { type: 'source', key: `https://${DOMAIN}/about` } });
  return response.status === 200 ? String((await response.json<{ properties: { content: string } }>()).properties.content) : null;
}

describe('a redirect loop between the apex and www.', () => {
  it('ends: the read completes (robots.txt redirects too many times: everything allowed) and requests a bounded number of URLs', async () => {
    const org = await createOrganization();
    const { read } = await readWithLog(org, LOOP_DOMAIN, { pages: 10 });
    expect(read.status).toBe('completed');
    const apex = requestedPaths(await siteLog(LOOP_DOMAIN));
    const www = requestedPaths(await siteLog(`www.${LOOP_DOMAIN}`));
    expect(apex.length + www.length).toBeLessThanOrEqual(30);
    expect(read.report).toMatch(/New: 0\./);
  });
});

describe('a page noindex on one read and indexable on the next', () => {
  it('is kept out while noindex, stored once indexable, and its source deleted when it turns noindex again', async () => {
    const org = await createOrganization();
    const sentence = 'Northwind Robotics keeps its about page out of search engines on some days.';
    await setSitePage(DOMAIN, '/about', noindexAbout(sentence));
    const first = await readSiteToEnd(org, { domain: DOMAIN, pages: 10 });
    expect(first.report).toMatch(/Not indexed \(the page asks for noindex; no source kept\): 1/);
    expect(await aboutSource(org.key)).toBeNull();

    await setSitePage(DOMAIN, '/about', indexableAbout(sentence));
    await readSiteToEnd(org, { domain: DOMAIN, pages: 10 });
    expect(await aboutSource(org.key)).toContain(sentence);

    await setSitePage(DOMAIN, '/about', noindexAbout(sentence));
    const third = await readSiteToEnd(org, { domain: DOMAIN, pages: 10 });
    expect(third.report).toMatch(/Not indexed/);
    expect(await aboutSource(org.key)).toBeNull();
  });
});
