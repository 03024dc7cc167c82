import type { ResearchSource } from './provider.ts';
import type { RankedPassage } from './select.ts';

/** Include and exclude lists of source domains. */
export interface DomainPolicy {
  include: readonly string[];
  exclude: readonly string[];
}

const NO_POLICY: DomainPolicy = { include: [], exclude: [] };

function quote(word: string): string {
  return `"${word.replace(/"/g, '""')}"`;
}

/**
 * The part of every FTS5 query that says whose passages and which domains: the organization's
 * token (its id without `_`, as the insert trigger stores it) and the source policy, all matched
 * by the index itself.
 */
export function scopeExpression(organizationId: string, policy: DomainPolicy = NO_POLICY): string {
  let expression = `organization_id : ${quote(organizationId.replace(/_/g, ''))}`;
  if (policy.include.length) expression += ` AND domain : (${policy.include.map(quote).join(' OR ')})`;
  if (policy.exclude.length) expression += ` NOT domain : (${policy.exclude.map(quote).join(' OR ')})`;
  return expression;
}

/** Passages with any of `words` in their title or text. */
export function anyOf(words: readonly string[]): string {
  return `{title text} : (${words.map(quote).join(' OR ')})`;
}

/** Passages with every one of `words` in their title or text. */
export function allOf(words: readonly string[]): string {
  return `{title text} : (${words.map(quote).join(' AND ')})`;
}

/**
 * The best passages for an FTS5 expression by BM25 (titles weigh double). The top `limit` rows are
 * taken from the index alone, and only they are joined to their text: the scope is part of the
 * expression, so nothing is filtered after the sort.
 */
export async function searchPassages(db: D1Database, expression: string, limit: number): Promise<RankedPassage[]> {
  const { results } = await db
    .prepare(
      `SELECT p.source_key AS sourceKey, p.text, hits.score
         FROM (SELECT rowid, rank AS score FROM passages_fts
                WHERE passages_fts MATCH ?1 AND rank MATCH 'bm25(0.0, 0.0, 2.0, 1.0)'
                ORDER BY rank LIMIT ?2) AS hits
         JOIN passages p ON p.id = hits.rowid
        ORDER BY hits.score`,
    )
    .bind(expression, limit)
    .all<RankedPassage>();
  return results;
}

/**
 * Passages about a topic: first those with every term (conjunctive, usually a small set, so fast
 * and precise); only when they are too few, those with any term, which fill up the list. BM25 sums
 * over the terms a passage contains, so scores from both queries rank together.
 */
export async function searchTopic(
  db: D1Database,
  scope: string,
  words: readonly string[],
  limit: number,
): Promise<RankedPassage[]> {
  const all = await searchPassages(db, `${scope} AND ${allOf(words)}`, limit);
  if (all.length >= limit || words.length === 1) return all;
  const any = await searchPassages(db, `${scope} AND ${anyOf(words)}`, limit);
  const seen = new Set(all.map((p) => `${p.sourceKey}\u001f${p.text}`));
  return [...all, ...any.filter((p) => !seen.has(`${p.sourceKey}\u001f${p.text}`))].sort((a, b) => a.score - b.score).slice(0, limit);
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
