import type { Db } from '../ground/db-session.ts';
/**
 * The data step of the audit (runs/audit.ts): counts of the problems in an organization's OMS
 * objects and links, over bounded samples, in one statement.
 */

/** The object types the data step examines. */
export const DATA_TYPES = ['company', 'person', 'source'] as const;

export interface DataCounts {
  total: number;
  /** Up to `examples` of each problem's objects: `type key`, the shared domain, or the link. */
  examples: { missing: string[]; stale: string[]; duplicates: string[]; dangling: string[] };
  examined: Record<(typeof DATA_TYPES)[number], number>;
  missing: number;
  stale: number;
  duplicates: number;
  links: number;
  dangling: number;
}

/** What the counts cover: how many rows of each sample, what is stale, how many examples per problem. */
export interface DataSample {
  /** At most this many objects of each of DATA_TYPES (the first by key), and this many links; `total` counts up to one more. */
  sample: number;
  /** A source published before this date (YYYY-MM-DD) is stale. */
  staleBefore: string;
  /** Each problem names at most this many objects (or links, or domains). */
  examples: number;
}

/**
 * The data step's counts, each over at most `sample` rows (the first by key), in one statement:
 * objects missing key properties (company and person name, source date), sources published before
 * `staleBefore`, companies sharing a normalized domain, and links to objects that do not exist.
 */
export async function countDataProblems(db: Db, organizationId: string, bounds: DataSample): Promise<DataCounts> {
  const sample = (type: string) =>
    `SELECT * FROM (SELECT type, key, properties FROM objects WHERE organization_id = ?1 AND type = '${type}' ORDER BY key LIMIT ?2)`;
  const missing = `(type IN ('company', 'person') AND json_extract(properties, '$.name') IS NULL) OR
            (type = 'source' AND json_extract(properties, '$.publishedAt') IS NULL)`;
  const stale = `type = 'source' AND json_extract(properties, '$.publishedAt') < ?3`;
  const dangling = `NOT EXISTS (SELECT 1 FROM objects o WHERE o.organization_id = l.organization_id AND o.type = l.from_type AND o.key = l.from_key) OR
            NOT EXISTS (SELECT 1 FROM objects o WHERE o.organization_id = l.organization_id AND o.type = l.to_type AND o.key = l.to_key)`;
  const duplicated = `SELECT lower(replace(coalesce(json_extract(properties, '$.domain'), key), 'www.', '')) AS d FROM sampled
             WHERE type = 'company' GROUP BY d HAVING COUNT(*) > 1`;
  const row = await db
    .prepare(
      `WITH sampled AS (${DATA_TYPES.map(sample).join(' UNION ALL ')}),
            sampled_links AS (SELECT * FROM links WHERE organization_id = ?1 LIMIT ?2)
       SELECT
         (SELECT count(*) FROM (SELECT 1 FROM objects WHERE organization_id = ?1 AND type != 'brief' LIMIT ?2 + 1)) AS total,
         (SELECT count(*) FROM sampled WHERE type = 'company') AS companies,
         (SELECT count(*) FROM sampled WHERE type = 'person') AS people,
         (SELECT count(*) FROM sampled WHERE type = 'source') AS sources,
         (SELECT count(*) FROM sampled WHERE ${missing}) AS missing,
         (SELECT json_group_array(type || ' ' || key) FROM (SELECT type, key FROM sampled WHERE ${missing} LIMIT ?4)) AS missingKeys,
         (SELECT count(*) FROM sampled WHERE ${stale}) AS stale,
         (SELECT json_group_array(key) FROM (SELECT key FROM sampled WHERE ${stale} ORDER BY json_extract(properties, '$.publishedAt') LIMIT ?4)) AS staleKeys,
         (SELECT count(*) FROM (${duplicated})) AS duplicates,
         (SELECT json_group_array(d) FROM (${duplicated} ORDER BY d LIMIT ?4)) AS duplicateKeys,
         (SELECT count(*) FROM sampled_links) AS links,
         (SELECT count(*) FROM sampled_links l WHERE ${dangling}) AS dangling,
         (SELECT json_group_array(from_type || ' ' || from_key || ' ' || link || ' ' || to_type || ' ' || to_key) FROM (SELECT * FROM sampled_links l WHERE ${dangling} LIMIT ?4)) AS danglingKeys`,
    )
    .bind(organizationId, bounds.sample, bounds.staleBefore, bounds.examples)
    .first<Record<string, number | string>>();
  const n = (name: string) => Number(row?.[name] ?? 0);
  const keys = (name: string) => JSON.parse(String(row?.[name] ?? '[]')) as string[];
  return {
    total: n('total'),
    examples: { missing: keys('missingKeys'), stale: keys('staleKeys'), duplicates: keys('duplicateKeys'), dangling: keys('danglingKeys') },
    examined: { company: n('companies'), person: n('people'), source: n('sources') },
    missing: n('missing'),
    stale: n('stale'),
    duplicates: n('duplicates'),
    links: n('links'),
    dangling: n('dangling'),
  };
}
