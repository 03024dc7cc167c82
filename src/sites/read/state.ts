import type { SitePageOutcome } from '../../db/site-pages.ts';
import { DEFAULT_PAGE_BUDGET } from '../frontier.ts';
import type { SitePaths } from '../../ground/schemas/path-scope.ts';
import type { JobBoard } from '../job-boards.ts';
import type { RunRecord, StepOutput } from '../../runs/types.ts';

/**
 * What the steps of a site read share: its arguments, and what they keep in the run's scratch space
 * between steps and slices (robots.txt as read, the sitemaps' summary, the frontier's snapshot, the
 * tally, the URLs in flight, each page's record). See plan.ts for the read as a whole.
 */

export const SITE_READ_STEPS = ['discover', 'pages', 'feeds', 'boards', 'company'] as const;

/** Examples kept per reason in the report (the counts are whole). */
export const EXAMPLES_KEPT = 10;
/** The frontier is written to scratch at least every this many pages (and at every hand-over). */
export const SNAPSHOT_EVERY_PAGES = 50;

/** What each page request ended as, for the report (a `noindex` page is `skipped`, its reason says why). */
export type PageOutcome = Exclude<SitePageOutcome, 'noindex'>;

/** The report's outcome of what D1 recorded of a page. */
export function pageOutcomeOf(outcome: SitePageOutcome): PageOutcome {
  return outcome === 'noindex' ? 'skipped' : outcome;
}

export interface Tally {
  requested: number;
  outcomes: Record<PageOutcome, number>;
  /** Of `unchanged`: answered 304 Not Modified. */
  notModified: number;
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
  /** Hosts whose robots.txt the discover step reported (the pages step reports the ones read after). */
  robotsReported?: number;
  /** The hosts pages were read from (`globex.com`, `www.globex.com`), at most 10. */
  hosts?: string[];
  /** Pages that asked not to be indexed (noindex): not kept as sources. */
  noindex?: { count: number; urls: string[] };
  /** Pages whose links were not followed (nofollow). */
  nofollow?: number;
  /** Pages rendered in a browser, and pages that needed one but were not rendered (no binding, the day's renders spent, a failure). */
  rendered?: number;
  needsBrowser?: { count: number; urls: string[] };
  /** Documents (PDFs) read as sources. */
  documents?: number;
  /** Feeds the pages link with `<link rel="alternate">` (the feeds step reads them). */
  feeds?: string[];
  /** Public job boards the pages link (the boards step reads them). */
  boards?: JobBoard[];
  /** The site's refusals (429, 503): in all, in a row now, and when it may be read again. */
  pushback?: { refusals: number; inARow: number; retryAt?: string };
}

export interface RobotsRecord {
  url: string;
  status: number;
  text: string | null;
  /** Set when robots.txt could not be fetched at all. */
  error?: string;
}

export interface SitemapSummary {
  filesRead: number;
  urls: number;
  truncated: boolean;
  skipped: { url: string; reason: string }[];
  skippedMore: number;
}

export interface HomeFacts {
  siteName?: string;
  title?: string;
}

export const SCRATCH = {
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
  /** What the feeds and boards steps read (their output), once done. */
  feedsDone: 'feeds-done',
  boardsDone: 'boards-done',
  /** The robots.txt of a job board's API host, as SiteRobots keeps it. */
  boardRobots: (host: string) => `robots:${host}`,
} as const;

/** A URL being requested; `via`, for a redirect target, is the page the frontier handed out that led to it. */
export interface InFlightEntry {
  url: string;
  via?: string;
}

/** What the read did with one URL (scratch `page:<url>`), and the links its page queued. */
export interface PageRecord {
  outcome: PageOutcome;
  reason?: string;
  links?: string[];
}


export function newTally(): Tally {
  return {
    requested: 0,
    outcomes: { new: 0, changed: 0, unchanged: 0, gone: 0, skipped: 0, failed: 0 },
    notModified: 0,
    reasons: { skipped: {}, failed: {} },
  };
}

/**
 * The run's arguments: the normalized domain, the page budget, the origin of the request that
 * started it, its path lists (src/sites/path-scope.ts; empty when the read names none) and the
 * site's hosts it names besides the apex and `www.` (empty when none).
 */
export function readArgs(run: RunRecord): { domain: string; budget: number; origin?: string; hosts: string[] } & SitePaths {
  const domain = String(run.args.domain);
  const budget = typeof run.args.pages === 'number' ? run.args.pages : DEFAULT_PAGE_BUDGET;
  const paths = { includePaths: stringsOf(run.args.includePaths), excludePaths: stringsOf(run.args.excludePaths) };
  return { domain, budget, ...(typeof run.args.origin === 'string' ? { origin: run.args.origin } : {}), ...paths, hosts: stringsOf(run.args.hosts) };
}

/** A list of strings kept in a run's arguments; anything else (absent on reads made before path scopes) is empty. */
function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Of a read's page budget, the requests kept for the feeds and boards steps (at most this many, a tenth of the budget). */
export const EXTRAS_RESERVED = 4;

/** The pages the frontier may hand out: the budget less what the feeds and boards steps keep (a tenth, at most EXTRAS_RESERVED). */
export function pageBudget(budget: number): number {
  return budget - Math.min(EXTRAS_RESERVED, Math.floor(budget / 10));
}

export function today(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

export const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());


/** A step's output: a summary line and the report's lines. */
export function output(summary: string, details: string[], data?: object): StepOutput {
  return { score: null, summary, details, findings: [], sources: [], fixes: [], ...(data ? { data: JSON.stringify(data) } : {}) };
}
