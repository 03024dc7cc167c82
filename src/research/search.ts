import { MAX_POLICY_DOMAINS } from '../ground/schemas/common.ts';
import { columnMatch, columnPhrase, MAX_QUERY_TERMS, searchTerms, termText } from './fts-query.ts';
import type { ResearchSource } from './provider.ts';
import type { RankedPassage } from './select.ts';

/** Include and exclude lists of source domains. */
export interface DomainPolicy {
  include: readonly string[];
  exclude: readonly string[];
}

const NO_POLICY: DomainPolicy = { include: [], exclude: [] };

/**
 * The part of every FTS5 query that says whose passages and which domains: the organization's
 * token (its id without `_`, as the insert trigger stores it) and the source policy, all matched
 * by the index itself. An include list with no usable domain matches nothing.
 */
export function scopeExpression(organizationId: string, policy: DomainPolicy = NO_POLICY): string {
  let expression = columnPhrase('organization_id', organizationId.replace(/_/g, ''));
  if (policy.include.length) expression += ` AND ${columnMatch('domain', policy.include, 'OR', MAX_POLICY_DOMAINS)}`;
  if (policy.exclude.length) expression += ` NOT ${columnMatch('domain', policy.exclude, 'OR', MAX_POLICY_DOMAINS)}`;
  return expression;
}

/**
 * Passages with any of `words` in their title or text: at most MAX_QUERY_TERMS of them, the most
 * informative kept (fts-query.ts). Words with no searchable term are dropped; none left matches nothing.
 */
export function anyOf(words: readonly string[]): string {
  return columnMatch('{title text}', words, 'OR');
}

/** Passages with every one of `words` in their title or text (the same terms `anyOf` keeps). */
export function allOf(words: readonly string[]): string {
  return columnMatch('{title text}', words, 'AND');
}

const PASSAGE_COLUMNS = 'p.source_key AS sourceKey, p.text, p.title, p.domain, p.published_at AS publishedAt';

/** The source a passage belongs to, from the columns stored with it. */
export function sourceOf(passage: RankedPassage): ResearchSource {
  return {
    url: passage.sourceKey,
    title: passage.title,
    domain: passage.domain,
    ...(passage.publishedAt ? { publishedAt: passage.publishedAt } : {}),
  };
}

/**
 * The best passages for an FTS5 expression by BM25 (titles weigh double). The top `limit` rows are
 * taken from the index alone, and only they are joined to their text: the scope is part of the
 * expression, so nothing is filtered after the sort.
 */
export async function searchPassages(db: D1Database, expression: string, limit: number): Promise<RankedPassage[]> {
  const { results } = await db
    .prepare(
      `SELECT ${PASSAGE_COLUMNS}, hits.score
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
 * A term that matches this many of an organization's passages or more says little about a topic
 * (its IDF is low) and costs the most to rank: FTS5 scores every row a query matches.
 */
export const COMMON_TERM_MATCHES = 2_000;

/**
 * How many passages each word matches within `scope`, counted only up to `cap` (cheap: rowid order,
 * no ranking), in the order of `words`. A word with no searchable term matches nothing and is not
 * queried; the others are counted MAX_QUERY_TERMS to a statement, so no statement passes D1's 100
 * bound parameters however many words come in.
 */
export async function capTermCounts(db: D1Database, scope: string, words: readonly string[], cap = COMMON_TERM_MATCHES): Promise<number[]> {
  const terms = [...new Set(words.map(termText).filter((term) => term.length > 0))];
  const counts = new Map<string, number>();
  for (let start = 0; start < terms.length; start += MAX_QUERY_TERMS) {
    const chunk = terms.slice(start, start + MAX_QUERY_TERMS);
    const columns = chunk.map(
      (_, i) => `(SELECT count(*) FROM (SELECT 1 FROM passages_fts WHERE passages_fts MATCH ?${i + 2} LIMIT ?1)) AS c${i}`,
    );
    const row = await db
      .prepare(`SELECT ${columns.join(', ')}`)
      .bind(cap, ...chunk.map((term) => `${scope} AND ${anyOf([term])}`))
      .first<Record<string, number>>();
    chunk.forEach((term, i) => counts.set(term, row?.[`c${i}`] ?? 0));
  }
  return words.map((word) => counts.get(termText(word)) ?? 0);
}

/** The newest passages for an expression, without ranking: FTS5 stops after `limit` rows. */
async function recentPassages(db: D1Database, expression: string, limit: number): Promise<RankedPassage[]> {
  const { results } = await db
    .prepare(
      `SELECT ${PASSAGE_COLUMNS}, 0 AS score
         FROM (SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?2) AS hits
         JOIN passages p ON p.id = hits.rowid`,
    )
    .bind(expression, limit)
    .all<RankedPassage>();
  return results;
}

/**
 * Passages about a topic, searched by at most MAX_QUERY_TERMS of its words (`searchTerms`: the
 * searchable ones, the most informative kept). The passages holding the words that match few
 * passages (the informative ones) are ranked with BM25. If those
 * are too few, the list is filled with the newest passages that contain every word, then any word,
 * taken in index order without ranking. So a query never ranks more rows than its informative
 * words match, which bounds its cost however large the knowledge base grows; the sentences are
 * ranked again afterwards against every word of the topic.
 */
export async function searchTopic(db: D1Database, scope: string, topicWords: readonly string[], limit: number): Promise<RankedPassage[]> {
  const words = searchTerms(topicWords);
  const counts = await capTermCounts(db, scope, words);
  const present = words.filter((_, i) => counts[i]! > 0);
  if (present.length === 0) return [];
  const informative = present.filter((word) => counts[words.indexOf(word)]! < COMMON_TERM_MATCHES);

  const found = new Map<string, RankedPassage>();
  const add = (passages: RankedPassage[]) => {
    for (const passage of passages) {
      const key = `${passage.sourceKey}\u001f${passage.text}`;
      if (!found.has(key)) found.set(key, passage);
    }
  };
  // BM25 sums over the words a passage holds, so one any-word query already ranks the passages
  // with every informative word first; it matches at most a few thousand rows per word.
  if (informative.length) add(await searchPassages(db, `${scope} AND ${anyOf(informative)}`, limit));
  for (const tier of present.length > 1 ? [allOf(present), anyOf(present)] : [allOf(present)]) {
    if (found.size >= limit) break;
    add(await recentPassages(db, `${scope} AND ${tier}`, limit - found.size));
  }
  return [...found.values()].sort((a, b) => a.score - b.score).slice(0, limit);
}
