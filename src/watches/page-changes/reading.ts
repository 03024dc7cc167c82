import { companyPages, sourceTexts } from '../../db/company-pages.ts';
import { siteItemsOf } from '../../db/site-items.ts';
import type { PageBaselineRow } from '../../db/watch-page-baseline.ts';
import { splitSentences } from '../../research/text.ts';
import type { ReadingItem } from './compare.ts';
import type { Db } from '../../ground/db-session.ts';

/**
 * The reading a watch compares with its baseline (compare.ts): what D1 holds of the company's web
 * after the execution's site read. Pages (site_pages of the company's domain, with their sources'
 * titles), roles and feed entries (site_items). A page's text is loaded only when the baseline
 * lacks it or its hash moved, so an unchanged site costs two small queries.
 */

/** Pages and items a watch follows per company (the most recently read first). */
export const MAX_WATCHED_PAGES = 1_000;
export const MAX_WATCHED_ITEMS = 1_000;
/** Page texts loaded per execution: a first execution of a large site loads the rest on the next. */
export const MAX_TEXTS_LOADED = 500;

export async function readCompanyWeb(db: Db, organizationId: string, domain: string, baseline: readonly PageBaselineRow[] | null): Promise<ReadingItem[]> {
  const [pages, items] = await Promise.all([companyPages(db, organizationId, domain, MAX_WATCHED_PAGES), siteItemsOf(db, organizationId, domain, MAX_WATCHED_ITEMS)]);
  const before = new Map((baseline ?? []).map((row) => [row.url, row]));
  const toLoad = pages
    .filter((page) => page.state === 'live' && (before.get(page.url)?.hash !== page.hash || before.get(page.url)?.state !== 'live'))
    .slice(0, MAX_TEXTS_LOADED)
    .map((page) => page.url);
  const texts = await sourceTexts(db, organizationId, toLoad);
  const reading: ReadingItem[] = pages.map((page) => {
    const text = texts.get(page.url);
    return {
      url: page.url,
      what: 'page',
      title: page.title ?? text?.title ?? '',
      state: page.state,
      hash: page.hash,
      seenAt: page.lastReadAt,
      ...(text ? { sentences: splitSentences(text.content) } : {}),
    };
  });
  for (const item of items) {
    reading.push({ url: item.url, what: item.kind, title: item.title, state: item.state, hash: null, seenAt: item.lastSeenAt, origin: item.origin, ...(item.location ? { location: item.location } : {}) });
  }
  return reading;
}
