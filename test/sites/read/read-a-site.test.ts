import { beforeAll, describe, expect, it } from 'vitest';
import { call, createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { readSiteToEnd } from '../../helpers/site-reads.ts';
import { requestedPaths, resetSiteLog, siteLog } from '../../helpers/sites.ts';
import { COMPANY_DISALLOWED, COMPANY_DOMAINS, COMPANY_NAME, PRICE_BEFORE, pricingSentence } from '../fixture-sites.ts';

/**
 * A site read through the REST door, against the company fixture site on loopback (named in the
 * Worker's SITE_ORIGIN_OVERRIDES): robots.txt honoured, sitemaps and links followed, pages stored
 * as sources with provenance site-read, the company named from the site, the report's counts. This
 * file owns COMPANY_DOMAINS[0] (it reads its request log).
 */
const DOMAIN = COMPANY_DOMAINS[0];

let org: TestOrganization;
let first: { id: string; report: string; status: string | null };
let requested: string[];

beforeAll(async () => {
  org = await createOrganization();
  await resetSiteLog(DOMAIN);
  first = await readSiteToEnd(org, { domain: `https://www.${DOMAIN.toUpperCase()}/pricing` });
  requested = requestedPaths(await siteLog(DOMAIN));
});

describe('a site read', () => {
  it('starts as a run: 202 with X-Run-Id, X-Run-Status running and Location, and completes', async () => {
    expect(first.status).toBe('completed');
    expect(first.report).toContain(`# Site read of ${DOMAIN}`);
  });

  it('reads robots.txt first and never requests a path it disallows for ReconBot, not even through the sitemap or a link', () => {
    expect(requested[0]).toBe('/robots.txt');
    for (const path of COMPANY_DISALLOWED) expect(requested).not.toContain(path);
  });

  it('follows the sitemap index (a gzip sitemap too) and the links of pages read, same site only', () => {
    expect(requested).toEqual(expect.arrayContaining(['/sitemap_index.xml', '/sitemaps/pages.xml', '/sitemaps/blog.xml.gz', '/pricing', '/changelog', '/compare/northwind-vs-ironclad', '/customers/kestrel-freight']));
    // Query strings dropped: /pricing?ref=nav is /pricing (and /old-pricing's redirect to it is not followed
    // again); the endless search pages are one page, /search, without its query.
    expect(requested.filter((path) => path.startsWith('/pricing'))).toEqual(['/pricing']);
    expect(requested.filter((path) => path.startsWith('/search'))).toEqual(['/search']);
  });

  it('stores each page read as a source with provenance site-read, the run id and the URL', async () => {
    const response = await call('/api/v1/oms/objects/provenance', { key: org.key, body: { type: 'source', key: `https://${DOMAIN}/pricing` } });
    expect(response.status).toBe(200);
    const provenance = await response.json<{ properties: { name: string; source: { kind: string; id: string; url?: string } }[] }>();
    const content = provenance.properties.find((p) => p.name === 'content')!;
    expect(content.source).toEqual({ kind: 'site-read', id: first.id, url: `https://${DOMAIN}/pricing` });
  });

  it("creates the domain's company, named from the site", async () => {
    const response = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'company', key: DOMAIN } });
    expect(response.status).toBe(200);
    const company = await response.json<{ properties: Record<string, unknown> }>();
    expect(company.properties).toMatchObject({ name: COMPANY_NAME, domain: DOMAIN });
  });

  it("lets research cite the site's facts right after the run completes", async () => {
    const response = await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Northwind Robotics Fleet plan price' } });
    expect(response.status).toBe(200);
    const brief = await response.text();
    expect(brief).toContain(PRICE_BEFORE);
    expect(brief).toContain(`https://${DOMAIN}/pricing`);
    expect(brief.replace(/\s+/g, ' ')).toContain(pricingSentence(PRICE_BEFORE).replace(/\.$/, ''));
  });

  it('reports pages new, skipped and failed with their reasons', () => {
    expect(first.report).toMatch(/New: \d+/);
    expect(first.report).toContain('Skipped, by reason');
    expect(first.report).toMatch(/not HTML/);
  });
});
