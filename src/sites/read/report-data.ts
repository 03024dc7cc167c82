import type { FrontierReport } from '../frontier.ts';
import type { RunRecord } from '../../runs/types.ts';
import type { SitePolicy } from './site-robots.ts';
import type { Tally } from './state.ts';

/**
 * The report of a site read as data: what the markdown report says, for a client that reads
 * structure (MCP `structuredContent` of run-status and of a task's result). Each step keeps its part
 * in its output's `data`; `siteReadReportOf` puts them together once the run has ended.
 */

/** Examples of URLs kept per list (the counts are whole). */
const URLS_KEPT = 10;

export interface SiteReadReport {
  domain: string;
  budget: number;
  /** Hosts pages were read from (`www.globex.com`). */
  hosts: string[];
  /** Each host's robots.txt: where it was read and what it decided. */
  robots: { host: string; source: 'parsed' | 'unavailable' | 'unreachable'; crawlDelaySeconds?: number }[];
  sitemaps: { filesRead: number; urls: number };
  pages: { requested: number; new: number; changed: number; unchanged: number; notModified: number; gone: number; skipped: number; failed: number };
  documents: number;
  rendered: number;
  needsBrowser: { count: number; urls: string[] };
  noindex: { count: number; urls: string[] };
  nofollow: number;
  canonical: { keptUnderCanonical: number; ignored: number };
  feeds: { url: string; kind: string; entries: number; stored: number }[];
  jobBoards: { kind: string; token: string; boardUrl: string; roles: number; stored: number }[];
  /** The site's refusals (HTTP 429, 503) and when it may be read again. */
  pushback: { refusals: number; retryAt: string | null };
  /** Why the read stopped before its budget and queue ran out, if it did. */
  stopped: string | null;
  /**
   * Whether the read reached every page it found: its queue ran out within the budget (no URL left
   * queued or dropped from a full queue) and it did not stop early. A watch reports a page missing
   * from its previous reading as new only when that reading was complete: on a larger site, a page
   * read for the first time may be old.
   */
  complete: boolean;
}

/** The discover step's part. */
export function discoverData(policy: SitePolicy, sitemaps: { filesRead: number; urls: number }): Pick<SiteReadReport, 'robots' | 'sitemaps'> {
  return { robots: robotsData(policy), sitemaps: { filesRead: sitemaps.filesRead, urls: sitemaps.urls } };
}

/** The pages step's part (robots again: hosts met after discover are read then). */
export function pagesData(tally: Tally, frontier: Pick<FrontierReport, 'duplicates' | 'queued' | 'skipped'>, policy: SitePolicy): Omit<SiteReadReport, 'domain' | 'budget' | 'sitemaps' | 'feeds' | 'jobBoards'> {
  const o = tally.outcomes;
  return {
    hosts: tally.hosts ?? [],
    robots: robotsData(policy),
    pages: { requested: tally.requested, new: o.new, changed: o.changed, unchanged: o.unchanged, notModified: tally.notModified, gone: o.gone, skipped: o.skipped, failed: o.failed },
    documents: tally.documents ?? 0,
    rendered: tally.rendered ?? 0,
    needsBrowser: { count: tally.needsBrowser?.count ?? 0, urls: (tally.needsBrowser?.urls ?? []).slice(0, URLS_KEPT) },
    noindex: { count: tally.noindex?.count ?? 0, urls: (tally.noindex?.urls ?? []).slice(0, URLS_KEPT) },
    nofollow: tally.nofollow ?? 0,
    canonical: { keptUnderCanonical: frontier.duplicates.canonical, ignored: frontier.duplicates.canonicalIgnored ?? 0 },
    pushback: { refusals: tally.pushback?.refusals ?? 0, retryAt: tally.pushback?.retryAt ?? null },
    stopped: tally.stopped ?? null,
    complete: frontier.queued === 0 && (frontier.skipped['queue-full'] ?? 0) === 0 && !tally.stopped,
  };
}

function robotsData(policy: SitePolicy): SiteReadReport['robots'] {
  return policy.hosts.map(({ origin, policy: host }) => ({
    host: new URL(origin).host,
    source: host.source,
    ...(host.crawlDelaySeconds === undefined ? {} : { crawlDelaySeconds: host.crawlDelaySeconds }),
  }));
}

/** The report of a finished site read, from its steps' data; undefined for another kind, or before its pages step is done. */
export function siteReadReportOf(run: RunRecord): SiteReadReport | undefined {
  if (run.kind !== 'site-read') return undefined;
  const data = (name: string): Partial<SiteReadReport> => {
    const text = run.steps.find((step) => step.name === name && step.status === 'done')?.output?.data;
    return text === undefined ? {} : (JSON.parse(text) as Partial<SiteReadReport>);
  };
  const pages = data('pages');
  if (Object.keys(pages).length === 0) return undefined;
  const discover = data('discover');
  return {
    domain: String(run.args.domain),
    budget: typeof run.args.pages === 'number' ? run.args.pages : 0,
    sitemaps: { filesRead: 0, urls: 0 },
    feeds: [],
    jobBoards: [],
    ...discover,
    ...pages,
    ...data('feeds'),
    ...data('boards'),
  } as SiteReadReport;
}
