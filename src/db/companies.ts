import type { KnownCompany } from '../research/competitors.ts';

/**
 * Reads of the organization's `company` objects: the ones research, competitors and runs need to
 * recognise and name companies. Writes go through oms/store.ts like every object's.
 */

/** Every company: its key (domain) and name. */
export async function listCompanies(db: D1Database, organizationId: string): Promise<KnownCompany[]> {
  const { results } = await db
    .prepare(`SELECT key, json_extract(properties, '$.name') AS name FROM objects WHERE organization_id = ? AND type = 'company'`)
    .bind(organizationId)
    .all<{ key: string; name: string | null }>();
  return results.map((row) => ({ key: row.key, ...(row.name ? { name: row.name } : {}) }));
}

/** The name of the company `key`, if it is stored and named. */
export async function companyName(db: D1Database, organizationId: string, key: string): Promise<string | undefined> {
  const row = await db
    .prepare(`SELECT json_extract(properties, '$.name') AS name FROM objects WHERE organization_id = ? AND type = 'company' AND key = ?`)
    .bind(organizationId, key)
    .first<{ name: string | null }>();
  return row?.name ?? undefined;
}

/** Keys of the companies whose domain or name `text` mentions. */
export async function companiesNamedIn(db: D1Database, organizationId: string, text: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT key FROM objects
        WHERE organization_id = ?1 AND type = 'company'
          AND (instr(lower(?2), key) > 0
               OR instr(lower(?2), lower(json_extract(properties, '$.name'))) > 0)`,
    )
    .bind(organizationId, text)
    .all<{ key: string }>();
  return results.map((row) => row.key);
}
