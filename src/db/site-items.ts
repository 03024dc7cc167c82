import type { Db } from '../ground/db-session.ts';
/**
 * What site reads found besides pages (`site_items`, migration 0018): the open roles of the job
 * boards a company's pages link, and the entries of its feeds, per organization. A watch compares
 * them with how they were at its previous succeeded execution (roles opened and closed, new entries).
 * Every statement is scoped by organization; every value is a bound parameter.
 */

export type SiteItemKind = 'role' | 'feed-entry';
export type SiteItemState = 'open' | 'closed' | 'listed';

export interface SiteItemWrite {
  url: string;
  domain: string;
  kind: SiteItemKind;
  /** The board's URL (JobBoard.boardUrl), or the feed's URL. */
  origin: string;
  title: string;
  location?: string;
  runId: string;
  at: string;
}

/** Records one role a board lists (open) or one entry a feed lists: insert, or seen again now. */
export function siteItemStatement(db: Db, organizationId: string, item: SiteItemWrite): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO site_items (organization_id, url, domain, kind, origin, title, location, state, first_seen_at, last_seen_at, run_id)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10)
       ON CONFLICT (organization_id, url) DO UPDATE SET
         domain = excluded.domain, kind = excluded.kind, origin = excluded.origin, title = excluded.title,
         location = excluded.location, state = excluded.state, last_seen_at = excluded.last_seen_at, run_id = excluded.run_id`,
    )
    .bind(organizationId, item.url, item.domain, item.kind, item.origin, item.title, item.location ?? null, item.kind === 'role' ? 'open' : 'listed', item.at, item.runId);
}

/** After a read of a board listed its roles: the roles of that board it no longer lists are closed. */
export function closeUnlistedRolesStatement(db: Db, organizationId: string, domain: string, origin: string, runId: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE site_items SET state = 'closed', run_id = ?4
        WHERE organization_id = ?1 AND domain = ?2 AND kind = 'role' AND origin = ?3 AND state = 'open' AND run_id <> ?4`,
    )
    .bind(organizationId, domain, origin, runId);
}

export interface SiteItemRow {
  url: string;
  kind: SiteItemKind;
  /** The board's or the feed's URL. */
  origin: string;
  title: string;
  location: string | null;
  state: SiteItemState;
  lastSeenAt: string;
}

/** The roles and entries site reads of `domain` found, at most `limit`, most recently seen first. */
export async function siteItemsOf(db: Db, organizationId: string, domain: string, limit: number): Promise<SiteItemRow[]> {
  const { results } = await db
    .prepare(
      `SELECT url, kind, origin, title, location, state, last_seen_at AS lastSeenAt FROM site_items
        WHERE organization_id = ?1 AND domain = ?2 ORDER BY last_seen_at DESC, url LIMIT ?3`,
    )
    .bind(organizationId, domain, limit)
    .all<SiteItemRow>();
  return results;
}

/**
 * The feeds (`feed-entry`) or boards (`role`) earlier reads of `domain` stored items from, at most
 * `limit`, most recently seen first: a re-read whose pages answered 304 (so gave no links) still reads them.
 */
export async function knownOrigins(db: Db, organizationId: string, domain: string, kind: SiteItemKind, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT origin FROM site_items WHERE organization_id = ?1 AND domain = ?2 AND kind = ?3
        GROUP BY origin ORDER BY MAX(last_seen_at) DESC, origin LIMIT ?4`,
    )
    .bind(organizationId, domain, kind, limit)
    .all<{ origin: string }>();
  return results.map((row) => row.origin);
}
