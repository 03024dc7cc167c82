import type { Db } from '../ground/db-session.ts';
/**
 * The D1 side of site reads (src/sites/read/): what the last read of each page found
 * (`site_pages`) and the pages each organization's reads fetched per UTC day (`site_read_usage`).
 * Every statement is scoped by organization; every value is a bound parameter.
 */

/**
 * `noindex`: the page asks not to be indexed, so no source is kept of it; `handled`: fetched and
 * counted, but no source kept (a copy of another page, unreadable, not rendered).
 */
export type SitePageState = 'live' | 'gone' | 'noindex' | 'handled';
/** What a read found of a page it requested: stored for the first time, text changed, same text (or 304), gone, not to be indexed, skipped or failed after its body came. */
export type SitePageOutcome = 'new' | 'changed' | 'unchanged' | 'gone' | 'noindex' | 'skipped' | 'failed';

export interface SitePageRow {
  url: string;
  state: SitePageState;
  etag: string | null;
  lastModified: string | null;
  contentHash: string | null;
  runId: string;
  outcome: SitePageOutcome;
  /** Whether the page's source is still stored (a person may have deleted it since). */
  sourceStored: boolean;
}

/** What the last read of `url` kept, or null for a page never read. */
export async function readSitePage(db: Db, organizationId: string, url: string): Promise<SitePageRow | null> {
  const row = await db
    .prepare(
      `SELECT url, state, etag, last_modified AS lastModified, content_hash AS contentHash, run_id AS runId, outcome,
              EXISTS (SELECT 1 FROM objects o WHERE o.organization_id = p.organization_id AND o.type = 'source' AND o.key = p.url) AS sourceStored
         FROM site_pages p WHERE organization_id = ?1 AND url = ?2`,
    )
    .bind(organizationId, url)
    .first<Omit<SitePageRow, 'sourceStored'> & { sourceStored: number }>();
  return row ? { ...row, sourceStored: row.sourceStored === 1 } : null;
}

/**
 * What earlier reads kept of every page of `domain`, by URL, as readSitePage gives each; undefined
 * when the domain has more than `limit` pages recorded (the caller then reads them one by one).
 */
export async function readSitePagesOf(db: Db, organizationId: string, domain: string, limit: number): Promise<Map<string, SitePageRow> | undefined> {
  const { results } = await db
    .prepare(
      `SELECT url, state, etag, last_modified AS lastModified, content_hash AS contentHash, run_id AS runId, outcome,
              EXISTS (SELECT 1 FROM objects o WHERE o.organization_id = p.organization_id AND o.type = 'source' AND o.key = p.url) AS sourceStored
         FROM site_pages p WHERE organization_id = ?1 AND domain = ?2 LIMIT ?3`,
    )
    .bind(organizationId, domain, limit + 1)
    .all<Omit<SitePageRow, 'sourceStored'> & { sourceStored: number }>();
  if (results.length > limit) return undefined;
  return new Map(results.map((row) => [row.url, { ...row, sourceStored: row.sourceStored === 1 }]));
}

export interface SitePageWrite {
  url: string;
  domain: string;
  state: SitePageState;
  etag?: string;
  lastModified?: string;
  /** The stored text's hash; undefined keeps the one stored (a 304, a page gone). */
  contentHash?: string;
  runId: string;
  outcome: SitePageOutcome;
  /** Whether the stored text (or the state) changed: moves changed_at. */
  changed: boolean;
  at: string;
}

