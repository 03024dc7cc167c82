import type { Db } from '../ground/db-session.ts';

/**
 * Reads of the organization's `company` objects: the ones research, competitors and runs need to
 * recognise and name companies, and the `competitors` links between them. Writes go through
 * oms/store.ts like every object's.
 */

/**
 * How many companies the reads below consider at most: the most recently updated ones. Research
 * and competitors recognise companies among these; beyond it, a read would grow with the
 * organization's data instead of staying bounded.
 */
export const COMPANIES_READ = 5_000;

/** A stored company as these reads give it: its key (domain) and name, if it has one. */
export interface CompanyName {
  key: string;
  name?: string;
}

/** The most recently updated COMPANIES_READ companies: key (domain) and name. */
export async function listCompanies(db: Db, organizationId: string): Promise<CompanyName[]> {
  const { results } = await db
    .prepare(
      `SELECT key, json_extract(properties, '$.name') AS name FROM objects
        WHERE organization_id = ?1 AND type = 'company' ORDER BY updated_at DESC LIMIT ?2`,
    )
    .bind(organizationId, COMPANIES_READ)
    .all<{ key: string; name: string | null }>();
  return results.map((row) => ({ key: row.key, ...(row.name ? { name: row.name } : {}) }));
}

/** The name of the company `key`, if it is stored and named. */
export async function companyName(db: Db, organizationId: string, key: string): Promise<string | undefined> {
  const row = await db
    .prepare(`SELECT json_extract(properties, '$.name') AS name FROM objects WHERE organization_id = ? AND type = 'company' AND key = ?`)
    .bind(organizationId, key)
    .first<{ name: string | null }>();
  return row?.name ?? undefined;
}

/** At most this many companies are named in one text (a brief links to them; research/speakers.ts). */
export const COMPANIES_NAMED = 25;

/**
 * Companies linked to company `key` by a `competitors` link either way, at most `limit` (by key, so
 * the answer is stable). Links with provenance `research` are left out (the competitors command
 * wrote those itself).
 */
export async function linkedCompetitors(db: Db, organizationId: string, key: string, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT to_key AS other FROM links WHERE organization_id = ?1 AND link = 'competitors' AND from_type = 'company'
          AND from_key = ?2 AND source_kind != 'research'
       UNION
       SELECT from_key AS other FROM links WHERE organization_id = ?1 AND link = 'competitors' AND to_type = 'company'
          AND to_key = ?2 AND source_kind != 'research'
       ORDER BY other LIMIT ?3`,
    )
    .bind(organizationId, key, limit)
    .all<{ other: string }>();
  return results.map((row) => row.other);
}
