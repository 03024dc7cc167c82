import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteLog } from '../../../scripts/lib/site-types.ts';
import { QUEUE_PER_BUDGET } from '../../../src/sites/frontier.ts';
import { createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { readWithLog, type FinishedRead } from '../../helpers/site-reads.ts';
import { requestedPaths } from '../../helpers/sites.ts';
import { HOSTILE_FILES_DOMAIN } from '../fixture-sites.ts';
import { pageBudget } from '../../../src/sites/read/state.ts';

/**
 * Hostile robots.txt and sitemaps (HOSTILE_FILES_DOMAIN): a robots.txt over 500 KiB, a gzip bomb, a
 * loop of sitemap indexes, a sitemap of 10,000 URLs and one of malformed XML. Each is bounded and
 * said in the report; the read completes. This file owns HOSTILE_FILES_DOMAIN (it reads its log).
 */
const DOMAIN = HOSTILE_FILES_DOMAIN;
const BUDGET = 10;

let org: TestOrganization;
let read: FinishedRead;
let log: SiteLog;

beforeAll(async () => {
  org = await createOrganization();
  ({ read, log } = await readWithLog(org, DOMAIN, { pages: BUDGET }));
});

describe('a site read of hostile robots.txt and sitemaps', () => {
  it('completes, within its page budget', () => {
    expect(read.status).toBe('completed');
    // A tenth of the budget (at most 4) is kept for the feeds and boards steps.
    expect(read.report).toContain(`- Pages requested: ${pageBudget(BUDGET)} (budget ${BUDGET}).`);
  });

  it('parses robots.txt up to 500 KiB and says so: a rule past the bound is not applied', () => {
    expect(read.report).toContain('robots.txt is over 512000 bytes: only the first 512000 were parsed');
    expect(requestedPaths(log).filter((path) => path === '/robots.txt')).toHaveLength(1);
    // `Disallow: /late/` for ReconBot comes after 500 KiB of padding: the home page's link to /late/1 is followed.
    expect(requestedPaths(log)).toContain('/late/1');
  });

  it('reads each sitemap (index files too) and reports each one it could not use, with the reason', () => {
    const paths = requestedPaths(log);
    for (const path of ['/bomb.xml.gz', '/loop-a.xml', '/loop-b.xml', '/big.xml', '/broken.xml']) expect(paths).toContain(path);
    // Each file once: the loop of indexes ends at the file already read.
    for (const path of ['/loop-a.xml', '/loop-b.xml']) expect(paths.filter((p) => p === path)).toHaveLength(1);
    expect(read.report).toMatch(/not used: https:\/\/hostile-files\.example\/bomb\.xml\.gz \(more than 10485760 bytes once decompressed\)/);
    expect(read.report).toMatch(/not used: https:\/\/hostile-files\.example\/loop-a\.xml \(already read \(a loop or a repeat\)\)/);
    expect(read.report).toMatch(/not used: https:\/\/hostile-files\.example\/broken\.xml \(malformed XML: /);
  });

  it('bounds the 10,000-URL sitemap to what one read may queue, and says so', () => {
    expect(read.report).toContain('(more were listed than one read may queue)');
    const found = Number(/Sitemaps: \d+ file\(s\) read, (\d+) page URL\(s\) found/.exec(read.report)?.[1]);
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThanOrEqual(BUDGET * QUEUE_PER_BUDGET);
    expect(requestedPaths(log).filter((path) => path.startsWith('/listed/')).length).toBeLessThanOrEqual(BUDGET);
  });
});
