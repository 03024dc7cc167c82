import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteLog } from '../../../scripts/lib/site-types.ts';
import { QUEUE_PER_BUDGET } from '../../../src/sites/frontier.ts';
import { DEFAULT_MAX_LINKS } from '../../../src/sites/links.ts';
import { call, createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { readWithLog, type FinishedRead } from '../../helpers/site-reads.ts';
import { requestedPaths } from '../../helpers/sites.ts';
import { HOSTILE_DOMAIN } from '../fixture-sites.ts';
import { pageBudget } from '../../../src/sites/read/state.ts';

/**
 * Hostile pages (HOSTILE_DOMAIN): a page of 3 MiB, malformed HTML, a page of 5,000 links, and a link
 * farm of generated pages that each link to one more. Each is bounded, the report says why, and the
 * read completes. This file owns HOSTILE_DOMAIN (it reads its log).
 */
const BUDGET = 20;

let org: TestOrganization;
let read: FinishedRead;
let log: SiteLog;

beforeAll(async () => {
  org = await createOrganization();
  ({ read, log } = await readWithLog(org, HOSTILE_DOMAIN, { pages: BUDGET }));
});

async function source(path: string): Promise<Response> {
  return call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'source', key: `https://${HOSTILE_DOMAIN}${path}` } });
}

describe('a site read of hostile pages', () => {
  it('completes', () => {
    expect(read.status).toBe('completed');
  });

  it('fails the huge page with a size reason, and stores nothing of it', async () => {
    expect(read.report).toMatch(/Failed, by reason:\n(?:.*\n)*? {2}- the page is (?:larger than 2 MiB|[\d.]+ MiB \(Content-Length\); at most 2 MiB is read)[^\n]*: 1 \(https:\/\/hostile\.example\/huge\)/);
    expect((await source('/huge')).status).toBe(404);
  });

  it('reads the malformed page: its sentences are stored', async () => {
    const response = await source('/malformed');
    expect(response.status).toBe(200);
    const { properties } = await response.json<{ properties: { content: string } }>();
    expect(properties.content).toContain('Hostile Inc was founded in 2020 in Oslo.');
    expect(properties.content).toContain('Hostile Inc employs 12 people.');
  });

  it('spends the budget and no more on the link farm: the 5,000 links are cut to the queue bound', () => {
    const pages = requestedPaths(log).filter((path) => path !== '/robots.txt' && path !== '/sitemap.xml');
    expect(pages).toHaveLength(BUDGET);
    expect(new Set(pages).size).toBe(BUDGET);
    expect(pages).toEqual(expect.arrayContaining(['/', '/huge', '/malformed', '/links']));
    // A tenth of the budget (at most 4) is kept for the feeds and boards steps.
    expect(read.report).toContain(`- Pages requested: ${pageBudget(BUDGET)} (budget ${BUDGET}).`);
    // At most QUEUE_PER_BUDGET x budget URLs are ever queued: the rest of the 5,000 are dropped as the queue fills.
    const queued = Number(/- (\d+) URL\(s\) still queued when the budget was spent\./.exec(read.report)?.[1]);
    expect(queued).toBeGreaterThan(0);
    expect(queued).toBeLessThanOrEqual(QUEUE_PER_BUDGET * BUDGET);
    // Of the 5,000 links of /links, the first DEFAULT_MAX_LINKS are read from the page; the queue keeps the best of them.
    const full = Number(/Links not followed: (?:[^.]*?, )?(\d+) queue-full/.exec(read.report)?.[1]);
    expect(full).toBeGreaterThanOrEqual(DEFAULT_MAX_LINKS - QUEUE_PER_BUDGET * BUDGET);
    const dropped = Number(/(\d+) not read from their page \(past its first 1000 links/.exec(read.report)?.[1]);
    expect(dropped).toBeGreaterThanOrEqual(5_000 - DEFAULT_MAX_LINKS);
  });

  it('lists the reasons in the report', () => {
    expect(read.report).toContain('Failed, by reason:');
    expect(read.report).toMatch(/New: \d+\./);
  });
});
