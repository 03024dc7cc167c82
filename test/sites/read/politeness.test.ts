import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteLog } from '../../../scripts/lib/site-types.ts';
import { createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { readWithLog, type FinishedRead } from '../../helpers/site-reads.ts';
import { requestedPaths } from '../../helpers/sites.ts';
import { COMPANY_DOMAINS, POLITE_DOMAIN } from '../fixture-sites.ts';

/**
 * Politeness of a site read: robots.txt first and once, at least max(SITE_READ_MIN_DELAY_MS,
 * Crawl-delay) between two requests to one site, never more than 2 in flight. The polite site asks
 * for `Crawl-delay: 1` (its 4 pages and 2 files take about 5 s); the company site has no delay and
 * the tests' SITE_READ_MIN_DELAY_MS is 0, so only the in-flight bound holds its requests back (its
 * /press page answers after 1.5 s, so requests pile up if anything lets them). This file owns
 * POLITE_DOMAIN and COMPANY_DOMAINS[2] (it reads their logs).
 */
const COMPANY = COMPANY_DOMAINS[2];

/**
 * How late the site's server may note a request's arrival (see the test below): its event loop is
 * the Vitest process's, which lagged 123 ms once while the machine ran a CI suite and two benchmarks
 * on 2 cores. A reader that did not wait shows gaps of a few milliseconds, one that waited half the
 * delay 500 ms, so the bound still tells them from a reader that waits 1 s.
 */
const CLOCKS_MS = 250;

let org: TestOrganization;
let polite: FinishedRead;
let politeLog: SiteLog;
let company: FinishedRead;
let companyLog: SiteLog;

beforeAll(async () => {
  org = await createOrganization();
  ({ read: polite, log: politeLog } = await readWithLog(org, POLITE_DOMAIN));
  ({ read: company, log: companyLog } = await readWithLog(org, COMPANY, { pages: 30 }));
});

describe('a polite site read (Crawl-delay: 1 for ReconBot)', () => {
  it('reads every page of the site and completes', () => {
    expect(polite.status).toBe('completed');
    expect(requestedPaths(politeLog)).toEqual(expect.arrayContaining(['/', '/a', '/b', '/c']));
    expect(polite.report).toContain('Crawl-delay: 1 s between requests');
  });

  it('requests robots.txt first, and only once', () => {
    const paths = requestedPaths(politeLog);
    expect(paths[0]).toBe('/robots.txt');
    expect(paths.filter((path) => path === '/robots.txt')).toHaveLength(1);
  });

  // The site logs when its server saw each request (Node's clock, in the event loop of the Vitest process
  // that serves every fixture site, which lags by tens of milliseconds when the machine is busy); the
  // reader counts the gap from the later of a request's start and its answer (workerd's clock, which
  // stands still while the Worker computes, so a start it notes may lie early; an answer never lies
  // before its request arrived). CLOCKS_MS allows for that lag: a reader that did not wait would show
  // gaps of a few milliseconds, and the span of the whole read is checked as well.
  it('leaves at least 1 s between two requests, so never more than one is in flight', () => {
    const at = politeLog.requests.map((request) => request.at);
    expect(at.length).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(1_000 - CLOCKS_MS);
    expect(at.at(-1)! - at[0]!).toBeGreaterThanOrEqual((at.length - 1) * 1_000 - CLOCKS_MS);
    expect(politeLog.maxInFlight).toBe(1);
  });
});

describe('a site read without a delay (SITE_READ_MIN_DELAY_MS 0, no Crawl-delay for ReconBot)', () => {
  it('completes with never more than 2 requests in flight, and uses both', () => {
    expect(company.status).toBe('completed');
    expect(companyLog.requests.length).toBeGreaterThan(20);
    expect(companyLog.maxInFlight).toBe(2);
    expect(Math.max(...companyLog.requests.map((request) => request.inFlight))).toBe(2);
  });

  it('requests robots.txt first, and only once', () => {
    const paths = requestedPaths(companyLog);
    expect(paths[0]).toBe('/robots.txt');
    expect(paths.filter((path) => path === '/robots.txt')).toHaveLength(1);
  });
});
