import { commitStatements, countPagesStatement, countRenderStatement, pagesFetchedOn, pagesRenderedOn, readSitePage, readSitePagesOf, sitePageStatement, type SitePageOutcome, type SitePageRow } from '../../db/site-pages.ts';
import { readConfig } from '../../ground/config.ts';
import { messageOf } from '../../ground/errors.ts';
import { sha256Hex } from '../../ground/sha256.ts';
import type { FetchedPage } from '../../oms/fetch-source.ts';
import type { StoredPage } from '../../oms/import-pages.ts';
import { deleteObject } from '../../oms/store.ts';
import { escapeInline } from '../../research/markdown-escape.ts';
import type { SitePage } from '../fetch-page.ts';
import { Frontier, type FrontierSnapshot } from '../frontier.ts';
import { jobBoardOf } from '../job-boards.ts';
import { DEFAULT_MAX_LINKS } from '../links.ts';
import { readHtmlPage } from '../read-html-page.ts';
import { readPdfText } from '../pdf-text.ts';
import { needsBrowser, renderPage } from '../render.ts';
import { hostOf, overrideFor } from '../hosts.ts';
import type { BrowserWorker } from '@cloudflare/puppeteer';
import { MAX_PUSHBACK_MS, PUSHBACK_IN_A_ROW, SITE_REQUESTS_IN_FLIGHT } from '../politeness.ts';
import { mergeDirectives, parseXRobotsTag } from '../robots-directives.ts';
import { compilePathScope } from '../path-scope.ts';
import { pagesData } from './report-data.ts';
import { requestFollowingRobots, SiteRobots } from './site-robots.ts';
import type { RunRecord, StepResult, StepWork } from '../../runs/types.ts';
import { clientFor } from './site-client.ts';
import { storePages, type PageToStore } from './store-pages.ts';
import { WriteGroup } from './write-group.ts';
import {
  EXAMPLES_KEPT,
  newTally,
  output,
  pageBudget,
  pageOutcomeOf,
  readArgs,
  SCRATCH,
  SNAPSHOT_EVERY_PAGES,
  today,
  type InFlightEntry,
  type PageOutcome,
  type PageRecord,
  type Tally,
} from './state.ts';
import type { Db } from '../../ground/db-session.ts';

/** The pages step: the frontier's best URL first, in slices, each page stored as a source (see plan.ts). */

