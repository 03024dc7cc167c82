import { describe, expect, it } from 'vitest';
import { MAX_CHANGES_LISTED } from '../../../src/ground/schemas/changes.ts';
import { compileIgnore } from '../../../src/ground/ignore-patterns.ts';
import { comparePages, FLIP_WINDOW, MAX_CHANGES_PER_PAGE, type ReadingItem } from '../../../src/watches/page-changes/compare.ts';
import type { PageBaselineRow } from '../../../src/db/watch-page-baseline.ts';

/** comparePages: what changed between a watch's baseline and the reading its site read left. */

const URL = 'https://acme.example/pricing';
const T0 = '2026-11-20T10:00:00.000Z';
const T1 = '2026-11-27T10:00:00.000Z';
const BOARD = 'https://job-boards.greenhouse.io/acme';
const FEED = 'https://acme.example/changelog/rss.xml';

function page(sentences: string[], options: Partial<ReadingItem> = {}): ReadingItem {
  return { url: URL, what: 'page', title: 'Acme pricing', state: 'live', hash: sentences.join('|'), seenAt: T1, sentences, ...options };
}

/** The baseline a first comparison of `items` keeps. */
function baselineOf(items: ReadingItem[]): PageBaselineRow[] {
  return comparePages(null, items.map((item) => ({ ...item, seenAt: T0 })), { sequence: 1 }).next;
}

