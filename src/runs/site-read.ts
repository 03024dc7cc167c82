import { getObject } from '../db/objects.ts';
import { readSiteReadPages } from '../db/organizations.ts';
import { commitStatements, countPagesStatement, knownSitePages, pagesFetchedOn, readSitePage, sitePageStatement, type SitePageOutcome, type SitePageRow } from '../db/site-pages.ts';
import { readConfig } from '../ground/config.ts';
import { rateLimited } from '../ground/errors.ts';
import { logEvent } from '../ground/log.ts';
import { sha256Hex } from '../ground/sha256.ts';
import { readPageText } from '../oms/fetch-source.ts';
import { storePage } from '../oms/import-pages.ts';
import { writeObjects } from '../oms/store.ts';
import { escapeInline } from '../research/markdown-escape.ts';
import { fetchSitePage, type SitePage, type SitePageOptions } from '../sites/fetch-page.ts';
import { DEFAULT_PAGE_BUDGET, Frontier, QUEUE_PER_BUDGET, siteUrl, type FrontierSnapshot } from '../sites/frontier.ts';
import { DEFAULT_MAX_LINKS, extractLinks } from '../sites/links.ts';
import { robotsPolicyFor, SITE_READER_USER_AGENT, type RobotsPolicy } from '../sites/robots.ts';
import { expandSitemaps } from '../sites/sitemap.ts';
import type { GateAnswer, SiteHostGate } from '../durable-objects/site-host-gate.ts';
import { launchRun } from './launch.ts';
import type { RunPlan, RunRecord, StepOutput, StepResult, StepWork } from './types.ts';

/**
 * A site read (`site-read` runs): reads a company's public site and stores each page as a `source`,
 * in three steps of its RunObject:
 *
 *   discover  robots.txt (our group, else `*`), then its sitemaps (or /sitemap.xml), index files
 *             too: the home page and the sitemaps' URLs seed the frontier (src/sites/frontier.ts)
 *   pages     the frontier's best URL first, at most 2 requests in flight and at least
 *             max(SITE_READ_MIN_DELAY_MS, Crawl-delay) between two request starts; the links of
 *             each page read are offered back. Works in slices (one `advance` each) and keeps
 *             its state in the run's scratch space, so a restart resumes it
 *   company   the domain's `company` object, created or named from the site
 *
 * Each page request is conditional when the last read stored validators; a page with a body becomes
 * (or updates) its source exactly as an import would (provenance `site-read`, the run id, the URL),
 * and its D1 record (`site_pages`: validators, text hash, which run handled it) and the day's page
 * count commit in the same batch. A page this run already handled (found in its scratch space or,
 * after a restart, in `site_pages` under this run's id) is neither requested nor counted again.
 *
 * A restart in the middle of a slice (the object reset, the slice's error retried by the alarm)
 * resumes from the scratch space: each URL is written to it before its request leaves, so a page
 * that was in flight is counted once, as D1 recorded it or as interrupted, and never requested again
 * (its D1 count may have landed); the links each page queued are kept with its record and offered
 * again when the frontier's latest snapshot (every SNAPSHOT_EVERY_PAGES pages) predates them.
 * Requests are paced from the later of the previous request's start and its answer, across steps,
 * slices and restarts (the time is kept in scratch too).
 */

export const SITE_READ_STEPS = ['discover', 'pages', 'company'] as const;

/** At most this many requests to one site at once. */
export const SITE_REQUESTS_IN_FLIGHT = 2;
/** robots.txt bytes read (the parser keeps the first 500 KiB, RFC 9309's floor). */
const ROBOTS_MAX_BYTES = 2 * 1024 * 1024;
/** A sitemap file's bytes as sent (gzip included; decompressed, sitemap.ts bounds it again). */
const SITEMAP_MAX_BYTES = 10 * 1024 * 1024;
/** Sitemap files read per site read. */
const SITEMAP_MAX_FILES = 20;
/** Examples kept per reason in the report (the counts are whole). */
const EXAMPLES_KEPT = 10;
/** The frontier is written to scratch at least every this many pages (and at every hand-over). */
const SNAPSHOT_EVERY_PAGES = 10;

