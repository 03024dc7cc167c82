import { readSiteReadPages } from '../../db/organizations.ts';
import { pagesFetchedOn } from '../../db/site-pages.ts';
import { readConfig } from '../../ground/config.ts';
import type { SitePaths } from '../../ground/schemas/path-scope.ts';
import { messageOf, rateLimited } from '../../ground/errors.ts';
import { logEvent } from '../../ground/log.ts';
import { DEFAULT_PAGE_BUDGET } from '../frontier.ts';
import { readsHost } from '../hosts.ts';
import { launchRun } from '../../runs/launch.ts';
import { siteReadReportOf } from './report-data.ts';
import { SITE_READ_STEPS, sleep, today } from './state.ts';
import type { Db } from '../../ground/db-session.ts';

/** Starting site reads: on request, when onboarding finishes, before a watch's research. */

/** Site reads one organization may have running at once (its own domain and 25 competitors fit). */
export const MAX_RUNNING_SITE_READS = 30;

/**
 * Whether this deployment reads `domain`'s site. With SITE_ORIGIN_OVERRIDES set (development and
 * tests, offline), only the sites whose apex or `www.` host it names: any other is not reached at all.
 */
export function readsSiteOf(env: Env, domain: string): boolean {
  const overrides = readConfig(env).SITE_ORIGIN_OVERRIDES;
  return readsHost(overrides, domain) || readsHost(overrides, `www.${domain}`);
}

/** Seconds until the next UTC day, when the day's page count starts again. */
function secondsToNextDay(now = Date.now()): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000));
}

/** What of a site a read reads: its path lists, and the site's hosts it names besides the apex and `www.` (lower case). */
export type SiteScope = SitePaths & { hosts?: readonly string[] };

/** The scope as a read's arguments keep it: only the lists not empty (none: every path, the apex and `www.`). */
function scopeArgs(scope: SiteScope | undefined): Partial<SitePaths> & { hosts?: string[] } {
  return {
    ...(scope?.includePaths.length ? { includePaths: scope.includePaths } : {}),
    ...(scope?.excludePaths.length ? { excludePaths: scope.excludePaths } : {}),
    ...(scope?.hosts?.length ? { hosts: [...scope.hosts] } : {}),
  };
}

/**
 * Starts a read of `domain` (normalized) for the organization, of `budget` pages (default: the
 * organization's setting, else DEFAULT_PAGE_BUDGET), or finds the read of it already running (one
 * per domain per organization). `origin`: where the request that started it reached this
 * deployment; the read's user agent names that origin's /bot page unless SITE_READ_CONTACT_URL is set
 * (a read a watch starts has no request: it names the setting, or no page). `paths`: the read's
 * includePaths and excludePaths (src/sites/path-scope.ts) and the other hosts of the site it names,
 * kept in its arguments when not empty; a read found running keeps its own. Past the day's page limit: 429 with Retry-After until
 * the next UTC day; past MAX_RUNNING_SITE_READS running reads: 429. Nothing is written when refused.
 */
export async function startSiteRead(env: Env, db: Db, organizationId: string, domain: string, budget?: number, origin?: string, paths?: SiteScope): Promise<{ id: string; started: boolean; budget: number }> {
  const limit = readConfig(env).SITE_READ_PAGES_PER_DAY;
  const fetched = await pagesFetchedOn(db, organizationId, today());
  if (fetched >= limit) {
    throw rateLimited(
      secondsToNextDay(),
      `Your organization's site reads fetched ${fetched} pages today (UTC), the most they may (${limit} a day); pages answered 304 Not Modified are not counted. Read again after midnight UTC.`,
    );
  }
  const pages = budget ?? (await readSiteReadPages(db, organizationId)) ?? DEFAULT_PAGE_BUDGET;
  const launched = await launchRun(
    env,
    db,
    { kind: 'site-read', organizationId, target: domain, args: { domain, pages, ...(origin ? { origin } : {}), ...scopeArgs(paths) }, steps: [...SITE_READ_STEPS] },
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
 * each as startSiteRead does (with `paths` for each); a domain this deployment does not read (readsSiteOf) is left out, and
 * a refusal is reported, never thrown: the caller's own work goes on.
 */
export async function startSiteReads(env: Env, db: Db, organizationId: string, domains: readonly string[], origin?: string, paths?: SitePaths): Promise<SiteReadStart[]> {
  const readable = [...new Set(domains)].filter((domain) => readsSiteOf(env, domain));
  return Promise.all(
    readable.map(async (domain): Promise<SiteReadStart> => {
      try {
        const { id } = await startSiteRead(env, db, organizationId, domain, undefined, origin, paths);
        return { domain, runId: id };
      } catch (error) {
        const refused = messageOf(error);
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
 * Reads `domain`'s site for a watch about to research it: starts a read of the watch's `paths` (or
 * joins the read of the domain already running, whatever its paths) and waits until it ends, at most `waitMs`. `origin`: where
 * the request that created the watch reached this deployment (the read names its /bot page). Returns the run's id and final status, or null when no
 * read ran (a domain this deployment does not read, or a refusal: the research goes on with what is
 * stored).
 */
export async function readSiteBeforeResearch(
  env: Env,
  db: Db,
  organizationId: string,
  domain: string,
  paths?: SitePaths,
  origin?: string,
  waitMs = WATCH_SITE_READ_WAIT_MS,
): Promise<{ runId: string; status: string; complete: boolean } | null> {
  const [start] = await startSiteReads(env, db, organizationId, [domain], origin, paths);
  if (!start?.runId) return null;
  const stub = env.RUNS.get(env.RUNS.idFromString(start.runId));
  const deadline = Date.now() + waitMs;
  for (;;) {
    const run = await stub.read();
    if (!run || run.status !== 'running' || Date.now() >= deadline) {
      // Complete: the read ended well and reached every page it found (report-data.ts).
      const complete = run?.status === 'completed' && siteReadReportOf(run)?.complete === true;
      return { runId: start.runId, status: run?.status ?? 'missing', complete };
    }
    await sleep(WAIT_POLL_MS);
  }
}
