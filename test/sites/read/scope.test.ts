import { beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../helpers/fixtures.ts';
import { readWithLog, type FinishedRead } from '../../helpers/site-reads.ts';
import { requestedPaths } from '../../helpers/sites.ts';
import { COMPANY_DOMAINS } from '../fixture-sites.ts';

/**
 * A read's includePaths and excludePaths decide which pages it requests: the home page (where the
 * read starts), the included paths, never an excluded one, whatever the sitemaps and links offer.
 * This file owns COMPANY_DOMAINS[9] (it reads its log).
 */
const DOMAIN = COMPANY_DOMAINS[9];
/** What a read requests besides pages. */
const FILES = /^\/(robots\.txt|sitemap|feed|rss\.xml|feed\.xml)/;

let read: FinishedRead;
let pages: string[];

beforeAll(async () => {
  const org = await createOrganization();
  const result = await readWithLog(org, DOMAIN, { pages: 30, includePaths: ['/pricing', '/blog/**'], excludePaths: ['/blog/fleet-plan-launch'] });
  read = result.read;
  pages = requestedPaths(result.log).filter((path) => !FILES.test(path));
});

describe('a read with includePaths and excludePaths', () => {
  it('completes, requesting the home page and the included paths only', () => {
    expect(read.status).toBe('completed');
    expect(pages).toContain('/');
    expect(pages).toContain('/pricing');
    expect(pages.every((path) => path === '/' || path === '/pricing' || path.startsWith('/blog'))).toBe(true);
  });

  it('never requests an excluded path, though the sitemap and the blog link it', () => {
    expect(pages).not.toContain('/blog/fleet-plan-launch');
  });

  it('names the scope in its report and counts the links it left out', () => {
    expect(read.report).toContain('Paths read:');
    expect(read.report).toMatch(/\d+ out-of-scope/);
  });
});
