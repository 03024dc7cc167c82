import { closeUnlistedRolesStatement, knownOrigins, siteItemStatement, type SiteItemWrite } from '../../db/site-items.ts';
import { commitStatements, countPagesStatement, readSitePage } from '../../db/site-pages.ts';
import { storePage } from '../../oms/import-pages.ts';
import { escapeInline } from '../../research/markdown-escape.ts';
import { DEFAULT_MAX_FEED_BYTES, FEED_PATHS, parseFeed, type FeedEntry } from '../feeds.ts';
import { siteUrl } from '../frontier.ts';
import { DEFAULT_MAX_BOARD_BYTES, jobBoardOf, parseJobBoard, type JobRole } from '../job-boards.ts';
import type { RunRecord, StepResult, StepWork } from '../../runs/types.ts';
import { clientFor } from './site-client.ts';
import type { SiteReadReport } from './report-data.ts';
import { requestFollowingRobots, SiteRobots } from './site-robots.ts';
import { newTally, output, readArgs, SCRATCH, today, type Tally } from './state.ts';
import type { Db } from '../../ground/db-session.ts';

/**
 * The feeds and boards steps of a site read: what the company publishes outside its HTML pages.
 *
 *   feeds   the RSS and Atom feeds its pages link (`<link rel="alternate">`), else the first of the
 *           usual paths (FEED_PATHS) that is a feed: each entry becomes a source (title, link,
 *           date, text), so entries only the feed still lists are known. An entry whose page this
 *           read stored is left to the page (it has the whole text).
 *   boards  the public job boards its pages link (Greenhouse, Lever, Ashby), read through their
 *           public JSON APIs: each open role becomes a source about the company (its `domain` is
 *           the company's), with its title, location, team, URL and text; a role a board read whole
 *           no longer lists is closed.
 *
 * Both also read the feeds and boards earlier reads found (site_items): a page that answered 304
 * gave no links, but its feed or board may have news. Each entry and role is recorded in site_items,
 * which a watch compares (src/watches/page-changes/).
 *
 * Both go on the page budget (each request is one page of it) and the organization's pages of the
 * day, through the gate of the host they ask (a board's API host has its own, shared by every
 * read), after its robots.txt. Each step writes what it read to scratch before its output, so a
 * restart does not read it again; storing a source is an upsert, so a repeat changes nothing.
 */

/** Feeds read per site read (found on pages first), and usual paths tried when the pages name none. */
export const MAX_FEEDS_READ = 3;
export const FEED_PATHS_TRIED = 3;
/** Entries stored per feed, in the feed's order (newest first, as feeds list them). */
export const MAX_ENTRIES_STORED = 30;
/** Boards read per site read, and roles stored per board. */
export const MAX_BOARDS_READ = 3;
export const MAX_ROLES_STORED = 100;

interface ExtraSummary {
  lines: string[];
  summary: string;
  data: Pick<SiteReadReport, 'feeds'> | Pick<SiteReadReport, 'jobBoards'>;
}

/** An item of a feed or a board, stored as a source of the organization. */
interface Item {
  url: string;
  title: string;
  content: string;
  publishedAt?: string;
  domain?: string;
}

