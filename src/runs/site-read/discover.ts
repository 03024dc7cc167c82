import { knownSitePages } from '../../db/site-pages.ts';
import { escapeInline } from '../../research/markdown-escape.ts';
import type { SitePage } from '../../sites/fetch-page.ts';
import { Frontier, QUEUE_PER_BUDGET, siteUrl } from '../../sites/frontier.ts';
import type { RobotsPolicy } from '../../sites/robots.ts';
import { expandSitemaps } from '../../sites/sitemap.ts';
import type { RunRecord, StepResult, StepWork } from '../types.ts';
import { clientFor } from './site-client.ts';
import { readsSiteOf } from './start.ts';
import { EXAMPLES_KEPT, newTally, output, readArgs, robotsPolicyOf, SCRATCH, type RobotsRecord, type SitemapSummary } from './state.ts';

/** The discover step: robots.txt, then the sitemaps; the frontier seeded with the home page, the sitemaps' URLs and the pages earlier reads found. */

/** robots.txt bytes read (the parser keeps the first 500 KiB, RFC 9309's floor). */
const ROBOTS_MAX_BYTES = 2 * 1024 * 1024;
/** A sitemap file's bytes as sent (gzip included; decompressed, sitemap.ts bounds it again). */
const SITEMAP_MAX_BYTES = 10 * 1024 * 1024;
/** Sitemap files read per site read. */
const SITEMAP_MAX_FILES = 20;
export async function discover(env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
  const { domain, budget } = readArgs(run);
  const home = `https://${domain}/`;
  if (!readsSiteOf(env, domain)) {
    return { failure: `${domain} is not read here: this deployment reads only the sites SITE_ORIGIN_OVERRIDES names (local development and tests, offline)` };
  }
  let robots = work.scratch.get<RobotsRecord>(SCRATCH.robots);
  if (!robots) {
    const url = `https://${domain}/robots.txt`;
    const page = await clientFor(env, domain, undefined).request(url, { file: { maxBytes: ROBOTS_MAX_BYTES } });
    robots = robotsRecord(url, page);
    work.scratch.put(SCRATCH.robots, robots);
  }
  const policy = robotsPolicyOf(robots);
  if (policy.source === 'unreachable') {
    return { failure: `${domain} could not be read: ${robots.error ?? policy.reason}` };
  }

  const client = clientFor(env, domain, policy.crawlDelaySeconds);
  const frontier = new Frontier({ domain, budget, allows: (url) => policy.allows(url) });
  frontier.add(home);
  const start = policy.sitemaps.length ? [...policy.sitemaps] : [`https://${domain}/sitemap.xml`];
  const expanded = await expandSitemaps(
    start,
    async (url) => {
      if (!policy.allows(url)) throw new Error('disallowed by robots.txt');
      const page = await client.request(url, { file: { maxBytes: SITEMAP_MAX_BYTES } });
      if (page.kind === 'page') return new Response(page.body, { headers: { 'content-type': page.contentType } });
      if (page.kind === 'gone') throw new Error(`HTTP ${page.status}`);
      if (page.kind === 'not-modified') throw new Error('HTTP 304');
      throw new Error(page.reason);
    },
    { isSameSite: (url) => siteUrl(domain, url, undefined, { file: true }).ok, maxFiles: SITEMAP_MAX_FILES, maxUrls: budget * QUEUE_PER_BUDGET },
  );
  // expandSitemaps only reads; the URLs it found are offered to the frontier in its order, then the
  // pages earlier reads found (a page answering 304 brings no links to find them by).
  for (const url of expanded.urls) frontier.add(url.loc);
  for (const url of await knownSitePages(env.DB, run.organizationId, domain, budget * QUEUE_PER_BUDGET)) frontier.add(url);
  const sitemaps: SitemapSummary = {
    filesRead: expanded.filesRead,
    urls: expanded.urls.length,
    truncated: expanded.truncated,
    skipped: expanded.skipped.slice(0, EXAMPLES_KEPT),
    skippedMore: expanded.skipped.length - Math.min(expanded.skipped.length, EXAMPLES_KEPT) + expanded.skippedMore,
  };
  work.scratch.put(SCRATCH.sitemaps, sitemaps);
  work.scratch.put(SCRATCH.frontier, frontier.snapshot());
  work.scratch.put(SCRATCH.tally, newTally());
  return output(`${policy.reason}; ${sitemaps.urls} URLs from ${sitemaps.filesRead} sitemap file(s)`, discoverDetails(domain, policy, sitemaps));
}

function robotsRecord(url: string, page: SitePage): RobotsRecord {
  switch (page.kind) {
    case 'page':
      return { url, status: 200, text: new TextDecoder().decode(page.body) };
    case 'gone':
      return { url, status: page.status, text: null };
    case 'skipped':
      // A redirect off the site (or to a file type we do not read): as if there were no robots.txt.
      return { url, status: 404, text: null };
    case 'not-modified':
      return { url, status: 304, text: null };
    case 'failed':
      return page.status === undefined ? { url, status: 0, text: null, error: `robots.txt ${page.reason}` } : { url, status: page.status, text: null };
  }
}

function discoverDetails(domain: string, policy: RobotsPolicy, sitemaps: SitemapSummary): string[] {
  const lines = [`- robots.txt of ${escapeInline(domain)}: ${escapeInline(policy.reason)}.`];
  if (policy.crawlDelaySeconds !== undefined) lines.push(`- Crawl-delay: ${policy.crawlDelaySeconds} s between requests.`);
  for (const note of policy.notes) lines.push(`- ${escapeInline(note)}.`);
  lines.push(`- Sitemaps: ${sitemaps.filesRead} file(s) read, ${sitemaps.urls} page URL(s) found${sitemaps.truncated ? ' (more were listed than one read may queue)' : ''}.`);
  for (const skipped of sitemaps.skipped) lines.push(`  - not used: ${escapeInline(skipped.url)} (${escapeInline(skipped.reason)})`);
  if (sitemaps.skippedMore > 0) lines.push(`  - and ${sitemaps.skippedMore} more sitemap file(s) not used`);
  return lines;
}