export async function readPages(env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
  const { domain, budget, origin, includePaths, excludePaths, hosts } = readArgs(run);
  const scope = compilePathScope({ includePaths, excludePaths });
  const snapshot = work.scratch.get<FrontierSnapshot>(SCRATCH.frontier);
  const robots = SiteRobots.fromScratch(work.scratch.get(SCRATCH.robots), (records) => work.scratch.put(SCRATCH.robots, records));
  if (Object.keys(robots.records).length === 0 || !snapshot) throw new Error('the discover step left no robots.txt or queue behind');
  const frontier = Frontier.restore({ domain, hosts, budget: pageBudget(budget), allows: (url) => robots.allowsOrUnknown(url), inScope: (url) => scope.allows(url) }, snapshot);
  const tally = work.scratch.get<Tally>(SCRATCH.tally) ?? newTally();
  const client = clientFor(env, domain, robots.policy.crawlDelaySeconds, { reader: run.organizationId, origin, hosts });
  const config = readConfig(env);
  const { db } = work;
  const org = run.organizationId;
  let fetchedToday = await pagesFetchedOn(db, org, today());
  // What earlier reads recorded of the site's pages, read once for the slice (one D1 query, not one per page).
  const known = await readSitePagesOf(db, org, domain, MAX_PAGES_READ_AHEAD);
  const storedRow = (url: string) => (known ? Promise.resolve(known.get(url) ?? null) : readSitePage(db, org, url));
  let sinceSnapshot = 0;
  // The pages this read has handled (a record kept, or waiting in `unwritten`), read once for the
  // slice: a page's check is a look-up, not a statement.
  const handled = new Set(work.scratch.keys(SCRATCH.page('')));
  // The pages in flight store their texts in one D1 batch when they are ready together (write-group.ts).
  const writes = new WriteGroup<PageToStore, StoredPage>((items) => storePages(db, org, items), { maxWaitMs: GROUP_WAIT_MS });
  const store: PageStore = (item) => writes.write(item);

  // Page records wait here for the next scratch write: the one made before a request leaves, a
  // snapshot, or the slice's end. A Durable Object's SQLite costs per statement more than per row,
  // and a record lost with the object is not lost to the read: the page is still listed in flight,
  // so a restart counts it as D1 recorded it, or asks for it again (see above the loop).
  let unwritten: [string, unknown][] = [];
  const withRecords = (entries: [string, unknown][]): [string, unknown][] => {
    // One row per key, the latest value (a page's end and the next request both name the pages in flight).
    const all = new Map([...unwritten, ...entries, [SCRATCH.tally, tally]]);
    unwritten = [];
    return [...all];
  };

  const save = () => {
    tally.recent = [];
    work.scratch.putAll(withRecords([[SCRATCH.frontier, frontier.snapshot()]]));
    sinceSnapshot = 0;
  };

  // A page's record and its tally change together, with `also` (what else its end changes); written with the next write.
  const record = (url: string, outcome: PageOutcome, reason?: string, links?: string[], also: [string, unknown][] = []) => {
    const entry: PageRecord = { outcome, ...(reason ? { reason } : {}), ...(links?.length ? { links } : {}) };
    tally.requested += 1;
    tally.outcomes[outcome] += 1;
    if ((outcome === 'skipped' || outcome === 'failed') && reason) {
      const byReason = (tally.reasons[outcome][reasonKey(reason)] ??= { count: 0, urls: [] });
      byReason.count += 1;
      if (byReason.urls.length < EXAMPLES_KEPT) byReason.urls.push(url);
    }
    (tally.recent ??= []).push(url);
    handled.add(SCRATCH.page(url));
    unwritten.push([SCRATCH.page(url), entry], ...also);
    if (++sinceSnapshot >= SNAPSHOT_EVERY_PAGES) save();
  };

  // After a restart (the object reset in the middle of a slice), before anything else: a page that
  // was in flight is counted as D1 recorded it when its answer was committed; otherwise it is asked
  // for again (a GET is safe to repeat, and the site may never have received it), counted once. The
  // links that the pages recorded since the latest snapshot queued are queued again.
  const inFlightBefore = work.scratch.get<InFlightEntry[]>(SCRATCH.inFlight) ?? [];
  const recentBefore = tally.recent ?? [];
  if (inFlightBefore.length > 0 || recentBefore.length > 0) {
    for (const url of recentBefore) {
      for (const link of work.scratch.get<PageRecord>(SCRATCH.page(url))?.links ?? []) frontier.add(link);
    }
    for (const { url, via } of inFlightBefore) {
      if (handled.has(SCRATCH.page(url))) continue;
      const stored = await readSitePage(db, org, url);
      if (stored?.runId === run.id) {
        // Its answer was committed before the reset. A redirect target is no page of the report's
        // own (the page that led to it is): it is only marked handled.
        if (via !== undefined) {
          work.scratch.put(SCRATCH.page(url), { outcome: pageOutcomeOf(stored.outcome) } satisfies PageRecord);
          handled.add(SCRATCH.page(url));
        }
        else record(url, pageOutcomeOf(stored.outcome));
      } else if (via !== undefined) {
        frontier.unclaim(url);
      } else {
        frontier.retry(url);
      }
    }
    work.scratch.put(SCRATCH.inFlight, []);
    save();
  }

  // The pages in flight, kept here and written whole at each change (the slice is their only writer).
  let inFlightNow: InFlightEntry[] = [];
  const keepInFlight = (entries: InFlightEntry[]): [string, unknown] => {
    inFlightNow = entries;
    return [SCRATCH.inFlight, entries];
  };

  // A page only a browser sees is rendered in the site's turn, under its robots.txt, within the
  // organization's rendered pages of the day.
  const render: Renderer = async (url) => {
    if (!env.BROWSER) return { ok: false, reason: 'the page needs a browser (its text is written by scripts), and this deployment has no Browser Rendering binding (BROWSER)' };
    const renderedToday = await pagesRenderedOn(db, org, today());
    if (renderedToday >= config.SITE_READ_RENDERS_PER_DAY) {
      return { ok: false, reason: `the page needs a browser, and the organization's site reads rendered ${renderedToday} pages today, the most they may (SITE_READ_RENDERS_PER_DAY)` };
    }
    const target = new URL(url);
    const override = overrideFor(client.originOverrides, hostOf(target));
    const options = {
      ...(override ? { fetchUrl: `${override}${target.pathname}${target.search}` } : {}),
      deadlineMs: config.SITE_READ_RENDER_TIMEOUT_MS,
      userAgent: client.userAgent,
      allowRequest: (request: string) => robots.policy.allows(request),
    };
    // Seconds in a browser: the other page in flight stores without waiting for this one meanwhile.
    const turn = await writes.aside(() => client.inTurn(() => renderPage(env.BROWSER as unknown as BrowserWorker, url, options), { deadline: work.handOverAt }));
    if (turn.kind === 'paused') return { ok: false, reason: `the page needs a browser, and the site asked for a pause until ${new Date(turn.until).toISOString()}` };
    if (!turn.value.ok) return { ok: false, reason: `the page needs a browser, and rendering it failed: ${turn.value.reason}` };
    await commitStatements(db, [countRenderStatement(db, org, today())]);
    tally.rendered = (tally.rendered ?? 0) + 1;
    return { ok: true, html: turn.value.html };
  };

  const readOne = async (url: string): Promise<void> => {
    if (handled.has(SCRATCH.page(url))) return;
    const stored = await storedRow(url);
    if (stored?.runId === run.id) {
      // Handled by this run before a restart: its D1 record says how; it is not requested again.
      record(url, pageOutcomeOf(stored.outcome));
      return;
    }
    const conditional = stored?.state === 'live' && stored.sourceStored ? { etag: stored.etag ?? undefined, lastModified: stored.lastModified ?? undefined } : undefined;
    if (!robots.knows(url)) await robots.load(url, client);
    if (!robots.policy.allows(url)) {
      record(url, 'skipped', `disallowed by the robots.txt of ${new URL(url).host}`);
      return;
    }
    // A cancel may have landed while D1 answered: a cancelled read sends nothing more.
    if (!work.stillRunning()) return;
    // Written before the request leaves (a Durable Object sends nothing until its storage has it).
    work.scratch.putAll(withRecords([keepInFlight([...inFlightNow, { url }])]));
    const claim = (target: string): boolean => {
      if (!frontier.claim(target)) return false;
      work.scratch.putAll(withRecords([keepInFlight([...inFlightNow, { url: target, via: url }])]));
      return true;
    };
    const page = await requestFollowingRobots(client, robots, url, { documents: true, conditional, claim }, { deadline: work.handOverAt });
    if (page.kind === 'page' || page.kind === 'not-modified') frontier.learnRedirect(url, page.url);
    const outcome = await settle(db, run, domain, frontier, page, page.url === url ? stored : await readSitePage(db, org, page.url), tally, render, store);
    if (outcome.counted) fetchedToday += 1;
    notePushback(tally, page);
    // Reached by a redirect (or kept under its canonical URL): the page it led to is handled too.
    const alsoHandled = [...new Set([page.url, outcome.storedAs ?? page.url])].filter((other) => other !== url);
    for (const other of alsoHandled) handled.add(SCRATCH.page(other));
    record(url, outcome.outcome, outcome.reason, outcome.links, [
      ...alsoHandled.map((other): [string, unknown] => [SCRATCH.page(other), { outcome: outcome.outcome } satisfies PageRecord]),
      keepInFlight(inFlightNow.filter((entry) => entry.url !== url && entry.via !== url)),
    ]);
  };

  const inFlight = new Set<Promise<void>>();
  // A page that throws ends the slice, but only once the other pages in flight have settled, so that
  // what they commit to D1 is there when the step is retried (and none is asked for or counted twice).
  let thrown: { error: unknown } | undefined;
  for (;;) {
    if (thrown || !work.stillRunning()) break;
    if (Date.now() >= work.handOverAt) break;
    if (fetchedToday >= config.SITE_READ_PAGES_PER_DAY) {
      tally.stopped = `the organization's site reads fetched ${fetchedToday} pages today, the most they may (SITE_READ_PAGES_PER_DAY); the rest waits for the next read`;
      break;
    }
    if ((tally.pushback?.inARow ?? 0) >= PUSHBACK_IN_A_ROW) {
      tally.stopped = pushbackStop(tally.pushback!);
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
    const task: Promise<void> = writes
      .inFlight(() => readOne(url))
      .catch((error: unknown) => {
        thrown ??= { error };
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  if (thrown) {
    // The pages that ended are recorded; the frontier is not saved (the page that threw is asked for again).
    work.scratch.putAll(withRecords([]));
    throw thrown.error;
  }
  save();

  const finished = tally.stopped !== undefined || frontier.done;
  if (!finished) return { progress: `${tally.requested} of at most ${budget} pages requested` };
  return output(pagesSummary(tally, budget), pagesDetails(tally, frontier, budget, robots), pagesData(tally, frontier.report(), robots.policy));
}

/**
 * Counts the site's refusals (429, 503) of one request: those the client waited out and retried,
 * and a last one it gave up on (`pushback`), which makes a run of them; any other answer ends a run.
 */
function notePushback(tally: Tally, page: SitePage & { refusals?: number; pushback?: { until: string } }): void {
  const pushback = (tally.pushback ??= { refusals: 0, inARow: 0 });
  pushback.refusals += page.refusals ?? 0;
  if (!page.pushback) {
    pushback.inARow = 0;
    return;
  }
  pushback.inARow += 1;
  pushback.retryAt = new Date(Math.max(Date.parse(page.pushback.until) || 0, Date.parse(pushback.retryAt ?? '') || 0)).toISOString();
}

function pushbackStop(pushback: NonNullable<Tally['pushback']>): string {
  return `the site asked us to slow down (HTTP 429 or 503) ${pushback.inARow} times in a row, after waiting each time as long as it asked (at most ${MAX_PUSHBACK_MS / 1000} s); the read ended with what it had read. Read again after ${pushback.retryAt ?? 'a while'}`;
}

/** Reasons grouped in the report: the text without the URL it names (`the redirect to X ...` -> one group). */
function reasonKey(reason: string): string {
  return reason.replace(/https?:\/\/\S+/g, '(a URL)').slice(0, 200);
}

/** What one page answer came to, for the report and the restart record. */
interface Settled {
  outcome: PageOutcome;
  reason?: string;
  /** Whether it counts against the organization's pages of the day (a body was fetched). */
  counted: boolean;
  links?: string[];
  /** The URL its source is kept under when not the page's own (its canonical URL named the same page). */
  storedAs?: string;
}

/**
 * A slice reads what earlier reads recorded of the site's pages in one query when the site has at
 * most this many records (a page's row is about 200 bytes); a site with more is read page by page.
 */
export const MAX_PAGES_READ_AHEAD = 2_000;

/**
 * How long a page's text waits, at most, for the other page in flight to be ready to store too
 * (write-group.ts): pages answered back to back are ready a few milliseconds apart; a read paced by
 * its site's delay waits this long per page for nothing, and its next request waits for the delay anyway.
 */
export const GROUP_WAIT_MS = 20;

/** Feed URLs and job boards a read keeps from its pages (the feeds and boards steps read them), at most this many each. */
export const MAX_FEEDS_FOUND = 10;
export const MAX_BOARDS_FOUND = 5;

/**
 * What one page answer means: stores a page with a body as its source (or keeps the source when its
 * text is the same), records validators and outcome in D1 in the same batch as the day's count, and
 * offers its links to the frontier. The page's robots directives (its meta tags and X-Robots-Tag)
 * decide: `noindex` keeps it out of the sources (and removes the source an earlier read stored),
 * `nofollow` keeps its links unfollowed.
 */
async function settle(
  db: Db,
  run: RunRecord,
  domain: string,
  frontier: Frontier,
  page: SitePage,
  stored: SitePageRow | null,
  tally: Tally,
  render: Renderer,
  store: PageStore,
): Promise<Settled> {
  const org = run.organizationId;
  const at = new Date().toISOString();
  const base = { url: page.url, domain, runId: run.id, at };
  switch (page.kind) {
    case 'not-modified': {
      tally.notModified += 1;
      noteHost(tally, page.url);
      await commitStatements(db, [sitePageStatement(db, org, { ...base, state: 'live', outcome: 'unchanged', changed: false })]);
      return { outcome: 'unchanged', counted: false };
    }
    case 'gone': {
      if (stored) await commitStatements(db, [sitePageStatement(db, org, { ...base, state: 'gone', outcome: 'gone', changed: stored.state !== 'gone' })]);
      return { outcome: 'gone', reason: `HTTP ${page.status}`, counted: false };
    }
    case 'skipped':
    case 'failed':
      return { outcome: page.kind, reason: page.reason, counted: false };
    case 'redirect':
      return { outcome: 'skipped', reason: `the redirect to ${page.location} was not followed`, counted: false };
    case 'page':
      break;
  }
  noteHost(tally, page.url);
  const count = countPagesStatement(db, org, today());
  const handled = (outcome: 'skipped' | 'failed') => handledRecord(db, org, run.id, domain, page.url, outcome);
  const failed = async (reason: string, links?: string[]): Promise<Settled> => {
    await commitStatements(db, [count, handled('failed')]);
    return { outcome: 'failed', reason, counted: true, ...(links ? { links } : {}) };
  };
  const type = page.contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf') {
    const pdf = await readPdfText(page.body);
    if (!pdf.ok) return failed(`the PDF could not be read: ${pdf.reason}`);
    if (!pdf.text.trim()) return failed('the PDF has no text to read (a scan or images only)');
    tally.documents = (tally.documents ?? 0) + 1;
    const title = pdf.title ?? fileName(page.url);
    const text = { ok: true as const, url: page.url, bytes: page.bytes, title, content: pdf.text, truncated: pdf.truncated, ...(pdf.publishedAt ? { publishedAt: pdf.publishedAt } : {}) };
    return keep(db, run, domain, frontier, page, text, stored, count, [], store);
  }

  let html = page;
  // One parse for the page's links and its text; a page whose text cannot be read fails, its links unused.
  const read = await readHtmlPage(page.body, page.contentType, page.url);
  if ('thrown' in read.text) return failed(messageOf(read.text.thrown));
  let links = read.links;
  let text: FetchedPage = read.text;
  const directives = mergeDirectives(links.robots, parseXRobotsTag(page.robotsTag ?? null));
  if (!directives.noindex && needsBrowser(new TextDecoder().decode(page.body.subarray(0, MAX_SCANNED_BYTES)), text.ok ? text.content : '')) {
    const rendered = await render(page.url);
    if (!rendered.ok) {
      noteNeedsBrowser(tally, page.url);
      // A page with readable text of its own is still kept as it is; one without is reported.
      if (!text.ok) {
        await commitStatements(db, [count, handled('skipped')]);
        return { outcome: 'skipped', reason: rendered.reason, counted: true };
      }
    } else {
      const body = new TextEncoder().encode(rendered.html);
      html = { ...page, body, bytes: body.byteLength, contentType: 'text/html; charset=utf-8' };
      const reread = await readHtmlPage(body, html.contentType, page.url);
      if ('thrown' in reread.text) return failed(messageOf(reread.text.thrown));
      links = reread.links;
      text = reread.text;
    }
  }
  // The links queued are kept with the page's record: a restart offers them again (see readPages).
  const queued: string[] = [];
  if (directives.nofollow) {
    tally.nofollow = (tally.nofollow ?? 0) + 1;
  } else {
    for (const link of links.links) {
      const added = frontier.add(link);
      if (added.queued) queued.push(added.url);
      else if (added.reason === 'off-site') noteJobBoard(tally, link);
    }
    for (const feed of links.feeds) noteFeed(tally, feed);
  }
  if (links.droppedLinks > 0) tally.linksDropped = (tally.linksDropped ?? 0) + links.droppedLinks;
  if (directives.noindex) return forgetNoindex(db, run, domain, page, stored, count, tally, queued);
  if (!text.ok) return failed(text.error, queued);
  // The company step names the company from its home page.
  if (new URL(page.url).pathname === '/') tally.home = { title: text.title, ...(links.siteName ? { siteName: links.siteName } : {}) };
  const storedAs = links.canonical === undefined ? page.url : frontier.canonicalUrl(links.canonical, page.url);
  return keep(db, run, domain, frontier, html, { ...text, url: storedAs }, stored, count, queued, store);
}

/**
 * The record of a page fetched with a body (and counted in the day's pages) that kept no source: a
 * copy, unreadable, not rendered. It commits with the count, so a read resumed after a restart finds
 * the page handled by its run and neither requests nor counts it again. Its state is not `live`, so
 * the next read asks for it whole.
 */
function handledRecord(db: Db, org: string, runId: string, domain: string, url: string, outcome: 'skipped' | 'failed'): D1PreparedStatement {
  return sitePageStatement(db, org, { url, domain, runId, at: new Date().toISOString(), state: 'handled', outcome, changed: false });
}

/** The last segment of a URL's path, decoded when it decodes (`price-sheet.pdf`): a document's title when it names none. */
function fileName(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() || url;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Stores a page's text as its source, as storePage does, with the other page in flight's when both are ready (readPages makes it: store-pages.ts). */
type PageStore = (item: PageToStore) => Promise<StoredPage>;

/** Renders a page in a browser (readPages makes it): the HTML scripts left, or why not. */
type Renderer = (url: string) => Promise<{ ok: true; html: string } | { ok: false; reason: string }>;

/** Of a page's bytes, those needsBrowser looks at (it reads the first 512 Ki characters). */
const MAX_SCANNED_BYTES = 512 * 1024;

function noteNeedsBrowser(tally: Tally, url: string): void {
  const needs = (tally.needsBrowser ??= { count: 0, urls: [] });
  needs.count += 1;
  if (needs.urls.length < EXAMPLES_KEPT) needs.urls.push(url);
}

/**
 * Stores the text of a page (or document) read as its source, unless it is a copy of a page this
 * read already stored (the same text) or the same text as the source stored.
 */
async function keep(
  db: Db,
  run: RunRecord,
  domain: string,
  frontier: Frontier,
  page: Extract<SitePage, { kind: 'page' }>,
  text: Extract<FetchedPage, { ok: true }>,
  stored: SitePageRow | null,
  count: D1PreparedStatement,
  queued: string[],
  store: PageStore,
): Promise<Settled> {
  const org = run.organizationId;
  const at = new Date().toISOString();
  const url = text.url;
  const storedAs = url === page.url ? {} : { storedAs: url };
  // Kept under its canonical URL: what was recorded under that URL is what this page compares with.
  const previous = url === page.url ? stored : await readSitePage(db, org, url);
  const base = { url, domain, runId: run.id, at };
  const hash = await sha256Hex(`${text.title}\n${text.content}`);
  if (frontier.markContentHash(hash, url) === 'duplicate') {
    await commitStatements(db, [count, handledRecord(db, org, run.id, domain, page.url, 'skipped')]);
    return { outcome: 'skipped', reason: 'the same text as a page already read', counted: true, links: queued, ...storedAs };
  }
  const validators = { ...(page.etag ? { etag: page.etag } : {}), ...(page.lastModified ? { lastModified: page.lastModified } : {}) };
  if (previous && previous.sourceStored && previous.contentHash === hash && previous.state === 'live') {
    await commitStatements(db, [sitePageStatement(db, org, { ...base, ...validators, state: 'live', contentHash: hash, outcome: 'unchanged', changed: false }), count]);
    return { outcome: 'unchanged', counted: true, links: queued, ...storedAs };
  }
  const outcome: SitePageOutcome = previous?.sourceStored ? 'changed' : 'new';
  const written = await store({
    page: text,
    source: { kind: 'site-read', id: run.id },
    at,
    also: (result) => [
      sitePageStatement(db, org, { ...base, ...validators, state: 'live', contentHash: hash, outcome: result === 'unchanged' ? 'unchanged' : outcome, changed: result !== 'unchanged' }),
      count,
    ],
    // A page no read recorded is most likely no source yet: written without reading first.
    likelyNew: previous === null,
  });
  if (!written.ok) {
    await commitStatements(db, [count, handledRecord(db, org, run.id, domain, page.url, 'failed')]);
    return { outcome: 'failed', reason: written.error, counted: true, links: queued, ...storedAs };
  }
  return { outcome: written.outcome === 'unchanged' ? 'unchanged' : outcome, counted: true, links: queued, ...storedAs };
}

/**
 * A page that asks not to be indexed (`noindex` in its meta tags or X-Robots-Tag) is no source: it
 * is not stored, and the source an earlier read stored of it (when it was indexable) is deleted.
 * Its record says `noindex`, so the next read fetches it whole (no conditional request) and stores
 * it again if it became indexable.
 */
async function forgetNoindex(
  db: Db,
  run: RunRecord,
  domain: string,
  page: Extract<SitePage, { kind: 'page' }>,
  stored: SitePageRow | null,
  count: D1PreparedStatement,
  tally: Tally,
  queued: string[],
): Promise<Settled> {
  const org = run.organizationId;
  const at = new Date().toISOString();
  const noindex = (tally.noindex ??= { count: 0, urls: [] });
  noindex.count += 1;
  if (noindex.urls.length < EXAMPLES_KEPT) noindex.urls.push(page.url);
  const recordIt = sitePageStatement(db, org, { url: page.url, domain, runId: run.id, at, state: 'noindex', outcome: 'noindex', changed: stored?.state !== 'noindex' });
  if (stored?.sourceStored) {
    await deleteObject(db, org, { type: 'source', key: page.url }, { kind: 'site-read', id: run.id, url: page.url }, at, [recordIt, count]);
  } else {
    await commitStatements(db, [recordIt, count]);
  }
  return { outcome: 'skipped', reason: 'the page asks not to be indexed (noindex): not kept as a source', counted: true, links: queued };
}

function noteHost(tally: Tally, url: string): void {
  const host = new URL(url).host;
  const hosts = (tally.hosts ??= []);
  if (!hosts.includes(host) && hosts.length < 10) hosts.push(host);
}

function noteFeed(tally: Tally, url: string): void {
  const feeds = (tally.feeds ??= []);
  if (!feeds.includes(url) && feeds.length < MAX_FEEDS_FOUND) feeds.push(url);
}

function noteJobBoard(tally: Tally, url: string): void {
  const board = jobBoardOf(url);
  if (!board) return;
  const boards = (tally.boards ??= []);
  if (!boards.some((known) => known.kind === board.kind && known.token === board.token) && boards.length < MAX_BOARDS_FOUND) boards.push(board);
}

function pagesSummary(tally: Tally, budget: number): string {
  const o = tally.outcomes;
  return `${tally.requested} of at most ${budget} pages requested: ${o.new} new, ${o.changed} changed, ${o.unchanged} unchanged, ${o.gone} gone, ${o.skipped} skipped, ${o.failed} failed`;
}

function pagesDetails(tally: Tally, frontier: Frontier, budget: number, robots: SiteRobots): string[] {
  const o = tally.outcomes;
  const report = frontier.report();
  const lines = [
    `- Pages requested: ${tally.requested} (budget ${budget}).`,
    `- New: ${o.new}. Changed: ${o.changed}. Unchanged: ${o.unchanged}${tally.notModified ? ` (${tally.notModified} answered 304 Not Modified)` : ''}. Gone (404/410, marked, not deleted): ${o.gone}.`,
    `- Skipped: ${o.skipped}. Failed: ${o.failed}.`,
  ];
  if (tally.hosts?.length) lines.push(`- Hosts read: ${tally.hosts.map(escapeInline).join(', ')}.`);
  for (const { origin, policy } of robots.policy.hosts.slice(tally.robotsReported ?? 1)) lines.push(`- robots.txt of ${escapeInline(new URL(origin).host)}: ${escapeInline(policy.reason)}.`);
  if (tally.documents) lines.push(`- Documents (PDF) read: ${tally.documents}.`);
  if (tally.rendered) lines.push(`- Rendered in a browser (their text is written by scripts): ${tally.rendered}.`);
  if (tally.needsBrowser?.count) {
    lines.push(`- Need a browser and were not rendered: ${tally.needsBrowser.count} (${tally.needsBrowser.urls.slice(0, 3).map(escapeInline).join(', ')}${tally.needsBrowser.count > 3 ? ', ...' : ''}).`);
  }
  if (tally.noindex?.count) {
    lines.push(`- Not indexed (the page asks for noindex; no source kept): ${tally.noindex.count} (${tally.noindex.urls.slice(0, 3).map(escapeInline).join(', ')}${tally.noindex.count > 3 ? ', ...' : ''}).`);
  }
  if (tally.nofollow) lines.push(`- Pages whose links were not followed (nofollow): ${tally.nofollow}.`);
  if (report.duplicates.canonical || report.duplicates.canonicalIgnored) {
    lines.push(`- Canonical links: ${report.duplicates.canonical} page(s) kept under their canonical URL (the same page), ${report.duplicates.canonicalIgnored ?? 0} canonical link(s) naming another page ignored (the page kept under its own URL).`);
  }
  if (tally.pushback?.refusals) {
    lines.push(`- The site asked us to slow down ${tally.pushback.refusals} time(s) (HTTP 429 or 503); each time the site's host was paused as long as it asked (at most ${MAX_PUSHBACK_MS / 1000} s) and the page asked for again, at most twice.`);
  }
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