describe('comparePages', () => {
  it('reports nothing on a first reading, and keeps it as the baseline', () => {
    const first = comparePages(null, [page(['The Pro plan costs $49 per month.'])], { sequence: 1 });
    expect(first.changes).toEqual([]);
    expect(first.counts.total).toBe(0);
    expect(first.next).toEqual([expect.objectContaining({ url: URL, sentences: ['The Pro plan costs $49 per month.'] })]);
  });

  it('reads a changed price as data: plan, before and after, cited', () => {
    const baseline = baselineOf([page(['Acme sells to retailers.', 'The Pro plan costs $49 per month.'])]);
    const { changes } = comparePages(baseline, [page(['Acme sells to retailers.', 'The Pro plan costs $59 per month.'])], { sequence: 2 });
    expect(changes).toEqual([expect.objectContaining({ kind: 'pricing', action: 'changed', plan: 'Pro', before: '$49', after: '$59', url: URL, title: 'Acme pricing' })]);
  });

  it('lists sentences added and removed (a removal with when it was last seen), and none that only moved', () => {
    const baseline = baselineOf([page(['Acme ships to Canada.', 'Acme was founded in 2012.', 'Acme offers phone support.'])]);
    const { changes } = comparePages(baseline, [page(['Acme offers phone support.', 'Acme ships to Canada.', 'Acme now ships to Mexico.'])], { sequence: 2 });
    expect(changes).toHaveLength(2);
    expect(changes).toContainEqual(expect.objectContaining({ action: 'added', text: 'Acme now ships to Mexico.', url: URL }));
    expect(changes).toContainEqual(expect.objectContaining({ action: 'removed', text: 'Acme was founded in 2012.', url: URL, lastSeenAt: T0 }));
  });

  it('reports nothing when only noise changed: a date, a counter, a token, the copyright year, a quote', () => {
    const before = ['Acme builds forklifts.', 'Last updated November 20, 2026 at 10:00 UTC.', '1,204 people are viewing this page.', 'Request ID: 9f8e7d6c5b4a39281706f5e4d3c2b1a0', '© 2019-2026 Acme Inc.', '“Acme changed our warehouse.” — Jo Park, COO at Larkspur'];
    const after = ['Acme builds forklifts.', 'Last updated November 27, 2026 at 09:12 UTC.', '1,377 people are viewing this page.', 'Request ID: 0a1b2c3d4e5f60718293a4b5c6d7e8f9', '© 2019-2027 Acme Inc.', '“We rolled Acme out in a week.” — Sam Ruiz, VP Sales at Brightwater'];
    const result = comparePages(baselineOf([page(before)]), [page(after)], { sequence: 2 });
    expect(result.changes).toEqual([]);
    expect(result.counts.total).toBe(0);
  });

  it("masks the watch's own ignore patterns", () => {
    const ignore = compileIgnore(['\\d+ open tickets']);
    if (!ignore.ok) throw new Error(ignore.message);
    const baseline = baselineOf([page(['Support has 14 open tickets.'])]);
    expect(comparePages(baseline, [page(['Support has 19 open tickets.'])], { sequence: 2, ignore: ignore.mask }).changes).toEqual([]);
    expect(comparePages(baseline, [page(['Support has 19 open tickets.'])], { sequence: 2 }).changes).toHaveLength(2);
  });

  it('keeps a page the reading lacks or did not re-read: never "removed"', () => {
    const baseline = baselineOf([page(['Acme builds forklifts.']), page(['Acme is hiring.'], { url: 'https://acme.example/careers' })]);
    // The careers page is not in the reading at all; the pricing page was not re-read (same hash, no text loaded).
    const result = comparePages(baseline, [page(['Acme builds forklifts.'], { sentences: undefined })], { sequence: 2 });
    expect(result.changes).toEqual([]);
    expect(result.next.map((row) => row.url).sort()).toEqual(['https://acme.example/careers', URL]);
  });

  it('reports new and gone pages, opened and closed roles and new feed entries', () => {
    const role = (id: number, state: string): ReadingItem => ({ url: `https://boards.greenhouse.io/acme/jobs/${id}`, what: 'role', title: `Role ${id}`, state, hash: null, seenAt: T1, location: 'Austin', origin: BOARD });
    const entry = (slug: string): ReadingItem => ({ url: `https://acme.example/changelog/${slug}`, what: 'feed-entry', title: `Acme ${slug} released`, state: 'listed', hash: null, seenAt: T1, origin: FEED });
    const baseline = baselineOf([page(['Acme builds forklifts.']), page(['Old.'], { url: 'https://acme.example/old' }), role(1, 'open'), entry('3-9')]);
    const { changes } = comparePages(
      baseline,
      [
        page(['Acme builds forklifts.'], { sentences: undefined }),
        page([], { url: 'https://acme.example/old', state: 'gone', sentences: undefined }),
        page(['New.'], { url: 'https://acme.example/new', title: 'Acme integrations' }),
        role(1, 'closed'),
        role(2, 'open'),
        entry('3-9'),
        entry('4-0'),
      ],
      { sequence: 2, pagesComplete: true },
    );
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'page', action: 'new', url: 'https://acme.example/new', text: 'Acme integrations' }));
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'page', action: 'gone', url: 'https://acme.example/old', lastSeenAt: T0 }));
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'hiring', action: 'closed', text: 'Role 1', location: 'Austin', lastSeenAt: T0 }));
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'hiring', action: 'opened', text: 'Role 2' }));
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'product', action: 'new-entry', text: 'Acme 4-0 released' }));
    expect(changes).toHaveLength(5);
  });

  it('reports no page as new after a reading that did not reach every page (a larger site read for the first time in parts), nor the roles of a board or the entries of a feed it had not read', () => {
    const baseline = baselineOf([page(['Acme builds forklifts.'])]);
    const reading = [
      page(['Acme builds forklifts.'], { sentences: undefined }),
      page(['An old blog post.'], { url: 'https://acme.example/blog/2019' }),
      { url: 'https://boards.greenhouse.io/acme/jobs/7', what: 'role' as const, title: 'Role 7', state: 'open', hash: null, seenAt: T1, origin: BOARD },
      { url: 'https://acme.example/changelog/1-0', what: 'feed-entry' as const, title: 'Acme 1.0', state: 'listed', hash: null, seenAt: T1, origin: FEED },
    ];
    const partial = comparePages(baseline, reading, { sequence: 2, pagesComplete: false });
    expect(partial.changes).toEqual([]);
    // Kept, so that the next reading compares with them.
    expect(partial.next.map((row) => row.url)).toHaveLength(4);
    const next = comparePages(partial.next, [...reading, { url: 'https://boards.greenhouse.io/acme/jobs/8', what: 'role' as const, title: 'Role 8', state: 'open', hash: null, seenAt: T1, origin: BOARD }], { sequence: 3 });
    expect(next.changes).toEqual([expect.objectContaining({ action: 'opened', text: 'Role 8' })]);
  });

  it(`counts a page flipping between two versions once, then only as flips (within ${FLIP_WINDOW} executions)`, () => {
    const a = ['Acme builds forklifts.', 'Today: free shipping on pallets.'];
    const b = ['Acme builds forklifts.', 'Today: a webinar on fleet safety.'];
    let baseline = baselineOf([page(a)]);
    const seen: number[] = [];
    let flips = 0;
    for (let sequence = 2; sequence <= 7; sequence++) {
      const result = comparePages(baseline, [page(sequence % 2 === 0 ? b : a)], { sequence });
      seen.push(result.changes.length);
      flips += result.counts.flips;
      baseline = result.next;
    }
    expect(seen).toEqual([2, 0, 0, 0, 0, 0]);
    expect(flips).toBe(10);
  });

  it('reports a price changed twice in a row as two price changes, not a flip', () => {
    let baseline = baselineOf([page(['The Pro plan costs $19 per month.'])]);
    const first = comparePages(baseline, [page(['The Pro plan costs $26 per month.'])], { sequence: 2 });
    baseline = first.next;
    const second = comparePages(baseline, [page(['The Pro plan costs $33 per month.'])], { sequence: 3 });
    expect(first.changes).toEqual([expect.objectContaining({ kind: 'pricing', before: '$19', after: '$26' })]);
    expect(second.changes).toEqual([expect.objectContaining({ kind: 'pricing', before: '$26', after: '$33' })]);
    expect(second.counts.flips).toBe(0);
  });

  it('reports a change undone long after as a change again', () => {
    let baseline = baselineOf([page(['The Pro plan costs $49 per month.'])]);
    baseline = comparePages(baseline, [page(['The Pro plan costs $59 per month.'])], { sequence: 2 }).next;
    const undone = comparePages(baseline, [page(['The Pro plan costs $49 per month.'])], { sequence: 2 + FLIP_WINDOW + 1 });
    expect(undone.changes).toEqual([expect.objectContaining({ kind: 'pricing', before: '$59', after: '$49' })]);
  });

  it(`bounds a page rewritten whole: ${MAX_CHANGES_PER_PAGE} listed, every change counted; ${MAX_CHANGES_LISTED} at most in all`, () => {
    const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `Sentence ${tag} number ${i} talks about widgets.`);
    const pages = Array.from({ length: 10 }, (_, p) => page(words(1_000, `old${p}`), { url: `https://acme.example/p${p}` }));
    const baseline = baselineOf(pages);
    const result = comparePages(
      baseline,
      pages.map((item, p) => ({ ...item, hash: 'new', sentences: words(1_000, `new${p}`) })),
      { sequence: 2 },
    );
    expect(result.changes).toHaveLength(MAX_CHANGES_LISTED);
    // 10,000 sentences changed: each counted, added and removed.
    expect(result.counts.total).toBe(20_000);
    expect(result.counts.pagesCompared).toBe(10);
  });

  it("lists the changes matching the watch's query first", () => {
    const baseline = baselineOf([page(['Acme ships to Canada.', 'The Pro plan costs $49 per month.'])]);
    const after = ['Acme ships to Canada and Mexico.', 'The Pro plan costs $59 per month.'];
    const plain = comparePages(baseline, [page(after)], { sequence: 2 });
    expect(plain.changes[0]!.kind).toBe('pricing');
    const asked = comparePages(baseline, [page(after)], { sequence: 2, query: 'Mexico expansion' });
    expect(asked.changes[0]!.text).toContain('Mexico');
  });
});
