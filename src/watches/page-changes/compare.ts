import { diffArrays } from 'diff';
import { CHANGE_KINDS, MAX_CHANGE_TEXT_CHARS, MAX_CHANGE_TITLE_CHARS, MAX_CHANGES_LISTED, type Change, type ChangeKind } from '../../ground/schemas/changes.ts';
import type { IgnoreMask } from '../../ground/ignore-patterns.ts';
import type { ChangeCounts } from '../../ground/schemas/watch.ts';
import type { PageBaselineRow } from '../../db/watch-page-baseline.ts';
import { comparable, testimonialRuns } from './noise.ts';
import { kindOfSentence, pageTypeKind } from './kinds.ts';
import { priceChanges } from './prices.ts';

/**
 * What changed on a company's web between two readings (issue 32): the watch's baseline (the
 * reading of its last succeeded execution) and the reading its site read left now. Pure.
 *
 *   pages       a page in both whose stored text's hash differs: the sentences added and removed,
 *               diffed with jsdiff over the sentences as compared (noise.ts: dates, counters, tokens
 *               and the watch's own ignore patterns masked; quoted testimonials left out). A
 *               sentence that only moved on its page is no change; a removed and an added sentence
 *               that differ only in their amounts are one price change (prices.ts). A page only in
 *               the reading is new when the baseline's site read reached every page it found (else
 *               it may be old, read for the first time), a page the site now answers 404/410 is gone.
 *   roles       a role only in the reading is opened (of a board the baseline read); one its board
 *               no longer lists is closed.
 *   entries     a feed entry only in the reading is new (of a feed the baseline read).
 *
 * What the reading does not have (a page this read did not reach, or failed to load) keeps its
 * baseline row: it is "not re-read", never removed. A change that undoes one reported at most
 * FLIP_WINDOW executions before (a page flipping between two versions) is counted, not listed.
 */

/**
 * One page, role or entry of a reading, as the watch compares it: a baseline row as the site read
 * left it (`seenAt`: when it last saw it), with the page's sentences only when its text was loaded
 * (a page new to the baseline or whose hash changed), and no reported sentences yet.
 */
export type ReadingItem = Omit<PageBaselineRow, 'sentences' | 'reported'> & { sentences?: string[] };

export interface CompareOptions {
  ignore?: IgnoreMask;
  /** The watch's query: changes that match it are listed first. */
  query?: string | null;
  /** The number of the execution comparing (baseline executions count from 1). */
  sequence: number;
  /**
   * Whether the baseline's reading reached every page of the site (its site read's queue ran out).
   * Only then is a page missing from it new; on a larger site it may be old and read for the first time.
   */
  pagesComplete?: boolean;
}

export interface Comparison {
  changes: Change[];
  counts: ChangeCounts;
  /** The baseline the next execution compares with, once this one commits. */
  next: PageBaselineRow[];
}

/** Sentences a baseline keeps per page, each cut to MAX_SENTENCE_KEPT_CHARS (a row stays well under SQLite's 2 MB). */
export const MAX_SENTENCES_KEPT = 1_000;
const MAX_SENTENCE_KEPT_CHARS = 500;
/** Sentence changes listed per page (the rest are counted). */
export const MAX_CHANGES_PER_PAGE = 20;
/** Reported sentences remembered per page, to tell a flip. */
const MAX_REPORTED_KEPT = 400;
/** A change that undoes one reported at most this many executions before is a flip. */
export const FLIP_WINDOW = 3;

const KIND_ORDER = new Map<ChangeKind, number>(CHANGE_KINDS.map((kind, i) => [kind, i]));

/** `reported` as stored: comparable sentence -> [direction, the execution that reported it]. */
type Reported = Record<string, ['added' | 'removed', number]>;

