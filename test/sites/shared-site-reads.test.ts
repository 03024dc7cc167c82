import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteLog } from '../../scripts/lib/site-types.ts';
import { call, createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { readSiteToEnd, type FinishedRead } from '../helpers/site-reads.ts';
import { resetSiteLog, siteLog } from '../helpers/sites.ts';
import { COMPANY_DOMAINS } from './fixture-sites.ts';

/**
 * Three organizations read one site at once: the site's shared copy (SiteHostGate) answers them
 * with one request per page between them, and each still gets every page as a source of its own,
 * from its own run. This file owns COMPANY_DOMAINS[7] (it reads its log); the tests' freshness
 * window is SITE_READ_SHARED_FRESH_MS's default (15 minutes), far longer than the reads.
 */
const DOMAIN = COMPANY_DOMAINS[7];
const PAGES = 12;

let orgs: TestOrganization[];
let reads: FinishedRead[];
let log: SiteLog;

/** The URLs an organization's reads stored as page records (site_pages), with the run that did. */
async function pagesOf(org: TestOrganization): Promise<{ url: string; run_id: string; outcome: string }[]> {
  const { results } = await env.DB.prepare('SELECT url, run_id, outcome FROM site_pages WHERE organization_id = ?1 ORDER BY url').bind(org.id).all<{ url: string; run_id: string; outcome: string }>();
  return results;
}

beforeAll(async () => {
  orgs = await Promise.all([createOrganization(), createOrganization(), createOrganization()]);
  await resetSiteLog(DOMAIN);
  reads = await Promise.all(orgs.map((org) => readSiteToEnd(org, { domain: DOMAIN, pages: PAGES })));
  log = await siteLog(DOMAIN);
});

describe('three organizations reading one site at once', () => {
  it('all complete, each reading the same pages as new', () => {
    const newPages = reads.map((read) => Number(/- New: (\d+)\./.exec(read.report)?.[1]));
    for (const read of reads) expect(read.status).toBe('completed');
    expect(newPages[0]).toBeGreaterThan(5);
    expect(new Set(newPages).size).toBe(1);
  });

  it('make one request per page stored, robots.txt and sitemap between them', async () => {
    const gets = log.requests.filter((request) => request.method === 'GET');
    const stored = new Set((await Promise.all(orgs.map(pagesOf))).flat().map((row) => new URL(row.url).pathname + new URL(row.url).search));
    expect(stored.size).toBeGreaterThan(5);
    const shared = [...stored, '/robots.txt', '/sitemap_index.xml', '/sitemaps/pages.xml', '/sitemaps/blog.xml.gz'];
    for (const path of shared) expect(gets.filter((request) => request.path === path), path).toHaveLength(1);
    // Everything else (redirects, failures, files that are not pages: not shared) at most once per organization.
    const counts = new Map<string, number>();
    for (const request of gets) counts.set(request.path, (counts.get(request.path) ?? 0) + 1);
    for (const [path, count] of counts) expect(count, path).toBeLessThanOrEqual(orgs.length);
  });

  it('gives each organization every page as its own source, from its own run', async () => {
    const rows = await Promise.all(orgs.map(pagesOf));
    for (const [i, org] of orgs.entries()) {
      expect(rows[i]!.map((row) => row.url)).toEqual(rows[0]!.map((row) => row.url));
      expect(rows[i]!.every((row) => row.run_id === reads[i]!.id)).toBe(true);
      const response = await call('/api/v1/oms/objects/provenance', { key: org.key, body: { type: 'source', key: `https://${DOMAIN}/pricing` } });
      expect(response.status).toBe(200);
      const body = await response.json<{ properties: { source: { kind: string; id: string } }[] }>();
      expect(body.properties.every((property) => property.source.kind === 'site-read' && property.source.id === reads[i]!.id)).toBe(true);
      expect(body.properties.length).toBeGreaterThan(0);
    }
  });
});
