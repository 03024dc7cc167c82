import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteLog } from '../../../scripts/lib/site-types.ts';
import { call, createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { readSiteToEnd, type FinishedRead } from '../../helpers/site-reads.ts';
import { resetSiteLog, siteLog } from '../../helpers/sites.ts';
import { COMPANY_DOMAINS } from '../fixture-sites.ts';

/**
 * Two organizations read the same domain, one after the other: each gets its own sources, page
 * records and company, the second read sends no conditional request built from the first one's
 * validators, and nothing of the first organization changes. This file owns COMPANY_DOMAINS[4]
 * (it reads its log).
 */
const DOMAIN = COMPANY_DOMAINS[4];
const PAGES = 12;

interface PageRow {
  url: string;
  state: string;
  etag: string | null;
  last_modified: string | null;
  content_hash: string | null;
  last_read_at: string;
  run_id: string;
  outcome: string;
}

let a: TestOrganization;
let b: TestOrganization;
let readA: FinishedRead;
let readB: FinishedRead;
let logB: SiteLog;
let pagesOfABefore: PageRow[];
let objectsOfABefore: unknown[];

async function pagesOf(org: TestOrganization): Promise<PageRow[]> {
  const { results } = await env.DB.prepare(
    'SELECT url, state, etag, last_modified, content_hash, last_read_at, run_id, outcome FROM site_pages WHERE organization_id = ?1 ORDER BY url',
  )
    .bind(org.id)
    .all<PageRow>();
  return results;
}

async function objectsOf(org: TestOrganization): Promise<unknown[]> {
  const { results } = await env.DB.prepare('SELECT * FROM objects WHERE organization_id = ?1 ORDER BY type, key').bind(org.id).all();
  return results;
}

async function provenance(org: TestOrganization, path: string): Promise<{ kind: string; id: string }[]> {
  const response = await call('/api/v1/oms/objects/provenance', { key: org.key, body: { type: 'source', key: `https://${DOMAIN}${path}` } });
  expect(response.status).toBe(200);
  const body = await response.json<{ properties: { source: { kind: string; id: string } }[] }>();
  return body.properties.map((property) => ({ kind: property.source.kind, id: property.source.id }));
}

beforeAll(async () => {
  a = await createOrganization();
  b = await createOrganization();
  readA = await readSiteToEnd(a, { domain: DOMAIN, pages: PAGES });
  pagesOfABefore = await pagesOf(a);
  objectsOfABefore = await objectsOf(a);
  await resetSiteLog(DOMAIN);
  readB = await readSiteToEnd(b, { domain: DOMAIN, pages: PAGES });
  logB = await siteLog(DOMAIN);
});

describe('two organizations reading the same domain', () => {
  it('both complete, the second reading every page as new', () => {
    expect(readA.status).toBe('completed');
    expect(readB.status).toBe('completed');
    for (const read of [readA, readB]) expect(Number(/- New: (\d+)\. Changed: 0\. Unchanged: 0\./.exec(read.report)?.[1])).toBeGreaterThan(5);
  });

  it("is served from the site's shared copy the first one's read made, and never sends the first one's validators", () => {
    // Pages are public and the same for everyone: within the freshness window, the second organization's
    // read costs the site (almost) nothing. What still reaches it is what the copy does not keep (a redirect).
    const gets = logB.requests.filter((request) => request.method === 'GET');
    expect(gets.length).toBeLessThanOrEqual(2);
    expect(gets.filter((request) => request.ifNoneMatch !== undefined || request.ifModifiedSince !== undefined)).toEqual([]);
    expect(readB.report).toMatch(/- New: \d+\./);
  });

  it('gives each organization its own sources and page records, from its own run', async () => {
    expect(await provenance(a, '/pricing')).toEqual(expect.arrayContaining([{ kind: 'site-read', id: readA.id }]));
    expect((await provenance(a, '/pricing')).some((source) => source.id === readB.id)).toBe(false);
    expect((await provenance(b, '/pricing')).every((source) => source.kind === 'site-read' && source.id === readB.id)).toBe(true);
    const pagesB = await pagesOf(b);
    expect(pagesB.length).toBeGreaterThan(5);
    expect(pagesB.every((row) => row.run_id === readB.id)).toBe(true);
    // Pages kept as sources are new to it; the rest (a copy of another page) are only recorded as handled.
    expect(pagesB.filter((row) => row.state === 'live').every((row) => row.outcome === 'new')).toBe(true);
  });

  it("leaves the first organization's page records and objects exactly as its own read left them", async () => {
    expect(pagesOfABefore.length).toBeGreaterThan(5);
    expect(pagesOfABefore.every((row) => row.run_id === readA.id)).toBe(true);
    expect(await pagesOf(a)).toEqual(pagesOfABefore);
    expect(await objectsOf(a)).toEqual(objectsOfABefore);
  });

  it('creates the company in each organization', async () => {
    for (const org of [a, b]) {
      const response = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'company', key: DOMAIN } });
      expect(response.status).toBe(200);
    }
  });
});