export function comparePages(baseline: readonly PageBaselineRow[] | null, reading: readonly ReadingItem[], options: CompareOptions): Comparison {
  const found: Change[] = [];
  const counts: ChangeCounts = { total: 0, byKind: {}, flips: 0, pagesCompared: 0 };
  const before = new Map((baseline ?? []).map((row) => [row.url, row]));
  const next = new Map<string, PageBaselineRow>(before);
  // Boards and feeds the baseline read: only their roles and entries are news (a board or feed read
  // for the first time lists what was there all along).
  const knownOrigins = new Set((baseline ?? []).flatMap((row) => (row.origin ? [row.origin] : [])));
  const known = (item: ReadingItem) => item.origin !== undefined && knownOrigins.has(item.origin);
  for (const item of reading) {
    const old = before.get(item.url);
    const row = rowOf(item, old);
    next.set(item.url, row);
    if (!baseline) continue;
    if (item.what === 'page') {
      if (!old) {
        if (item.state === 'live' && options.pagesComplete) found.push(pageEvent('new', item));
      } else if (item.state === 'gone' && old.state !== 'gone') {
        found.push({ ...pageEvent('gone', item), lastSeenAt: old.seenAt });
      } else if (item.state === 'live' && old.state === 'gone') {
        found.push(pageEvent('new', item));
      } else if (item.state === 'live' && item.hash !== old.hash && item.sentences) {
        counts.pagesCompared += 1;
        found.push(...sentenceChanges(old, item, row, options, counts));
      }
    } else if (item.what === 'role') {
      if (((!old && known(item)) || old?.state === 'closed') && item.state === 'open') found.push(roleEvent('opened', item));
      else if (old?.state === 'open' && item.state === 'closed') found.push({ ...roleEvent('closed', item), lastSeenAt: old.seenAt });
    } else if (!old && known(item)) {
      found.push(entryEvent(item));
    }
  }
  for (const change of found) {
    counts.total += 1;
    counts.byKind[change.kind] = (counts.byKind[change.kind] ?? 0) + 1;
  }
  return { changes: ordered(found, options.query).slice(0, MAX_CHANGES_LISTED), counts, next: [...next.values()] };
}

/** The baseline row of a reading item: its sentences as loaded, else the old row's (its text did not change). */
function rowOf(item: ReadingItem, old: PageBaselineRow | undefined): PageBaselineRow {
  return {
    url: item.url,
    what: item.what,
    title: cut(item.title, MAX_CHANGE_TITLE_CHARS),
    state: item.state,
    // A page whose new text was not loaded keeps its old hash with its old sentences: compared next time.
    hash: item.what === 'page' && item.sentences === undefined && old ? old.hash : item.hash,
    seenAt: item.seenAt,
    ...(item.location ? { location: item.location } : {}),
    ...(item.origin ? { origin: item.origin } : {}),
    sentences: item.sentences ? item.sentences.slice(0, MAX_SENTENCES_KEPT).map((s) => cut(s, MAX_SENTENCE_KEPT_CHARS)) : (old?.sentences ?? []),
    reported: old?.reported ?? {},
  };
}