/** What each page request ended as, for the report. */
type PageOutcome = SitePageOutcome | 'skipped' | 'failed';

interface Tally {
  requested: number;
  outcomes: Record<PageOutcome, number>;
  /** Of `unchanged`: answered 304 Not Modified. */
  notModified: number;
  /** Pages fetched with a body (what the day's page count counts). */
  fetched: number;
  /** Why pages were skipped or failed: reason -> count, and a few URLs each. */
  reasons: { skipped: Record<string, { count: number; urls: string[] }>; failed: Record<string, { count: number; urls: string[] }> };
  /** `<a href>`s of pages read that were not offered to the frontier: past a page's first DEFAULT_MAX_LINKS, too long, not a URL. */
  linksDropped?: number;
  /** Why the read stopped before its budget and queue ran out, if it did. */
  stopped?: string;
  /**
   * Pages recorded since the frontier's latest snapshot: after a restart, the links they queued are
   * offered again to the snapshot they are missing from.
   */
  recent?: string[];
  /** What the home page said of the company, for the company step. */
  home?: HomeFacts;
}

interface RobotsRecord {
  url: string;
  status: number;
  text: string | null;
  /** Set when robots.txt could not be fetched at all. */
  error?: string;
}

interface SitemapSummary {
  start: string[];
  filesRead: number;
  urls: number;
  truncated: boolean;
  skipped: { url: string; reason: string }[];
  skippedMore: number;
}

interface HomeFacts {
  siteName?: string;
  title?: string;
}

const SCRATCH = {
  robots: 'robots',
  sitemaps: 'sitemaps',
  frontier: 'frontier',
  tally: 'tally',
  /**
   * The URLs being requested now (InFlightEntry[]), each written before its request leaves: the pages
   * the frontier handed out (at most SITE_REQUESTS_IN_FLIGHT) and the redirect targets they claimed.
   */
  inFlight: 'in-flight',
  page: (url: string) => `page:${url}`,
} as const;

/** A URL being requested; `via`, for a redirect target, is the page the frontier handed out that led to it. */
interface InFlightEntry {
  url: string;
  via?: string;
}

/** What the read did with one URL (scratch `page:<url>`), and the links its page queued. */
interface PageRecord {
  outcome: PageOutcome;
  reason?: string;
  links?: string[];
}

/** Why a page in flight when its read's object was reset counts as failed (it is not requested again). */
export const INTERRUPTED_REASON = 'the read was interrupted while this page was being requested; it is not requested again by this read';

function newTally(): Tally {
  return {
    requested: 0,
    outcomes: { new: 0, changed: 0, unchanged: 0, gone: 0, skipped: 0, failed: 0 },
    notModified: 0,
    fetched: 0,
    reasons: { skipped: {}, failed: {} },
  };
}

/** The run's arguments: the normalized domain and the page budget. */
function readArgs(run: RunRecord): { domain: string; budget: number } {
  const domain = String(run.args.domain);
  const budget = typeof run.args.pages === 'number' ? run.args.pages : DEFAULT_PAGE_BUDGET;
  return { domain, budget };
}

