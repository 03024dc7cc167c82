import { commitStatements, countPagesStatement, pagesFetchedOn, readSitePage, sitePageStatement, type SitePageOutcome, type SitePageRow } from '../../db/site-pages.ts';
import { readConfig } from '../../ground/config.ts';
import { sha256Hex } from '../../ground/sha256.ts';
import { readPageText } from '../../oms/fetch-source.ts';
import { storePage } from '../../oms/import-pages.ts';
import { escapeInline } from '../../research/markdown-escape.ts';
import type { SitePage } from '../../sites/fetch-page.ts';
import { Frontier, type FrontierSnapshot } from '../../sites/frontier.ts';
import { DEFAULT_MAX_LINKS, extractLinks } from '../../sites/links.ts';
import type { RunRecord, StepResult, StepWork } from '../types.ts';
import { clientFor, SITE_REQUESTS_IN_FLIGHT } from './site-client.ts';
import {
  EXAMPLES_KEPT,
  INTERRUPTED_REASON,
  newTally,
  output,
  readArgs,
  robotsPolicyOf,
  SCRATCH,
  SNAPSHOT_EVERY_PAGES,
  today,
  type InFlightEntry,
  type PageOutcome,
  type PageRecord,
  type RobotsRecord,
  type Tally,
} from './state.ts';

/** The pages step: the frontier's best URL first, in slices, each page stored as a source (see plan.ts). */

export async function readPages(env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
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