/** The sentences added to and removed from one page, prices read as data, flips and moves left out. */
function sentenceChanges(old: PageBaselineRow, item: ReadingItem, row: PageBaselineRow, options: CompareOptions, counts: ChangeCounts): Change[] {
  const compared = (sentences: readonly string[]) => {
    const quoted = testimonialRuns(sentences);
    return sentences.filter((_, i) => !quoted[i]).map((s) => ({ text: s, key: comparable(s, options.ignore) }));
  };
  const was = compared(old.sentences);
  const now = compared(row.sentences);
  const parts = diffArrays(
    was.map((s) => s.key),
    now.map((s) => s.key),
  );
  let removed: { text: string; key: string }[] = [];
  let added: { text: string; key: string }[] = [];
  let i = 0;
  let j = 0;
  for (const part of parts) {
    const n = part.count ?? part.value.length;
    if (part.removed) removed.push(...was.slice(i, i + n));
    else if (part.added) added.push(...now.slice(j, j + n));
    if (!part.added) i += n;
    if (!part.removed) j += n;
  }
  // A sentence that only moved is on both sides: no change.
  const addedKeys = multiset(added.map((s) => s.key));
  const removedKeys = multiset(removed.map((s) => s.key));
  removed = removed.filter((s) => !take(addedKeys, s.key));
  added = added.filter((s) => !take(removedKeys, s.key));
  // A sentence masked to nothing (all noise) says nothing.
  removed = removed.filter((s) => /\p{L}/u.test(s.key));
  added = added.filter((s) => /\p{L}/u.test(s.key));

  // A flip: the page goes back to how it was shortly before. A sentence reported removed at most
  // FLIP_WINDOW executions ago comes back, and with it the sentences reported added then go away. A
  // sentence that goes away with nothing coming back is a change (a price changed twice: $19, $26, $33).
  const reported = { ...(old.reported as unknown as Reported) };
  const recently = (key: string, direction: 'added' | 'removed') => {
    const last = reported[key];
    return last !== undefined && last[0] === direction && options.sequence - last[1] <= FLIP_WINDOW;
  };
  const comingBack = added.filter((s) => recently(s.key, 'removed'));
  const goingAgain = comingBack.length > 0 ? removed.filter((s) => recently(s.key, 'added')) : [];
  const flipped = new Set([...comingBack, ...goingAgain]);
  counts.flips += flipped.size;
  added = added.filter((s) => !flipped.has(s));
  removed = removed.filter((s) => !flipped.has(s));
  const remember = (key: string, direction: 'added' | 'removed') => {
    delete reported[key]; // set again last: the newest are kept
    reported[key] = [direction, options.sequence];
  };
  for (const s of comingBack) remember(s.key, 'added');
  for (const s of goingAgain) remember(s.key, 'removed');
  for (const s of added) remember(s.key, 'added');
  for (const s of removed) remember(s.key, 'removed');
  row.reported = bounded(reported) as unknown as PageBaselineRow['reported'];

  const page = { url: item.url, title: item.title || old.title };
  const changes: Change[] = [];
  const prices = priceChanges(
    removed.map((s) => s.text),
    added.map((s) => s.text),
  );
  const paired = new Set<string>();
  for (const price of prices) {
    paired.add(`r\u0000${price.removed}`).add(`a\u0000${price.added}`);
    changes.push({ kind: 'pricing', action: 'changed', text: cut(price.added, MAX_CHANGE_TEXT_CHARS), url: item.url, title: cut(page.title, MAX_CHANGE_TITLE_CHARS), before: price.before, after: price.after, plan: cut(price.plan, MAX_CHANGE_TITLE_CHARS) });
  }
  const listed = (action: 'added' | 'removed', sentences: { text: string }[]) =>
    sentences
      .filter((s) => !paired.has(`${action === 'added' ? 'a' : 'r'}\u0000${s.text}`))
      .map(
        (s): Change => ({
          kind: kindOfSentence(s.text, page),
          action,
          text: cut(s.text, MAX_CHANGE_TEXT_CHARS),
          url: item.url,
          title: cut(page.title, MAX_CHANGE_TITLE_CHARS),
          ...(action === 'removed' ? { lastSeenAt: old.seenAt } : {}),
        }),
      );
  changes.push(...listed('added', added), ...listed('removed', removed));
  if (changes.length <= MAX_CHANGES_PER_PAGE) return changes;
  // A page rewritten whole: the first ones listed, the rest counted under the page's kind.
  const rest = changes.length - MAX_CHANGES_PER_PAGE;
  const kind = pageTypeKind(page) ?? 'other';
  counts.total += rest;
  counts.byKind[kind] = (counts.byKind[kind] ?? 0) + rest;
  return changes.slice(0, MAX_CHANGES_PER_PAGE);
}

function pageEvent(action: 'new' | 'gone', item: ReadingItem): Change {
  return { kind: 'page', action, text: cut(item.title || item.url, MAX_CHANGE_TEXT_CHARS), url: item.url, title: cut(item.title, MAX_CHANGE_TITLE_CHARS) };
}

function roleEvent(action: 'opened' | 'closed', item: ReadingItem): Change {
  return { kind: 'hiring', action, text: cut(item.title, MAX_CHANGE_TEXT_CHARS), url: item.url, title: cut(item.title, MAX_CHANGE_TITLE_CHARS), ...(item.location ? { location: cut(item.location, MAX_CHANGE_TITLE_CHARS) } : {}) };
}

function entryEvent(item: ReadingItem): Change {
  const page = { url: item.url, title: item.title };
  return { kind: kindOfSentence(item.title, page), action: 'new-entry', text: cut(item.title || item.url, MAX_CHANGE_TEXT_CHARS), url: item.url, title: cut(item.title, MAX_CHANGE_TITLE_CHARS) };
}

/** Changes that match the query first, then by kind (pricing first), each group in the order found. */
function ordered(changes: Change[], query: string | null | undefined): Change[] {
  const terms = (query ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term.length >= 3);
  const matches = (change: Change) => terms.length > 0 && terms.some((term) => `${change.text} ${change.title}`.toLowerCase().includes(term));
  return changes
    .map((change, index) => ({ change, index, match: matches(change) ? 0 : 1 }))
    .sort((a, b) => a.match - b.match || KIND_ORDER.get(a.change.kind)! - KIND_ORDER.get(b.change.kind)! || a.index - b.index)
    .map((entry) => entry.change);
}

function multiset(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/** Takes one `key` from the multiset; false when none is left. */
function take(counts: Map<string, number>, key: string): boolean {
  const n = counts.get(key) ?? 0;
  if (n === 0) return false;
  counts.set(key, n - 1);
  return true;
}

/** The newest MAX_REPORTED_KEPT entries (insertion order is the order they were reported). */
function bounded(reported: Reported): Reported {
  const entries = Object.entries(reported);
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - MAX_REPORTED_KEPT)));
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
