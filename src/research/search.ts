import type { ResearchSource } from './provider.ts';
import type { RankedPassage } from './select.ts';

/** An FTS5 query: the organization's rows, and any of `words` in a source's title or text. */
export function matchExpression(organizationId: string, words: readonly string[]): string {
  return `organization_id : ${quote(organizationId)} AND {title text} : (${words.map(quote).join(' OR ')})`;
}

/** Narrows an expression to passages that also contain any of `words`. */
export function andAnyOf(expression: string, words: readonly string[]): string {
  return `${expression} AND {title text} : (${words.map(quote).join(' OR ')})`;
}

function quote(word: string): string {
  return `"${word.replace(/"/g, '""')}"`;
}

/**
 * The best passages for an FTS5 expression by BM25 (titles weigh double), optionally limited to or
 * excluding source domains. The one query every research feature reads the index with.
 */
export async function searchPassages(
  db: D1Database,
  expression: string,
  limit: number,
  policy: { include: readonly string[]; exclude: readonly string[] } = { include: [], exclude: [] },
): Promise<RankedPassage[]> {
  const { results } = await db
    .prepare(
      `SELECT p.source_key AS sourceKey, p.text, bm25(passages_fts, 0.0, 2.0, 1.0) AS score
         FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid
        WHERE passages_fts MATCH ?1
          AND (?2 = '[]' OR p.domain IN (SELECT value FROM json_each(?2)))
          AND p.domain NOT IN (SELECT value FROM json_each(?3))
        ORDER BY score
        LIMIT ?4`,
    )
    .bind(expression, JSON.stringify(policy.include), JSON.stringify(policy.exclude), limit)
    .all<RankedPassage>();
  return results;
}

/** Title, domain and date of the organization's sources `keys`, by key. */
export async function readSources(db: D1Database, organizationId: string, keys: readonly string[]): Promise<Map<string, ResearchSource>> {
  const found = new Map<string, ResearchSource>();
  if (keys.length === 0) return found;
  const { results } = await db
    .prepare(
      `SELECT key, json_extract(properties, '$.title') AS title, json_extract(properties, '$.domain') AS domain,
              json_extract(properties, '$.publishedAt') AS publishedAt
         FROM objects WHERE organization_id = ?1 AND type = 'source' AND key IN (SELECT value FROM json_each(?2))`,
    )
    .bind(organizationId, JSON.stringify(keys))
    .all<{ key: string; title: string; domain: string; publishedAt: string | null }>();
  for (const row of results) {
    found.set(row.key, {
      url: row.key,
      title: row.title,
      domain: row.domain,
      ...(row.publishedAt ? { publishedAt: row.publishedAt.slice(0, 10) } : {}),
    });
  }
  return found;
}
