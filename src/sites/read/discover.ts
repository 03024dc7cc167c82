import { knownSitePages, lastReadPages } from '../../db/site-pages.ts';
import { escapeInline } from '../../research/markdown-escape.ts';
import { CHANGED_BONUS, Frontier, QUEUE_PER_BUDGET, siteUrl } from '../frontier.ts';
import { expandSitemaps } from '../sitemap.ts';
import type { RunRecord, StepResult, StepWork } from '../../runs/types.ts';
import { clientFor } from './site-client.ts';
import { readsSiteOf } from './start.ts';
import { compilePathScope } from '../path-scope.ts';
import { discoverData } from './report-data.ts';
import { SiteRobots, type SitePolicy } from './site-robots.ts';
import { EXAMPLES_KEPT, newTally, output, pageBudget, readArgs, SCRATCH, type SitemapSummary } from './state.ts';

/** The discover step: robots.txt, then the sitemaps; the frontier seeded with the home page, the sitemaps' URLs and the pages earlier reads found. */

/** A sitemap file's bytes as sent (gzip included; decompressed, sitemap.ts bounds it again). */
const SITEMAP_MAX_BYTES = 10 * 1024 * 1024;
/** Sitemap files read per site read. */
const SITEMAP_MAX_FILES = 20;
export async function discover(env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
  const { domain, budget, origin, includePaths, excludePaths, hosts } = readArgs(run);
  const scope = compilePathScope({ includePaths, excludePaths });
  const home = `https://${domain}/`;
  if (!readsSiteOf(env, domain)) {
    return { failure: `${domain} is not read here: this deployment reads only the sites SITE_ORIGIN_OVERRIDES names (local development and tests, offline)` };
  }
  const robots = SiteRobots.fromScratch(work.scratch.get(SCRATCH.robots), (records) => work.scratch.put(SCRATCH.robots, records));
  const apex = await robots.load(home, clientFor(env, domain, undefined, { reader: run.organizationId, origin }));
  const apexPolicy = robots.policy.hosts[0]?.policy;
  if (!apex || !apexPolicy) throw new Error(`robots.txt of ${domain} left no record`);
  if (apexPolicy.source === 'unreachable') {
    return { failure: `${domain} could not be read: ${apex.error ?? apexPolicy.reason}` };
  }

  // The other hosts the read names: each its own robots.txt (and sitemaps), its home page queued.
  const homes = [home, ...hosts.map((host) => `https://${host}/`)];
  for (const named of homes.slice(1)) await robots.load(named, clientFor(env, domain, undefined, { reader: run.organizationId, origin, hosts }));
  const policy = robots.policy;
  const client = clientFor(env, domain, policy.crawlDelaySeconds, { reader: run.organizationId, origin, hosts });
  const frontier = new Frontier({ domain, hosts, budget: pageBudget(budget), allows: (url) => robots.allowsOrUnknown(url), inScope: (url) => scope.allows(url) });
  for (const page of homes) frontier.add(page);
  const start = policy.sitemaps.length ? [...policy.sitemaps] : [`https://${domain}/sitemap.xml`];
  const expanded = await expandSitemaps(
    start,
    async (url) => {
      if (!robots.allowsOrUnknown(url)) throw new Error('disallowed by robots.txt');
      if (!robots.knows(url)) await robots.load(url, client);
      if (!robots.policy.allows(url)) throw new Error('disallowed by robots.txt');
      const page = await client.request(url, { file: { maxBytes: SITEMAP_MAX_BYTES } });
      if (page.kind === 'page') return new Response(page.body, { headers: { 'content-type': page.contentType } });
      if (page.kind === 'gone') throw new Error(`HTTP ${page.status}`);
      if (page.kind === 'not-modified') throw new Error('HTTP 304');
      if (page.kind === 'redirect') throw new Error(`a redirect to ${page.location}`);
      throw new Error(page.reason);
    },
    { isSameSite: (url) => siteUrl(domain, url, undefined, { file: true, hosts }).ok, maxFiles: SITEMAP_MAX_FILES, maxUrls: budget * QUEUE_PER_BUDGET },
  );
  // expandSitemaps only reads; the URLs it found are offered to the frontier in its order, then the
  // pages earlier reads found (a page answering 304 brings no links to find them by).
  // A page whose lastmod is later than our last read of it (or never read) comes first: what changed.
  const lastRead = await lastReadPages(work.db, run.organizationId, domain, budget * QUEUE_PER_BUDGET);
  // On a first read nothing was read before: no page is raised above its kind.
  for (const url of expanded.urls) frontier.add(url.loc, undefined, lastRead.size > 0 && changedSince(url.lastmod, lastRead.get(url.loc)) ? CHANGED_BONUS : 0);
  for (const url of await knownSitePages(work.db, run.organizationId, domain, budget * QUEUE_PER_BUDGET)) frontier.add(url);
  const sitemaps: SitemapSummary = {
    filesRead: expanded.filesRead,
    urls: expanded.urls.length,
    truncated: expanded.truncated,
    skipped: expanded.skipped.slice(0, EXAMPLES_KEPT),
    skippedMore: expanded.skipped.length - Math.min(expanded.skipped.length, EXAMPLES_KEPT) + expanded.skippedMore,
  };
  work.scratch.put(SCRATCH.sitemaps, sitemaps);
  work.scratch.put(SCRATCH.frontier, frontier.snapshot());
  work.scratch.put(SCRATCH.tally, { ...newTally(), robotsReported: robots.policy.hosts.length });
  return output(`${apexPolicy.reason}; ${sitemaps.urls} URLs from ${sitemaps.filesRead} sitemap file(s)`, [...discoverDetails(robots.policy, sitemaps), ...(includePaths.length || excludePaths.length ? [`- Paths read: ${escapeInline(scope.describe())}.`] : [])], discoverData(robots.policy, sitemaps));
}

/** Whether a sitemap's `lastmod` says the page changed after `lastReadAt` (a page never read counts as changed; no lastmod, as not). */
export function changedSince(lastmod: string | undefined, lastReadAt: string | undefined): boolean {
  const modified = lastmod === undefined ? Number.NaN : Date.parse(lastmod);
  if (!Number.isFinite(modified)) return false;
  if (lastReadAt === undefined) return true;
  return modified > Date.parse(lastReadAt);
}

function discoverDetails(site: SitePolicy, sitemaps: SitemapSummary): string[] {
  const lines: string[] = [];
  for (const { origin, policy } of site.hosts) {
    lines.push(`- robots.txt of ${escapeInline(new URL(origin).host)}: ${escapeInline(policy.reason)}.`);
    if (policy.crawlDelaySeconds !== undefined) lines.push(`- Crawl-delay: ${policy.crawlDelaySeconds} s between requests.`);
    for (const note of policy.notes) lines.push(`- ${escapeInline(note)}.`);
  }
  lines.push(`- Sitemaps: ${sitemaps.filesRead} file(s) read, ${sitemaps.urls} page URL(s) found${sitemaps.truncated ? ' (more were listed than one read may queue)' : ''}.`);
  for (const skipped of sitemaps.skipped) lines.push(`  - not used: ${escapeInline(skipped.url)} (${escapeInline(skipped.reason)})`);
  if (sitemaps.skippedMore > 0) lines.push(`  - and ${sitemaps.skippedMore} more sitemap file(s) not used`);
  return lines;
}

