import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteLog } from '../../../scripts/lib/site-types.ts';
import type { RunObject } from '../../../src/runs/run-object.ts';
import { siteReadPlan } from '../../../src/sites/read/plan.ts';
import type { RunRecord, StepWork } from '../../../src/runs/types.ts';
import { createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { plansWithSteps } from '../../helpers/run-plans.ts';
import { bringSchedulesForward } from '../../helpers/schedules.ts';
import { forgetSharedCopy, requestedPaths, resetSiteLog, siteLog } from '../../helpers/sites.ts';
import { COMPANY_DOMAINS } from '../fixture-sites.ts';

/**
 * A site read that dies in the middle of its pages step is resumed by its alarm and counts every page
 * once: in its report, in the site's request log and in the organization's day's page count.
 *
 * The death is simulated the way a Durable Object loses work: from a point on (after its 4th page; or
 * right before one page's record), the object's own storage keeps nothing more and the object sends no
 * new request (the scratch space stays as it was: the frontier's latest snapshot and the pages
 * recorded so far), while what it had sent to D1 (the pages in flight, stored and counted there)
 * lands; then the slice throws, the step is retried by the alarm, and the read runs to its end. Each
 * way is read by its own organization. This file owns COMPANY_DOMAINS[3] (it reads its log).
 */
const DOMAIN = COMPANY_DOMAINS[3];
const BUDGET = 30;
/** Pages recorded in scratch before the object "dies" (the first way). */
const PAGES_BEFORE_DEATH = 4;
/** The files a read requests besides pages. */
const FILES = ['/robots.txt', '/sitemap_index.xml', '/sitemaps/pages.xml', '/sitemaps/blog.xml.gz'];
/** Pages of the site that are neither HTML nor a document: requested, answered 200, their body never read. */
const NOT_HTML = ['/feed'];

/**
 * When the simulated death comes: after the tally that counts the nth page, just before `url`'s page
 * is recorded, or right after `url` is written as in flight and before its request leaves.
 */
type Death = { afterPages: number } | { beforeRecordOf: string } | { beforeRequestOf: string };

interface DyingRead {
  org: TestOrganization;
  run: RunRecord;
  log: SiteLog;
  deaths: number;
}

/** The site-read plan whose first pages slice loses its object's writes from `death` on, then dies. */
function dyingPlans(death: Death, deaths: { count: number }) {
  return plansWithSteps('site-read', async (environment, record, step, work) => {
    if (step !== 'pages' || deaths.count > 0) return siteReadPlan.executeStep(environment, record, step, work);
    let pages = 0;
    let dead = false;
    // One write (put, or putAll's one statement) is stored whole or not at all.
    const write = (entries: ReadonlyArray<readonly [string, unknown]>, store: () => void) => {
      if ('beforeRecordOf' in death && entries.some(([key]) => key === `page:${death.beforeRecordOf}`)) dead = true;
      if (dead) return;
      store();
      for (const [key, value] of entries) {
        if ('beforeRequestOf' in death && key === 'in-flight' && (value as { url: string }[]).some((entry) => entry.url === death.beforeRequestOf)) {
          dead = true;
          throw new Error('the object was reset before the request left (simulated)');
        }
        if (key.startsWith('page:')) pages += 1;
      }
      // The death comes after the write of the tally that counts the nth page.
      if ('afterPages' in death && entries.some(([key]) => key === 'tally') && pages >= death.afterPages) dead = true;
    };
    const dying: StepWork = {
      ...work,
      scratch: {
        get: (key) => work.scratch.get(key),
        keys: (prefix) => work.scratch.keys(prefix),
        put: (key, value) => write([[key, value]], () => work.scratch.put(key, value)),
        putAll: (entries) => write(entries, () => work.scratch.putAll(entries)),
      },
      stillRunning: () => !dead && work.stillRunning(),
    };
    // A death inside a request ends the slice with that error; the pages then in flight still land in D1.
    await siteReadPlan.executeStep(environment, record, step, dying).catch(() => undefined);
    deaths.count += 1;
    throw new Error('the object was reset (simulated)');
  });
}

/** A read of DOMAIN for a new organization, whose object dies once as `death` says; driven by its alarms to its end. */
async function readDying(death: Death): Promise<DyingRead> {
  const org = await createOrganization();
  // Each read is another organization's: each must reach the site, not the copy the read before made.
  await forgetSharedCopy(DOMAIN);
  await resetSiteLog(DOMAIN);
  const deaths = { count: 0 };
  const stub = env.RUNS.get(env.RUNS.newUniqueId());
  const id = await runInDurableObject(stub, (instance: RunObject, state) => {
    instance.plans = dyingPlans(death, deaths);
    return state.id.toString();
  });
  await stub.start({ id, kind: 'site-read', organizationId: org.id, target: DOMAIN, args: { domain: DOMAIN, pages: BUDGET }, steps: ['discover', 'pages', 'company'] });
  for (let i = 0; i < 3_000 && (await stub.read())?.status === 'running'; i++) {
    await bringSchedulesForward(stub);
    if (!(await runDurableObjectAlarm(stub))) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { org, run: (await stub.read())!, log: await siteLog(DOMAIN), deaths: deaths.count };
}

async function pagesFetchedToday(org: TestOrganization): Promise<number> {
  const row = await env.DB.prepare('SELECT pages FROM site_read_usage WHERE organization_id = ?1').bind(org.id).first<{ pages: number }>();
  return row?.pages ?? 0;
}

function countsOnce(name: string, read: () => DyingRead): void {
  describe(name, () => {
    it('is resumed by its alarm and completes', () => {
      const { run, deaths } = read();
      expect(deaths).toBe(1);
      expect(run.status).toBe('completed');
      expect(run.steps.find((step) => step.name === 'pages')!.attempts).toBe(1);
    });

    it('requests every URL once (but a page in flight at the death, asked again), and still follows the links of the pages read before it died', () => {
      const paths = requestedPaths(read().log);
      expect(paths.length).toBeGreaterThan(PAGES_BEFORE_DEATH + 5);
      // A GET is safe to repeat: a page whose answer never reached D1 is asked again (at most the requests then in flight).
      const again = paths.filter((path, i) => paths.indexOf(path) !== i);
      expect(again.length).toBeLessThanOrEqual(2);
      expect(new Set(again).size).toBe(again.length);
      // Linked from the home page only (read before the death; the frontier's snapshot predates its links).
      expect(paths).toEqual(expect.arrayContaining(['/press', '/careers', '/partners']));
    });

    it('counts every page once in the report', () => {
      const { run, log } = read();
      const report = run.result!;
      const requested = Number(/- Pages requested: (\d+) \(budget/.exec(report)?.[1]);
      const again = requestedPaths(log).filter((path, i, paths) => paths.indexOf(path) !== i);
      const o = /- New: (\d+)\. Changed: (\d+)\. Unchanged: (\d+)(?: \(\d+ answered 304 Not Modified\))?\. Gone \(404\/410, marked, not deleted\): (\d+)\.\n- Skipped: (\d+)\. Failed: (\d+)\./.exec(report);
      expect(o).not.toBeNull();
      expect(o!.slice(1).map(Number).reduce((a, b) => a + b, 0)).toBe(requested);
      expect(requested).toBeLessThanOrEqual(BUDGET);
      // Each page the frontier handed out is one first request in the log (redirect hops are not pages of their own).
      const firstRequests = log.requests.filter((request) => request.method === 'GET' && !FILES.includes(request.path));
      const hops = firstRequests.filter((request) => /^\/chain\/[2-9]$/.test(request.path));
      expect(requested).toBe(firstRequests.length - hops.length - again.length);
    });

    it("counts in the organization's day's pages exactly the pages fetched with a body", async () => {
      const { org, log } = read();
      const bodies = new Set(log.requests.filter((request) => request.method === 'GET' && request.status === 200 && !FILES.includes(request.path) && !NOT_HTML.includes(request.path)).map((request) => request.path));
      expect(bodies.size).toBeGreaterThan(PAGES_BEFORE_DEATH);
      // Each page once, however often it was asked for.
      expect(await pagesFetchedToday(org)).toBe(bodies.size);
    });
  });
}

let afterPages: DyingRead;
let beforeRecord: DyingRead;
let beforeRequest: DyingRead;

beforeAll(async () => {
  afterPages = await readDying({ afterPages: PAGES_BEFORE_DEATH });
  // /index.html declares / canonical: fetched with a body (counted in D1 with no site_pages row), then
  // skipped as a copy. The object dies after that count reached D1 and before the page was recorded.
  beforeRecord = await readDying({ beforeRecordOf: `https://${DOMAIN}/index.html` });
  beforeRequest = await readDying({ beforeRequestOf: `https://${DOMAIN}/about` });
});

countsOnce('a site read that dies after its 4th page', () => afterPages);
countsOnce('a site read that dies between counting a page in D1 and recording it', () => beforeRecord);
countsOnce('a site read that dies after marking a page in flight, before its request leaves', () => beforeRequest);

describe('a site read that dies between counting a page in D1 and recording it', () => {
  it('finds that page handled by its run in D1: counted once, never requested again', () => {
    expect(requestedPaths(beforeRecord.log).filter((path) => path === '/index.html')).toHaveLength(1);
    expect(beforeRecord.run.result).not.toMatch(/interrupted/);
  });
});

describe('a site read that dies after marking a page in flight, before its request leaves', () => {
  it('asks for that page again (the site never received it) and counts it once', async () => {
    expect(requestedPaths(beforeRequest.log).filter((path) => path === '/about')).toHaveLength(1);
    const about = await env.DB.prepare('SELECT run_id AS runId, outcome FROM site_pages WHERE organization_id = ?1 AND url = ?2')
      .bind(beforeRequest.org.id, `https://${DOMAIN}/about`)
      .first<{ runId: string; outcome: string }>();
    expect(about).toEqual({ runId: beforeRequest.run.id, outcome: 'new' });
  });
});
