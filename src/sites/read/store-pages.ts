import type { FetchedPage } from '../../oms/fetch-source.ts';
import { planPageWrite, storePage, type StoredPage } from '../../oms/import-pages.ts';
import { ExpectationFailed, writeObjects, type ObjectWrite, type WriteSource } from '../../oms/store.ts';
import { withoutCredentials } from '../../ground/url-credentials.ts';
import type { Db } from '../../ground/db-session.ts';

/**
 * The texts of a read's pages stored as sources, several in one D1 batch when they are ready
 * together (write-group.ts): what storePage (src/oms/import-pages.ts) stores for each, the same
 * rows, with one statement per table for all of them rather than one per page.
 *
 * Only pages no read recorded (`likelyNew`, written without reading first) go together, and only
 * while the group stays small (MAX_GROUP_CHARS); any other page is stored by storePage alone, after
 * the group. A group is guarded as each page is (nothing stored under its key): when a guard fails,
 * nothing was written, and each page is stored alone, as storePage does it. Any other failure is
 * every page's of the group (the batch is one transaction: none of it was written).
 */

/** One page to store: storePage's arguments. */
export interface PageToStore {
  page: Extract<FetchedPage, { ok: true }>;
  source: WriteSource;
  at: string;
  /** The page's own statements, chosen by its outcome, committed with it (its record and the day's count). */
  also: (outcome: 'created' | 'updated' | 'unchanged', key: string) => readonly D1PreparedStatement[];
  /** No read recorded the page: most likely no source yet. */
  likelyNew: boolean;
}

/**
 * Titles and contents of one group, in characters, at most: each is sent about three times (the
 * source, its history, its passages), so a group's batch stays near a page's of ordinary size.
 */
export const MAX_GROUP_CHARS = 200_000;

/** Stores `items` (see above): one result per item, in their order; a page that fails fails alone unless the group's batch failed. */
export function storePages(db: Db, organizationId: string, items: readonly PageToStore[]): Promise<StoredPage>[] {
  const settled = storeSettled(db, organizationId, items);
  return items.map((_, i) =>
    settled.then((all) => {
      const result = all[i]!;
      if (result.status === 'rejected') throw result.reason;
      return result.value;
    }),
  );
}

/** storePage for one page. */
function storeAlone(db: Db, organizationId: string, item: PageToStore): Promise<StoredPage> {
  return storePage(db, organizationId, item.page, item.source, item.at, item.also, { likelyNew: item.likelyNew });
}

async function storeSettled(db: Db, organizationId: string, items: readonly PageToStore[]): Promise<PromiseSettledResult<StoredPage>[]> {
  let grouped: (StoredPage | undefined)[] = [];
  if (items.length > 1) {
    try {
      grouped = await writeTogether(db, organizationId, items);
    } catch (error) {
      if (!(error instanceof ExpectationFailed)) return items.map(() => ({ status: 'rejected', reason: error }));
    }
  }
  const results: PromiseSettledResult<StoredPage>[] = [];
  for (const [i, item] of items.entries()) {
    const stored = grouped[i];
    if (stored) {
      results.push({ status: 'fulfilled', value: stored });
      continue;
    }
    try {
      results.push({ status: 'fulfilled', value: await storeAlone(db, organizationId, item) });
    } catch (reason) {
      results.push({ status: 'rejected', reason });
    }
  }
  return results;
}

/**
 * Writes the pages that may go together in one writeObjects call; the result of each page written,
 * undefined for a page left for storePage (not likely new, not a source, a key another page of the
 * group has, past MAX_GROUP_CHARS, or too large to store). Throws ExpectationFailed when one of the
 * pages is stored already (nothing written).
 */
async function writeTogether(db: Db, organizationId: string, items: readonly PageToStore[]): Promise<(StoredPage | undefined)[]> {
  const chosen: { index: number; write: ObjectWrite; item: PageToStore }[] = [];
  const keys = new Set<string>();
  let chars = 0;
  for (const [index, item] of items.entries()) {
    if (!item.likelyNew) continue;
    const size = item.page.title.length + item.page.content.length;
    if (chars + size > MAX_GROUP_CHARS) continue;
    // As storePage plans it.
    const planned = await planPageWrite(item.page);
    if (!planned.ok || keys.has(planned.write.key)) continue;
    keys.add(planned.write.key);
    chars += size;
    // Each property's provenance is its own page's URL, as storePage's write source gives it.
    const url = withoutCredentials(item.page.url);
    const named = [...Object.keys(planned.write.properties), 'url', 'domain'].map((name): [string, string] => [name, url]);
    chosen.push({ index, item, write: { ...planned.write, isNew: true, sourceUrls: { ...Object.fromEntries(named), ...planned.write.sourceUrls } } });
  }
  const results: (StoredPage | undefined)[] = items.map(() => undefined);
  if (chosen.length < 2) return results;
  const writes = chosen.map((entry) => entry.write);
  const now = chosen.reduce((latest, entry) => (entry.item.at > latest ? entry.item.at : latest), chosen[0]!.item.at);
  const { source } = chosen[0]!.item;
  const written = await writeObjects(
    db,
    organizationId,
    writes,
    [],
    { kind: source.kind, id: source.id },
    now,
    (result) =>
      chosen.flatMap((entry, i) => {
        const outcome = result.objects[i];
        return outcome === 'created' || outcome === 'updated' || outcome === 'unchanged' ? entry.item.also(outcome, entry.write.key) : [];
      }),
    writes.map((write) => ({ object: { type: write.type, key: write.key }, exists: false })),
  );
  chosen.forEach((entry, i) => {
    const outcome = written.objects[i];
    // Too large: nothing of it was written; storePage says so in its own words.
    if (outcome === 'created' || outcome === 'updated' || outcome === 'unchanged') results[entry.index] = { ok: true, key: entry.write.key, outcome };
  });
  return results;
}
