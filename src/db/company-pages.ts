import type { Db } from '../ground/db-session.ts';
/**
 * What a watch reads of a company's web in D1 after its site read (issue 32): the pages site reads
 * of the company's domain keep (`site_pages`, with their sources' titles) and, for the pages it
 * compares sentence by sentence, their stored text. Scoped by organization; values bound.
 */

export interface CompanyPageRow {
  url: string;
  state: 'live' | 'gone';
  /** The stored text's hash (site_pages.content_hash). */
  hash: string | null;
  lastReadAt: string;
  title: string | null;
}

/** The live and gone pages of `domain`, most recently read first, at most `limit`; only pages whose source is stored (or gone ones). */
export async function companyPages(db: Db, organizationId: string, domain: string, limit: number): Promise<CompanyPageRow[]> {
  const { results } = await db
    .prepare(
      `SELECT p.url, p.state, p.content_hash AS hash, p.last_read_at AS lastReadAt, json_extract(o.properties, '$.title') AS title
         FROM site_pages p
         LEFT JOIN objects o ON o.organization_id = p.organization_id AND o.type = 'source' AND o.key = p.url
        WHERE p.organization_id = ?1 AND p.domain = ?2 AND (p.state = 'gone' OR (p.state = 'live' AND o.key IS NOT NULL))
        ORDER BY p.last_read_at DESC, p.url LIMIT ?3`,
    )
    .bind(organizationId, domain, limit)
    .all<CompanyPageRow>();
  return results;
}

/** URLs per query: D1 binds at most 100 parameters. */
const URLS_PER_QUERY = 50;

/** The stored text (title and content) of the sources at `urls`, by URL; a URL without a source is left out. */
export async function sourceTexts(db: Db, organizationId: string, urls: readonly string[]): Promise<Map<string, { title: string; content: string }>> {
  const texts = new Map<string, { title: string; content: string }>();
  for (let from = 0; from < urls.length; from += URLS_PER_QUERY) {
    const slice = urls.slice(from, from + URLS_PER_QUERY);
    const marks = slice.map((_, i) => `?${i + 2}`).join(', ');
    const { results } = await db
      .prepare(
        `SELECT key AS url, json_extract(properties, '$.title') AS title, json_extract(properties, '$.content') AS content
           FROM objects WHERE organization_id = ?1 AND type = 'source' AND key IN (${marks})`,
      )
      .bind(organizationId, ...slice)
      .all<{ url: string; title: string | null; content: string | null }>();
    for (const row of results) texts.set(row.url, { title: row.title ?? '', content: row.content ?? '' });
  }
  return texts;
}