export async function readFeeds(env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
  const done = work.scratch.get<ExtraSummary>(SCRATCH.feedsDone);
  if (done) return output(done.summary, done.lines, done.data);
  const { domain, budget, origin, hosts } = readArgs(run);
  const tally = work.scratch.get<Tally>(SCRATCH.tally) ?? newTally();
  const feedsData: SiteReadReport['feeds'] = [];
  const robots = SiteRobots.fromScratch(work.scratch.get(SCRATCH.robots), (records) => work.scratch.put(SCRATCH.robots, records));
  const client = clientFor(env, domain, robots.policy.crawlDelaySeconds, { reader: run.organizationId, origin, hosts });
  const host = tally.hosts?.[0] ?? domain;
  // The feeds this read's pages link, and those earlier reads stored entries from: a page that
  // answered 304 this time gave no links, but its feed may have new entries.
  const linked = [...new Set([...(tally.feeds ?? []), ...(await knownOrigins(work.db, run.organizationId, domain, 'feed-entry', MAX_FEEDS_READ))])];
  const candidates = linked.length ? linked : FEED_PATHS.slice(0, FEED_PATHS_TRIED).map((path) => new URL(path, `https://${host}/`).href);
  const lines: string[] = [];
  let feedsRead = 0;
  let stored = 0;
  for (const url of candidates) {
    if (feedsRead >= MAX_FEEDS_READ || tally.requested >= budget) break;
    const onSite = siteUrl(domain, url, undefined, { file: true, hosts });
    if (!onSite.ok) {
      lines.push(`- Feed ${escapeInline(url)} not read: it is not on the site (${onSite.reason}).`);
      continue;
    }
    if (!robots.knows(onSite.url)) await robots.load(onSite.url, client);
    if (!robots.policy.allows(onSite.url)) {
      lines.push(`- Feed ${escapeInline(onSite.url)} not read: disallowed by robots.txt.`);
      continue;
    }
    tally.requested += 1;
    const page = await requestFollowingRobots(client, robots, onSite.url, { file: { maxBytes: DEFAULT_MAX_FEED_BYTES } });
    if (page.kind !== 'page') {
      // A usual path that is not there is no news; a linked feed that fails is.
      if (linked.length) lines.push(`- Feed ${escapeInline(onSite.url)} not read: ${escapeInline(answerOf(page))}.`);
      continue;
    }
    await commitStatements(work.db, [countPagesStatement(work.db, run.organizationId, today())]);
    const feed = await parseFeed(page.body, page.url);
    if (feed.kind === 'unreadable') {
      if (linked.length) lines.push(`- Feed ${escapeInline(page.url)} not read: ${escapeInline(feed.reason)}.`);
      continue;
    }
    feedsRead += 1;
    const entries = feed.entries.slice(0, MAX_ENTRIES_STORED);
    let kept = 0;
    let asPages = 0;
    for (const entry of entries) {
      // The entry's own page, read by this run, holds its whole text: the page is the source.
      if ((await readSitePage(work.db, run.organizationId, entry.url))?.runId === run.id) {
        asPages += 1;
        continue;
      }
      if (await storeItem(work.db, run, feedItem(entry), { domain, kind: 'feed-entry', origin: page.url })) kept += 1;
    }
    stored += kept;
    feedsData.push({ url: page.url, kind: feed.kind, entries: feed.total, stored: kept });
    const left = feed.total - entries.length;
    lines.push(
      `- Feed ${escapeInline(page.url)} (${feed.kind}): ${feed.total} entr${feed.total === 1 ? 'y' : 'ies'}; ${kept} stored as sources${asPages ? `, ${asPages} read as pages` : ''}${left > 0 ? `, ${left} older not stored (at most ${MAX_ENTRIES_STORED} per feed)` : ''}.`,
    );
  }
  if (feedsRead === 0 && lines.length === 0) lines.push(linked.length ? '- No feed could be read.' : `- No feed: the pages link none, and none of ${FEED_PATHS.slice(0, FEED_PATHS_TRIED).join(', ')} is one.`);
  work.scratch.put(SCRATCH.tally, tally);
  const result: ExtraSummary = { summary: `${feedsRead} feed(s) read, ${stored} entr${stored === 1 ? 'y' : 'ies'} stored`, lines, data: { feeds: feedsData } };
  work.scratch.put(SCRATCH.feedsDone, result);
  return output(result.summary, result.lines, result.data);
}

