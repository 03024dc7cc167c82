import type { SitePageOutcome } from '../../db/site-pages.ts';
import { DEFAULT_PAGE_BUDGET } from '../../sites/frontier.ts';
import { robotsPolicyFor, type RobotsPolicy } from '../../sites/robots.ts';
import type { RunRecord, StepOutput } from '../types.ts';

/**
 * What the steps of a site read share: its arguments, and what they keep in the run's scratch space
 * between steps and slices (robots.txt as read, the sitemaps' summary, the frontier's snapshot, the
 * tally, the URLs in flight, each page's record). See plan.ts for the read as a whole.
 */

export const SITE_READ_STEPS = ['discover', 'pages', 'company'] as const;

/** Examples kept per reason in the report (the counts are whole). */
export const EXAMPLES_KEPT = 10;
/** The frontier is written to scratch at least every this many pages (and at every hand-over). */
export const SNAPSHOT_EVERY_PAGES = 10;

/** What each page request ended as, for the report. */
export type PageOutcome = SitePageOutcome | 'skipped' | 'failed';

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

/** Why a page in flight when its read's object was reset counts as failed (it is not requested again). */
export const INTERRUPTED_REASON = 'the read was interrupted while this page was being requested; it is not requested again by this read';

export function newTally(): Tally {
  return {
    requested: 0,
    outcomes: { new: 0, changed: 0, unchanged: 0, gone: 0, skipped: 0, failed: 0 },
    notModified: 0,
    reasons: { skipped: {}, failed: {} },
  };
}

/** The run's arguments: the normalized domain and the page budget. */
export function readArgs(run: RunRecord): { domain: string; budget: number } {
  const domain = String(run.args.domain);
  const budget = typeof run.args.pages === 'number' ? run.args.pages : DEFAULT_PAGE_BUDGET;
  return { domain, budget };
}

export function today(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

export const sleep = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

export function robotsPolicyOf(record: RobotsRecord): RobotsPolicy {
  return robotsPolicyFor(record.url, record.status, record.text);
}

/** A step's output: a summary line and the report's lines. */
export function output(summary: string, details: string[]): StepOutput {
  return { score: null, summary, details, findings: [], sources: [], fixes: [] };
}