function today(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * What every request of one read shares: where it goes and how it is paced. Each request first takes
 * a start from the site's SiteHostGate (at most SITE_REQUESTS_IN_FLIGHT at once, and `gapMs` after
 * the previous start and the previous answer, across every step and slice of every read of the
 * site, whichever organization's), and gives it back when its answer is in.
 */
class SiteClient {
  readonly #gapMs: number;
  readonly #gate: DurableObjectStub<SiteHostGate>;

  constructor(
    env: Env,
    readonly domain: string,
    readonly options: Pick<SitePageOptions, 'originOverrides' | 'fetch' | 'timeoutMs'>,
    minDelayMs: number,
    crawlDelaySeconds: number | undefined,
  ) {
    this.#gapMs = Math.max(minDelayMs, (crawlDelaySeconds ?? 0) * 1000);
    this.#gate = env.SITE_GATES.get(env.SITE_GATES.idFromName(domain));
  }

  /**
   * Requests `url` in its turn. When the answer is in, the gap runs from then too: a Worker's clock
   * stands still while it computes, so the start a turn claimed may lie a little before the request
   * really left; an answer's time never lies before its request reached the site.
   */
  async request(url: string, extra: Partial<SitePageOptions> = {}): Promise<SitePage> {
    let answer: GateAnswer = await this.#gate.acquire(this.#gapMs, SITE_REQUESTS_IN_FLIGHT);
    while (answer.lease === null) {
      await sleep(answer.retryInMs);
      answer = await this.#gate.acquire(this.#gapMs, SITE_REQUESTS_IN_FLIGHT);
    }
    const { lease, waitMs } = answer;
    await sleep(waitMs);
    try {
      return await fetchSitePage(url, { domain: this.domain, userAgent: SITE_READER_USER_AGENT, ...this.options, ...extra });
    } finally {
      // The next start waits the gap after this answer too; a lease not given back frees itself after LEASE_MS.
      await this.#gate.release(lease).catch(() => {});
    }
  }
}

function clientFor(env: Env, domain: string, crawlDelaySeconds: number | undefined): SiteClient {
  const config = readConfig(env);
  return new SiteClient(env, domain, { originOverrides: config.SITE_ORIGIN_OVERRIDES, timeoutMs: config.SITE_READ_PAGE_TIMEOUT_MS }, config.SITE_READ_MIN_DELAY_MS, crawlDelaySeconds);
}

function robotsPolicyOf(record: RobotsRecord): RobotsPolicy {
  return robotsPolicyFor(record.url, record.status, record.text);
}

// ------------------------------------------------------------------------------------------------
// discover

async function discover(env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
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
    start,
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

// ------------------------------------------------------------------------------------------------
// pages

async function readPages(env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
  const { domain, budget } = readArgs(run);
  const robots = work.scratch.get<RobotsRecord>(SCRATCH.robots);
  const snapshot = work.scratch.get<FrontierSnapshot>(SCRATCH.frontier);
  if (!robots || !snapshot) throw new Error('the discover step left no robots.txt or queue behind');
  const policy = robotsPolicyOf(robots);
  const frontier = Frontier.restore({ domain, budget, allows: (url) => policy.allows(url) }, snapshot);
  const tally = work.scratch.get<Tally>(SCRATCH.tally) ?? newTally();
  const client = clientFor(env, domain, policy.crawlDelaySeconds);
  const config = readConfig(env);
  const db = env.DB;
  const org = run.organizationId;
  let fetchedToday = await pagesFetchedOn(db, org, today());
  let sinceSnapshot = 0;

  const save = () => {
    tally.recent = [];
    work.scratch.put(SCRATCH.frontier, frontier.snapshot());
    work.scratch.put(SCRATCH.tally, tally);
    sinceSnapshot = 0;
  };

  const record = (url: string, outcome: PageOutcome, reason?: string, links?: string[]) => {
    const entry: PageRecord = { outcome, ...(reason ? { reason } : {}), ...(links?.length ? { links } : {}) };
    work.scratch.put(SCRATCH.page(url), entry);
    tally.requested += 1;
    tally.outcomes[outcome] += 1;
    if ((outcome === 'skipped' || outcome === 'failed') && reason) {
      const byReason = (tally.reasons[outcome][reasonKey(reason)] ??= { count: 0, urls: [] });
      byReason.count += 1;
      if (byReason.urls.length < EXAMPLES_KEPT) byReason.urls.push(url);
    }
    (tally.recent ??= []).push(url);
    work.scratch.put(SCRATCH.tally, tally);
    if (++sinceSnapshot >= SNAPSHOT_EVERY_PAGES) save();
  };

  // After a restart (the object reset in the middle of a slice), before anything else: the pages that
  // were in flight are counted once, as D1 recorded them or as interrupted, never requested again;
  // and the links that the pages recorded since the latest snapshot queued are queued again.
  const inFlightBefore = work.scratch.get<InFlightEntry[]>(SCRATCH.inFlight) ?? [];
  const recentBefore = tally.recent ?? [];
  if (inFlightBefore.length > 0 || recentBefore.length > 0) {
    for (const url of recentBefore) {
      for (const link of work.scratch.get<PageRecord>(SCRATCH.page(url))?.links ?? []) frontier.add(link);
    }
    for (const { url, via } of inFlightBefore) {
      // Recorded now, so that when the frontier hands it out again (and counts it again against the
      // budget, as before the restart) it is not requested. A redirect target is no page of the
      // report's own (the page that led to it is): it is only marked handled.
      if (work.scratch.get(SCRATCH.page(url)) !== undefined) continue;
      const stored = await readSitePage(db, org, url);
      const outcome: PageOutcome = stored?.runId === run.id ? stored.outcome : 'failed';
      if (via !== undefined) work.scratch.put(SCRATCH.page(url), { outcome } satisfies PageRecord);
      else if (outcome === 'failed') record(url, outcome, INTERRUPTED_REASON);
      else record(url, outcome);
    }
    work.scratch.put(SCRATCH.inFlight, []);
    save();
  }

  const inFlightNow = () => work.scratch.get<InFlightEntry[]>(SCRATCH.inFlight) ?? [];

  const readOne = async (url: string): Promise<void> => {
    if (work.scratch.get(SCRATCH.page(url)) !== undefined) return;
    const stored = await readSitePage(db, org, url);
    if (stored?.runId === run.id) {
      // Handled by this run before a restart: its D1 record says how; it is not requested again.
      record(url, stored.outcome);
      return;
    }
    const conditional = stored?.state === 'live' && stored.sourceStored ? { etag: stored.etag ?? undefined, lastModified: stored.lastModified ?? undefined } : undefined;
    // A cancel may have landed while D1 answered: a cancelled read sends nothing more.
    if (!work.stillRunning()) return;
    // Written before the request leaves (a Durable Object sends nothing until its storage has it).
    work.scratch.put(SCRATCH.inFlight, [...inFlightNow(), { url }]);
    const claim = (target: string): boolean => {
      if (!frontier.claim(target)) return false;
      work.scratch.put(SCRATCH.inFlight, [...inFlightNow(), { url: target, via: url }]);
      return true;
    };
    const page = await client.request(url, { conditional, allows: (target) => policy.allows(target), claim });
    const outcome = await settle(env, run, domain, frontier, page, stored, tally);
    if (outcome.counted) fetchedToday += 1;
    record(url, outcome.outcome, outcome.reason, outcome.links);
    // Reached by a redirect: the page it led to is handled too.
    if (page.url !== url) work.scratch.put(SCRATCH.page(page.url), { outcome: outcome.outcome } satisfies PageRecord);
    work.scratch.put(SCRATCH.inFlight, inFlightNow().filter((entry) => entry.url !== url && entry.via !== url));
  };

  const inFlight = new Set<Promise<void>>();
  for (;;) {
    if (!work.stillRunning()) break;
    if (Date.now() >= work.handOverAt) break;
    if (fetchedToday >= config.SITE_READ_PAGES_PER_DAY) {
      tally.stopped = `the organization's site reads fetched ${fetchedToday} pages today, the most they may (SITE_READ_PAGES_PER_DAY); the rest waits for the next read`;
      break;
    }
    if (inFlight.size >= SITE_REQUESTS_IN_FLIGHT) {
      await Promise.race(inFlight);
      continue;
    }
    const url = frontier.next();
    if (url === undefined) {
      if (inFlight.size === 0) break;
      // A page still being read may offer more links.
      await Promise.race(inFlight);
      continue;
    }
    const task: Promise<void> = readOne(url).finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  save();

  const finished = tally.stopped !== undefined || frontier.done;
  if (!finished) return { progress: `${tally.requested} of at most ${budget} pages requested` };
  return output(pagesSummary(tally, budget), pagesDetails(tally, frontier, budget));
}

/** Reasons grouped in the report: the text without the URL it names (`the redirect to X ...` -> one group). */
function reasonKey(reason: string): string {
  return reason.replace(/https?:\/\/\S+/g, '(a URL)').slice(0, 200);
}

/**
 * What one page answer means: stores a page with a body as its source (or keeps the source when its
 * text is the same), records validators and outcome in D1 in the same batch as the day's count, and
 * offers its links to the frontier.
 */
async function settle(
  env: Env,
  run: RunRecord,
  domain: string,
  frontier: Frontier,
  page: SitePage,
  stored: SitePageRow | null,
  tally: Tally,
): Promise<{ outcome: PageOutcome; reason?: string; counted: boolean; links?: string[] }> {
  const db = env.DB;
  const org = run.organizationId;
  const at = new Date().toISOString();
  const base = { url: page.url, domain, runId: run.id, at };
  switch (page.kind) {
    case 'not-modified': {
      tally.notModified += 1;
      await commitStatements(db, [sitePageStatement(db, org, { ...base, state: 'live', outcome: 'unchanged', changed: false })]);
      return { outcome: 'unchanged', counted: false };
    }
    case 'gone': {
      if (stored) await commitStatements(db, [sitePageStatement(db, org, { ...base, state: 'gone', outcome: 'gone', changed: stored.state !== 'gone' })]);
      return { outcome: 'gone', reason: `HTTP ${page.status}`, counted: false };
    }
    case 'skipped':
      return { outcome: 'skipped', reason: page.reason, counted: false };
    case 'failed':
      return { outcome: 'failed', reason: page.reason, counted: false };
    case 'page':
      break;
  }
  const count = countPagesStatement(db, org, today());
  const response = () => new Response(page.body, { headers: { 'content-type': page.contentType } });
  const links = await extractLinks(response(), page.url);
  if (links.canonical !== undefined && frontier.markCanonical(links.canonical, page.url) === 'duplicate') {
    await commitStatements(db, [count]);
    return { outcome: 'skipped', reason: 'a copy of a page already read (its canonical URL)', counted: true };
  }
  // The links queued are kept with the page's record: a restart offers them again (see readPages).
  const queued: string[] = [];
  for (const link of links.links) {
    const added = frontier.add(link);
    if (added.queued) queued.push(added.url);
  }
  if (links.droppedLinks > 0) tally.linksDropped = (tally.linksDropped ?? 0) + links.droppedLinks;
  let text;
  try {
    text = await readPageText(page.body, page.contentType, page.url);
  } catch (error) {
    await commitStatements(db, [count]);
    return { outcome: 'failed', reason: error instanceof Error ? error.message : String(error), counted: true, links: queued };
  }
  if (!text.ok) {
    await commitStatements(db, [count]);
    return { outcome: 'failed', reason: text.error, counted: true, links: queued };
  }
  // The company step names the company from its home page.
  if (new URL(page.url).pathname === '/') tally.home = { title: text.title, ...(links.siteName ? { siteName: links.siteName } : {}) };
  const hash = await sha256Hex(`${text.title}\n${text.content}`);
  if (frontier.markContentHash(hash, page.url) === 'duplicate') {
    await commitStatements(db, [count]);
    return { outcome: 'skipped', reason: 'the same text as a page already read', counted: true, links: queued };
  }
  const validators = { ...(page.etag ? { etag: page.etag } : {}), ...(page.lastModified ? { lastModified: page.lastModified } : {}) };
  if (stored && stored.sourceStored && stored.contentHash === hash && stored.state === 'live') {
    await commitStatements(db, [sitePageStatement(db, org, { ...base, ...validators, state: 'live', contentHash: hash, outcome: 'unchanged', changed: false }), count]);
    return { outcome: 'unchanged', counted: true, links: queued };
  }
  const outcome: SitePageOutcome = stored?.sourceStored ? 'changed' : 'new';
  const written = await storePage(db, org, text, { kind: 'site-read', id: run.id }, at, (result) => [
    sitePageStatement(db, org, { ...base, ...validators, state: 'live', contentHash: hash, outcome: result === 'unchanged' ? 'unchanged' : outcome, changed: result !== 'unchanged' }),
    count,
  ]);
  if (!written.ok) {
    await commitStatements(db, [count]);
    return { outcome: 'failed', reason: written.error, counted: true, links: queued };
  }
  return { outcome: written.outcome === 'unchanged' ? 'unchanged' : outcome, counted: true, links: queued };
}

function pagesSummary(tally: Tally, budget: number): string {
  const o = tally.outcomes;
  return `${tally.requested} of at most ${budget} pages requested: ${o.new} new, ${o.changed} changed, ${o.unchanged} unchanged, ${o.gone} gone, ${o.skipped} skipped, ${o.failed} failed`;
}

function pagesDetails(tally: Tally, frontier: Frontier, budget: number): string[] {
  const o = tally.outcomes;
  const report = frontier.report();
  const lines = [
    `- Pages requested: ${tally.requested} (budget ${budget}).`,
    `- New: ${o.new}. Changed: ${o.changed}. Unchanged: ${o.unchanged}${tally.notModified ? ` (${tally.notModified} answered 304 Not Modified)` : ''}. Gone (404/410, marked, not deleted): ${o.gone}.`,
    `- Skipped: ${o.skipped}. Failed: ${o.failed}.`,
  ];
  for (const kind of ['skipped', 'failed'] as const) {
    const reasons = Object.entries(tally.reasons[kind]).sort((a, b) => b[1].count - a[1].count);
    if (!reasons.length) continue;
    lines.push(`- ${kind === 'skipped' ? 'Skipped' : 'Failed'}, by reason:`);
    for (const [reason, { count, urls }] of reasons.slice(0, 20)) {
      lines.push(`  - ${escapeInline(reason)}: ${count} (${urls.slice(0, 3).map(escapeInline).join(', ')}${count > 3 ? ', ...' : ''})`);
    }
  }
  const notQueued = Object.entries(report.skipped)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${n} ${reason}`);
  if (tally.linksDropped) notQueued.push(`${tally.linksDropped} not read from their page (past its first ${DEFAULT_MAX_LINKS} links, too long, or not a URL)`);
  if (notQueued.length) lines.push(`- Links not followed: ${notQueued.join(', ')}.`);
  if (report.queued > 0) lines.push(`- ${report.queued} URL(s) still queued when the budget was spent.`);
  if (tally.stopped) lines.push(`- Stopped early: ${escapeInline(tally.stopped)}.`);
  return lines;
}

// ------------------------------------------------------------------------------------------------
// company

async function nameCompany(env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
  const { domain } = readArgs(run);
  const tally = work.scratch.get<Tally>(SCRATCH.tally);
  const name = companyNameFrom(domain, tally?.home);
  const existing = await getObject(env.DB, run.organizationId, 'company', domain);
  const properties: Record<string, unknown> = { domain };
  if (name && typeof existing?.properties.name !== 'string') properties.name = name;
  const [outcome] = (await writeObjects(env.DB, run.organizationId, [{ type: 'company', key: domain, properties }], [], { kind: 'site-read', id: run.id, url: `https://${domain}/` })).objects;
  const shown = typeof existing?.properties.name === 'string' ? existing.properties.name : name;
  const what = outcome === 'created' ? 'created' : outcome === 'updated' ? 'updated' : 'unchanged';
  return output(`company ${domain} ${what}${shown ? ` (${shown})` : ''}`, [`- Company ${escapeInline(domain)}: ${what}${shown ? `, named ${escapeInline(String(shown))}` : ''}.`]);
}

/**
 * The company's name as its site gives it: `og:site_name` (or `application-name`) of the home page,
 * else the part of the home page's title (split at ` | `, ` - `, ` — `, `: `) that looks most like the domain's name.
 */
export function companyNameFrom(domain: string, home: HomeFacts | undefined): string | undefined {
  if (home?.siteName) return home.siteName.slice(0, 200);
  const title = home?.title?.trim();
  if (!title) return undefined;
  const parts = title.split(/\s+[|\-–—·]\s+|:\s+/).map((part) => part.trim()).filter(Boolean);
  const label = domain.split('.')[0]!.replace(/[^a-z0-9]/g, '');
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const named = parts.find((part) => squash(part).includes(label) || (label.includes(squash(part)) && squash(part).length >= 3));
  return (named ?? parts[0])?.slice(0, 200);
}

// ------------------------------------------------------------------------------------------------
// the plan

function output(summary: string, details: string[]): StepOutput {
  return { score: null, summary, details, findings: [], sources: [], fixes: [] };
}

function render(run: RunRecord): string {
  const { domain, budget } = readArgs(run);
  const lines = [`# Site read of ${escapeInline(domain)}`, '', `Run ${run.id}, ${run.status}; page budget ${budget}.`, ''];
  for (const step of run.steps) {
    if (step.status === 'done' && step.output) {
      lines.push(`## ${STEP_TITLES[step.name as keyof typeof STEP_TITLES] ?? step.name}`, '', sentence(escapeInline(step.output.summary)), '', ...step.output.details, '');
    } else if (step.status === 'failed') {
      lines.push(`## ${STEP_TITLES[step.name as keyof typeof STEP_TITLES] ?? step.name}`, '', sentence(`Failed: ${escapeInline(step.error ?? 'unknown error')}`), '');
    } else if (run.status !== 'running') {
      lines.push(`## ${STEP_TITLES[step.name as keyof typeof STEP_TITLES] ?? step.name}`, '', `Not done (the run was ${run.status}${step.progress ? ` after ${escapeInline(step.progress)}` : ''}).`, '');
    }
  }
  if (run.status === 'completed') {
    lines.push(`The pages read are sources of your organization now: \`research\` cites them, and a later read of ${escapeInline(domain)} sends conditional requests.`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** `text` ending with one full stop. */
function sentence(text: string): string {
  return `${text.replace(/[.\s]+$/, '')}.`;
}

const STEP_TITLES = { discover: 'robots.txt and sitemaps', pages: 'Pages', company: 'Company' } as const;

export const siteReadPlan: RunPlan = {
  kind: 'site-read',
  async executeStep(env, run, step, work) {
    switch (step) {
      case 'discover':
        return discover(env, run, work);
      case 'pages':
        return readPages(env, run, work);
      case 'company':
        return nameCompany(env, run, work);
      default:
        throw new Error(`unknown site-read step ${step}`);
    }
  },
  render,
};

// ------------------------------------------------------------------------------------------------
// starting a read

/** Site reads one organization may have running at once (its own domain and 25 competitors fit). */
export const MAX_RUNNING_SITE_READS = 30;

/**
 * Whether this deployment reads `domain`'s site. With SITE_ORIGIN_OVERRIDES set (development and
 * tests, offline), only the sites it names: any other domain is not reached at all.
 */
export function readsSiteOf(env: Env, domain: string): boolean {
  const overrides = readConfig(env).SITE_ORIGIN_OVERRIDES;
  return overrides.size === 0 || overrides.has(domain);
}

/** Seconds until the next UTC day, when the day's page count starts again. */
function secondsToNextDay(now = Date.now()): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000));
}

/**
 * Starts a read of `domain` (normalized) for the organization, of `budget` pages (default: the
 * organization's setting, else DEFAULT_PAGE_BUDGET), or finds the read of it already running (one
 * per domain per organization). Past the day's page limit: 429 with Retry-After until
 * the next UTC day; past MAX_RUNNING_SITE_READS running reads: 429. Nothing is written when refused.
 */
export async function startSiteRead(env: Env, organizationId: string, domain: string, budget?: number): Promise<{ id: string; started: boolean; budget: number }> {
  const limit = readConfig(env).SITE_READ_PAGES_PER_DAY;
  const fetched = await pagesFetchedOn(env.DB, organizationId, today());
  if (fetched >= limit) {
    throw rateLimited(
      secondsToNextDay(),
      `Your organization's site reads fetched ${fetched} pages today (UTC), the most they may (${limit} a day); pages answered 304 Not Modified are not counted. Read again after midnight UTC.`,
    );
  }
  const pages = budget ?? (await readSiteReadPages(env.DB, organizationId)) ?? DEFAULT_PAGE_BUDGET;
  const launched = await launchRun(
    env,
    { kind: 'site-read', organizationId, target: domain, args: { domain, pages }, steps: [...SITE_READ_STEPS] },
    { cap: MAX_RUNNING_SITE_READS, kinds: ['site-read'], onePerTarget: true },
  );
  if (launched.started) return { id: launched.id, started: true, budget: pages };
  if (launched.running) return { id: launched.running, started: false, budget: pages };
  throw rateLimited(
    10,
    `Your organization already has ${MAX_RUNNING_SITE_READS} site reads going, the most it may run at once; wait for one to finish (GET /api/v1/runs?kind=site-read lists them), then start again.`,
  );
}

/** A read started (or found running) for one domain, or why not. */
export interface SiteReadStart {
  domain: string;
  runId: string | null;
  /** Why no read runs for it (the day's page limit, too many reads running). */
  refused?: string;
}

/**
 * Starts reads of `domains` for the organization (onboarding: its own domain and its competitors'),
 * each as startSiteRead does; a domain this deployment does not read (readsSiteOf) is left out, and
 * a refusal is reported, never thrown: the caller's own work goes on.
 */
export async function startSiteReads(env: Env, organizationId: string, domains: readonly string[]): Promise<SiteReadStart[]> {
  const readable = [...new Set(domains)].filter((domain) => readsSiteOf(env, domain));
  return Promise.all(
    readable.map(async (domain): Promise<SiteReadStart> => {
      try {
        const { id } = await startSiteRead(env, organizationId, domain);
        return { domain, runId: id };
      } catch (error) {
        const refused = error instanceof Error ? error.message : String(error);
        logEvent('site_read_not_started', { organizationId, domain, reason: refused });
        return { domain, runId: null, refused };
      }
    }),
  );
}

/** How long a watch execution waits for the read of its target's site before researching what is stored. */
export const WATCH_SITE_READ_WAIT_MS = 3 * 60_000;
const WAIT_POLL_MS = 250;

/**
 * Reads `domain`'s site for a watch about to research it: starts a read (or joins the one running)
 * and waits until it ends, at most `waitMs`. Returns the run's id and final status, or null when no
 * read ran (a domain this deployment does not read, or a refusal: the research goes on with what is
 * stored).
 */
export async function readSiteBeforeResearch(
  env: Env,
  organizationId: string,
  domain: string,
  waitMs = WATCH_SITE_READ_WAIT_MS,
): Promise<{ runId: string; status: string } | null> {
  const [start] = await startSiteReads(env, organizationId, [domain]);
  if (!start?.runId) return null;
  const stub = env.RUNS.get(env.RUNS.idFromString(start.runId));
  const deadline = Date.now() + waitMs;
  for (;;) {
    const run = await stub.read();
    if (!run || run.status !== 'running' || Date.now() >= deadline) return { runId: start.runId, status: run?.status ?? 'missing' };
    await sleep(WAIT_POLL_MS);
  }
}
