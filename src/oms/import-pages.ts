import { randomId } from '../ground/api-key.ts';
import { withoutCredentials } from '../ground/url-credentials.ts';
import { fetchSource, type FetchedPage, type SourceFetchOptions } from './fetch-source.ts';
import { planImport } from './import.ts';
import { ExpectationFailed, writeObjects, type AlsoStatements, type ObjectWrite, type WriteResult, type WriteSource } from './store.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * Adds web pages to an organization's knowledge base as `source` objects: fetches them (at most
 * PAGES_IN_FLIGHT at once, each bounded by fetch-source.ts), then stores each through the import
 * path, in the order given: the line an NDJSON import would carry is validated by the import's own
 * parser (planImport: the key normalized by SourceKey, title and content by the source schema) and
 * written by writeObjects with provenance kind `import`, the page's URL as the provenance URL. The
 * key is the URL the page was read from, after redirects. Neither keeps credentials (a token in the
 * URL sent, or in a redirect's target, opens the page but is never stored: withoutCredentials).
 */

/** Pages fetched at the same time: a few, well under the six connections a Worker may hold open. */
export const PAGES_IN_FLIGHT = 4;

/** What happened to one URL. `imported`: the source was created or its title or content changed. */
export interface AddedSource {
  /** The URL as it was sent. */
  url: string;
  status: 'imported' | 'unchanged' | 'failed';
  /** The source's key: the canonical URL the page was read from. */
  key?: string;
  title?: string;
  /** Body bytes read. */
  bytes?: number;
  /** The text was longer than a source may hold (200,000 characters) and was cut at a line break. */
  truncated?: true;
  /** Why it failed, for a person. */
  error?: string;
}

export interface PageRequest {
  /** As the caller sent it, for the report. */
  sent: string;
  /** Checked by checkSourceUrl with the same options: what is fetched. */
  url: string;
}

export async function importPages(
  db: Db,
  organizationId: string,
  requests: readonly PageRequest[],
  options: SourceFetchOptions,
  now = () => new Date().toISOString(),
): Promise<AddedSource[]> {
  const pages = await mapInFlight(requests, PAGES_IN_FLIGHT, (request) => fetchSource(request.url, options));
  const source = { kind: 'import' as const, id: randomId('imp') };
  const results: AddedSource[] = [];
  for (const [index, page] of pages.entries()) {
    results.push(await store(db, organizationId, requests[index]!.sent, page, source, now()));
  }
  return results;
}

async function store(db: Db, organizationId: string, sent: string, page: FetchedPage, source: WriteSource, now: string): Promise<AddedSource> {
  if (!page.ok) return { url: sent, status: 'failed', error: page.error, ...(page.bytes === undefined ? {} : { bytes: page.bytes }) };
  const stored = await storePage(db, organizationId, page, source, now);
  const found = { url: sent, title: page.title, bytes: page.bytes, ...(page.truncated ? { truncated: true as const } : {}) };
  if (!stored.ok) return { ...found, ...(stored.key === undefined ? {} : { key: stored.key }), status: 'failed', error: stored.error };
  return { ...found, key: stored.key, status: stored.outcome === 'unchanged' ? 'unchanged' : 'imported' };
}

export type StoredPage = { ok: true; key: string; outcome: 'created' | 'updated' | 'unchanged' } | { ok: false; key?: string; error: string };

/**
 * A page as the source write an NDJSON import line would make, parsed by the import's own parser
 * (planImport); or why it is no source. `domain`: the company a source is about when its URL is on
 * another host (a role on a job board).
 */
export async function planPageWrite(
  page: Extract<FetchedPage, { ok: true }> & { domain?: string },
): Promise<{ ok: true; write: ObjectWrite } | { ok: false; error: string }> {
  const properties = { title: page.title, content: page.content, ...(page.publishedAt ? { publishedAt: page.publishedAt } : {}), ...(page.domain ? { domain: page.domain } : {}) };
  const plan = await planImport(JSON.stringify({ type: 'source', key: page.url, properties }));
  const planned = plan.writes[0]?.parsed;
  if (!planned || planned.kind !== 'object') return { ok: false, error: `the page could not be stored as a source: ${plan.errors[0]?.message ?? 'not a source'}` };
  return { ok: true, write: planned.write };
}

/**
 * Stores a page read as the `source` an NDJSON import line would make of it: validated by the
 * import's own parser (planImport: the key normalized by SourceKey, title and content by the source
 * schema) and written by writeObjects with `source` as provenance, the page's URL (without
 * credentials, as the key) as its URL.
 * `also`: statements to commit in the same batch (a site read's page record), chosen by the outcome.
 */
export async function storePage(
  db: Db,
  organizationId: string,
  page: Extract<FetchedPage, { ok: true }> & { domain?: string },
  source: WriteSource,
  now: string,
  also?: (outcome: 'created' | 'updated' | 'unchanged', key: string) => readonly D1PreparedStatement[],
  options: { likelyNew?: boolean } = {},
): Promise<StoredPage> {
  const planned = await planPageWrite(page);
  if (!planned.ok) return planned;
  const { write } = planned;
  const statements = also && ((result: { objects: readonly string[] }) => {
    const outcome = result.objects[0];
    return outcome === 'created' || outcome === 'updated' || outcome === 'unchanged' ? also(outcome, write.key) : [];
  });
  const provenance = { ...source, url: withoutCredentials(page.url) };
  const [outcome] = (await writeNewOrAny(db, organizationId, write, provenance, now, statements, options.likelyNew === true)).objects;
  if (outcome === 'too_large' || outcome === undefined) {
    return { ok: false, key: write.key, error: 'with the properties already stored, the source would be larger than an object may be (1.5 MiB)' };
  }
  return { ok: true, key: write.key, outcome };
}

/**
 * Writes a source as writeObjects does. `likelyNew` (the caller has no record of it): written
 * without reading what is stored first (one D1 round trip less), guarded by the expectation that
 * nothing is; when something is after all, written again the ordinary way.
 */
async function writeNewOrAny(
  db: Db,
  organizationId: string,
  write: ObjectWrite,
  source: WriteSource,
  now: string,
  also: AlsoStatements | undefined,
  likelyNew: boolean,
): Promise<WriteResult> {
  if (likelyNew) {
    try {
      return await writeObjects(db, organizationId, [{ ...write, isNew: true }], [], source, now, also, [{ object: { type: write.type, key: write.key }, exists: false }]);
    } catch (error) {
      if (!(error instanceof ExpectationFailed)) throw error;
    }
  }
  return writeObjects(db, organizationId, [write], [], source, now, also);
}

/** `work` on every item with at most `limit` running at once; results in the items' order. */
async function mapInFlight<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