export async function readBoards(env: Env, run: RunRecord, work: StepWork): Promise<StepResult> {
  const done = work.scratch.get<ExtraSummary>(SCRATCH.boardsDone);
  if (done) return output(done.summary, done.lines, done.data);
  const { domain, budget, origin } = readArgs(run);
  const tally = work.scratch.get<Tally>(SCRATCH.tally) ?? newTally();
  const boardsData: SiteReadReport['jobBoards'] = [];
  // The boards this read's pages link, and those earlier reads stored roles from (a careers page
  // that answered 304 gave no links, but its board may have new roles).
  const known = (await knownOrigins(work.db, run.organizationId, domain, 'role', MAX_BOARDS_READ)).map(jobBoardOf).filter((board) => board !== undefined);
  const boards = [...new Map([...(tally.boards ?? []), ...known].map((board) => [board.apiUrl, board])).values()].slice(0, MAX_BOARDS_READ);
  const lines: string[] = [];
  let roles = 0;
  for (const board of boards) {
    const name = `${board.kind} board ${board.token}`;
    if (tally.requested >= budget) {
      lines.push(`- The ${escapeInline(name)} was not read: the page budget is spent.`);
      continue;
    }
    const apiHost = new URL(board.apiUrl).hostname;
    const robots = SiteRobots.fromScratch(work.scratch.get(SCRATCH.boardRobots(apiHost)), (records) => work.scratch.put(SCRATCH.boardRobots(apiHost), records));
    const client = clientFor(env, apiHost, undefined, { reader: run.organizationId, origin });
    await robots.load(board.apiUrl, client);
    if (!robots.policy.allows(board.apiUrl)) {
      lines.push(`- The ${escapeInline(name)} was not read: its API is disallowed by the robots.txt of ${escapeInline(apiHost)}.`);
      continue;
    }
    tally.requested += 1;
    const page = await requestFollowingRobots(client, robots, board.apiUrl, { file: { maxBytes: DEFAULT_MAX_BOARD_BYTES } });
    if (page.kind !== 'page') {
      lines.push(`- The ${escapeInline(name)} was not read: ${escapeInline(answerOf(page))}.`);
      continue;
    }
    await commitStatements(work.db, [countPagesStatement(work.db, run.organizationId, today())]);
    const parsed = await parseJobBoard(board.kind, page.body, page.contentType);
    if (!parsed.ok) {
      lines.push(`- The ${escapeInline(name)} was not read: ${escapeInline(parsed.reason)}.`);
      continue;
    }
    let kept = 0;
    for (const role of parsed.roles.slice(0, MAX_ROLES_STORED)) {
      if (await storeItem(work.db, run, roleItem(role, domain), { domain, kind: 'role', origin: board.boardUrl, ...(role.location ? { location: role.location } : {}) })) kept += 1;
    }
    // The board answered its whole list: a role it listed before and lists no more is closed. (A
    // board with more roles than are stored is not complete here, so none is closed from it.)
    if (parsed.total <= MAX_ROLES_STORED) await commitStatements(work.db, [closeUnlistedRolesStatement(work.db, run.organizationId, domain, board.boardUrl, run.id)]);
    roles += kept;
    boardsData.push({ kind: board.kind, token: board.token, boardUrl: board.boardUrl, roles: parsed.total, stored: kept });
    const left = parsed.total - Math.min(parsed.roles.length, MAX_ROLES_STORED);
    lines.push(`- The ${escapeInline(name)} (${escapeInline(board.boardUrl)}): ${parsed.total} open role(s); ${kept} stored as sources${left > 0 ? `, ${left} not stored (at most ${MAX_ROLES_STORED} per board)` : ''}.`);
  }
  if (boards.length === 0) lines.push('- No public job board (Greenhouse, Lever, Ashby) is linked from the pages read.');
  work.scratch.put(SCRATCH.tally, tally);
  const result: ExtraSummary = { summary: `${boards.length} job board(s), ${roles} open role(s) stored`, lines, data: { jobBoards: boardsData } };
  work.scratch.put(SCRATCH.boardsDone, result);
  return output(result.summary, result.lines, result.data);
}

function feedItem(entry: FeedEntry): Item {
  return { url: entry.url, title: entry.title, content: entry.text || entry.title, ...(entry.publishedAt ? { publishedAt: entry.publishedAt } : {}) };
}

function roleItem(role: JobRole, domain: string): Item {
  return { url: role.url, title: role.title, content: role.text, domain, ...(role.updatedAt ? { publishedAt: role.updatedAt } : {}) };
}

/**
 * Stores an item as a source (an upsert: a repeat changes nothing) and, in the same batch, records it
 * in site_items (seen by this read: what a watch compares); false when it could not be stored.
 */
async function storeItem(db: Db, run: RunRecord, item: Item, seen: Pick<SiteItemWrite, 'domain' | 'kind' | 'origin' | 'location'>): Promise<boolean> {
  const page = { ok: true as const, url: item.url, bytes: item.content.length, title: item.title, content: item.content, truncated: false, ...(item.publishedAt ? { publishedAt: item.publishedAt } : {}), ...(item.domain ? { domain: item.domain } : {}) };
  const at = new Date().toISOString();
  const written = await storePage(db, run.organizationId, page, { kind: 'site-read', id: run.id }, at, (_outcome, key) => [
    siteItemStatement(db, run.organizationId, { ...seen, url: key, title: item.title, runId: run.id, at }),
  ]);
  return written.ok;
}

function answerOf(page: Exclude<Awaited<ReturnType<typeof requestFollowingRobots>>, { kind: 'page' }>): string {
  switch (page.kind) {
    case 'gone':
      return `HTTP ${page.status}`;
    case 'not-modified':
      return 'HTTP 304';
    case 'redirect':
      return `a redirect to ${page.location}`;
    default:
      return page.reason;
  }
}