/** Records what a read found of one page (insert or update). A 304 keeps the validators it was sent with. */
export function sitePageStatement(db: Db, organizationId: string, page: SitePageWrite): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO site_pages (organization_id, url, domain, state, etag, last_modified, content_hash, first_read_at, last_read_at, changed_at, run_id, outcome)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?8, ?9, ?10)
       ON CONFLICT (organization_id, url) DO UPDATE SET
         state = excluded.state,
         etag = CASE WHEN ?11 THEN excluded.etag ELSE site_pages.etag END,
         last_modified = CASE WHEN ?11 THEN excluded.last_modified ELSE site_pages.last_modified END,
         content_hash = coalesce(excluded.content_hash, site_pages.content_hash),
         last_read_at = excluded.last_read_at,
         changed_at = CASE WHEN ?12 THEN excluded.changed_at ELSE site_pages.changed_at END,
         run_id = excluded.run_id, outcome = excluded.outcome`,
    )
    .bind(
      organizationId,
      page.url,
      page.domain,
      page.state,
      page.etag ?? null,
      page.lastModified ?? null,
      page.contentHash ?? null,
      page.at,
      page.runId,
      page.outcome,
      // A page read with a body brings its own validators (none when it sent none); a 304 or a gone page keeps them.
      page.contentHash !== undefined ? 1 : 0,
      page.changed ? 1 : 0,
    );
}

/** Counts `pages` more pages fetched by the organization's site reads on `day` (YYYY-MM-DD, UTC). */
export function countPagesStatement(db: Db, organizationId: string, day: string, pages = 1): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO site_read_usage (organization_id, day, pages) VALUES (?1, ?2, ?3)
       ON CONFLICT (organization_id, day) DO UPDATE SET pages = site_read_usage.pages + excluded.pages`,
    )
    .bind(organizationId, day, pages);
}

/** Counts one page rendered in a browser by the organization's site reads on `day` (the page itself is counted by countPagesStatement). */
export function countRenderStatement(db: Db, organizationId: string, day: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO site_read_usage (organization_id, day, pages, rendered) VALUES (?1, ?2, 0, 1)
       ON CONFLICT (organization_id, day) DO UPDATE SET rendered = site_read_usage.rendered + 1`,
    )
    .bind(organizationId, day);
}

/** Pages the organization's site reads rendered in a browser on `day`. */
export async function pagesRenderedOn(db: Db, organizationId: string, day: string): Promise<number> {
  const row = await db.prepare(`SELECT rendered FROM site_read_usage WHERE organization_id = ?1 AND day = ?2`).bind(organizationId, day).first<{ rendered: number }>();
  return row?.rendered ?? 0;
}

/** Pages the organization's site reads fetched on `day`. */
export async function pagesFetchedOn(db: Db, organizationId: string, day: string): Promise<number> {
  const row = await db.prepare(`SELECT pages FROM site_read_usage WHERE organization_id = ?1 AND day = ?2`).bind(organizationId, day).first<{ pages: number }>();
  return row?.pages ?? 0;
}

/** Runs `statements` in one batch (one transaction). */
export async function commitStatements(db: Db, statements: readonly D1PreparedStatement[]): Promise<void> {
  if (statements.length) await db.batch([...statements]);
}

/** When earlier reads last read each page of `domain` (ISO), most recently read first, at most `limit`: a re-read compares them with the sitemaps' lastmod. */
export async function lastReadPages(db: Db, organizationId: string, domain: string, limit: number): Promise<Map<string, string>> {
  const { results } = await db
    .prepare(`SELECT url, last_read_at AS lastReadAt FROM site_pages WHERE organization_id = ?1 AND domain = ?2 ORDER BY last_read_at DESC, url LIMIT ?3`)
    .bind(organizationId, domain, limit)
    .all<{ url: string; lastReadAt: string }>();
  return new Map(results.map((row) => [row.url, row.lastReadAt]));
}

/** The live pages earlier reads of `domain` found (at most `limit`, most recently read first): a re-read offers them again. */
export async function knownSitePages(db: Db, organizationId: string, domain: string, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(`SELECT url FROM site_pages WHERE organization_id = ?1 AND domain = ?2 AND state = 'live' ORDER BY last_read_at DESC, url LIMIT ?3`)
    .bind(organizationId, domain, limit)
    .all<{ url: string }>();
  return results.map((row) => row.url);
}
