import { inPassageBlock, passageBlock } from '../db/passage-blocks.ts';
import { MAX_POLICY_DOMAINS } from '../ground/schemas/common.ts';
import { columnMatch, columnPhrase, MAX_QUERY_TERMS, searchTerms, termText } from './fts-query.ts';
import type { ResearchSource } from './provider.ts';
import type { RankedPassage } from './select.ts';
import { FACTS_VERSION } from './sentence-facts.ts';

/** Include and exclude lists of source domains. */
export interface DomainPolicy {
  include: readonly string[];
  exclude: readonly string[];
}

const NO_POLICY: DomainPolicy = { include: [], exclude: [] };

/**
 * The FTS5 text that applies a source policy to a search, ANDed after its other terms (FTS5's NOT
 * binds tighter than AND, so `terms AND included NOT excluded`); empty without a policy. An include
 * list with no usable domain matches nothing.
 */
export function policyFilter(policy: DomainPolicy = NO_POLICY): string {
  let filter = '';
  if (policy.include.length) filter += ` AND ${columnMatch('domain', policy.include, 'OR', MAX_POLICY_DOMAINS)}`;
  if (policy.exclude.length) filter += ` NOT ${columnMatch('domain', policy.exclude, 'OR', MAX_POLICY_DOMAINS)}`;
  return filter;
}

/**
 * The part of an FTS5 query that says whose passages and which domains: the organization's token
 * (its id without `_`, as the insert trigger stores it) and the source policy, all matched by the
 * index itself. A ranked search (BM25) pays for the token with a read of the organization's every
 * passage: `findTopicPassages` scopes by the organization's block of passage ids instead.
 */
export function scopeExpression(organizationId: string, policy: DomainPolicy = NO_POLICY): string {
  return columnPhrase('organization_id', organizationId.replace(/_/g, '')) + policyFilter(policy);
}

/** Whose passages a search reads, and which of their sources' domains. */
export interface PassageScope {
  organizationId: string;
  policy?: DomainPolicy;
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

/** A passage found for a topic: its text and, when stored and current, its sentences' facts. */
export interface FoundPassage extends RankedPassage {
  /** Its row id (in its organization's block of ids; a JavaScript number, exact up to 2^53: block 8191). */
  id: number;
  /** The stored facts (sentence-facts.ts `encodeFacts`) when they are of FACTS_VERSION; else null (a row indexed before migration 0011, or by an older version). */
  facts: string | null;
}

/**
 * The one statement of `findTopicPassages`. Bound: ?1 the source policy's `policyFilter`, ?2 the
 * search terms (a JSON array of `searchTerms`, each safe inside an FTS5 phrase), ?3
 * COMMON_TERM_MATCHES, ?4 the limit, ?5 FACTS_VERSION, ?6 the number of the organization's block
 * of passage ids (db/passage-blocks.ts). Every read of the index is scoped by
 * that rowid range, which FTS5 seeks to, not by a token of the index: BM25 weighs each phrase of an
 * expression by reading its whole row list, and an organization token's list is the organization's
 * every passage. Steps, each a CTE:
 * `counts` counts each term's passages in the scope up to ?3 (rowid order, no ranking);
 * `q` builds the three FTS5 expressions from them: the informative terms (matching fewer than ?3)
 * any-of, the present terms all-of and any-of; `ranked` takes the top ?4 of the informative
 * expression by BM25 (titles weigh double); `tier1` and `tier2` fill what is left with the newest
 * passages holding every, then any present term, only as many as are missing (`filled` and
 * `found` keep each passage once, at its best tier). A step that is not needed (no such term, or
 * the list already full) matches `nomatch`, an expression that matches no row and reads next to
 * nothing of the index (FTS5 reads an expression's index entries even under LIMIT 0), so unused
 * steps cost nothing.
 *
 * D1 prepares a statement on every call, and SQLite copies a CTE's whole tree (with the CTEs it
 * reads) at each reference, so preparing costs more than running on a small knowledge base: each
 * CTE is referenced as few times as it can be, and the block comes bound, not as a CTE (2.7 ms of
 * SQLite before, 1.2 ms after, on the demo market).
 */
const TOPIC_SEARCH = `
WITH counts AS MATERIALIZED (
  SELECT value AS term,
         (SELECT count(*) FROM (SELECT 1 FROM passages_fts
                                 WHERE ${inPassageBlock('rowid', '?6')}
                                   AND passages_fts MATCH '{title text} : ("' || value || '")' || ?1 LIMIT ?3)) AS n
    FROM json_each(?2)),
q AS MATERIALIZED (
  SELECT (SELECT '{title text} : (' || group_concat('"' || term || '"', ' OR ') || ')' || ?1 FROM counts WHERE n > 0 AND n < ?3) AS informative,
         (SELECT '{title text} : (' || group_concat('"' || term || '"', ' AND ') || ')' || ?1 FROM counts WHERE n > 0) AS every,
         (SELECT '{title text} : (' || group_concat('"' || term || '"', ' OR ') || ')' || ?1 FROM counts WHERE n > 0) AS some,
         (SELECT count(*) FROM counts WHERE n > 0) AS present,
         '{title text} : ("")' AS nomatch),
ranked AS MATERIALIZED (
  SELECT rowid, rank AS score FROM passages_fts
   WHERE ${inPassageBlock('rowid', '?6')}
     AND passages_fts MATCH (SELECT coalesce(informative, nomatch) FROM q) AND rank MATCH 'bm25(0.0, 0.0, 2.0, 1.0)'
   ORDER BY rank LIMIT ?4),
tier1 AS MATERIALIZED (
  SELECT rowid FROM passages_fts
   WHERE ${inPassageBlock('rowid', '?6')}
     AND passages_fts MATCH (SELECT iif(present = 0 OR (SELECT count(*) FROM ranked) >= ?4, nomatch, every) FROM q)
   ORDER BY rowid DESC LIMIT max(?4 - (SELECT count(*) FROM ranked), 0)),
filled AS MATERIALIZED (
  SELECT rowid, min(tier) AS tier, score FROM (SELECT rowid, score, 0 AS tier FROM ranked UNION ALL SELECT rowid, 0, 1 FROM tier1) GROUP BY rowid),
tier2 AS MATERIALIZED (
  SELECT rowid FROM passages_fts
   WHERE ${inPassageBlock('rowid', '?6')}
     AND passages_fts MATCH (SELECT iif(present < 2 OR (SELECT count(*) FROM filled) >= ?4, nomatch, some) FROM q)
   ORDER BY rowid DESC LIMIT max(?4 - (SELECT count(*) FROM filled), 0)),
found AS (
  SELECT rowid, min(tier) AS tier, score FROM (SELECT rowid, tier, score FROM filled UNION ALL SELECT rowid, 2, 0 FROM tier2) GROUP BY rowid)
SELECT p.id, p.source_key AS sourceKey, p.title, p.domain, p.published_at AS publishedAt, found.score,
       iif(p.facts_version = ?5, p.facts, NULL) AS facts, p.text
  FROM found JOIN passages p ON p.id = found.rowid
 ORDER BY found.tier, found.score, iif(found.tier = 0, found.rowid, -found.rowid)`;

/**
 * Passages about a topic, searched by at most MAX_QUERY_TERMS of its words (`searchTerms`: the
 * searchable ones, the most informative kept), in one statement (one D1 round trip). Each word's
 * passages are counted up to COMMON_TERM_MATCHES (cheap: rowid order, no ranking); the passages
 * holding the words that match fewer (the informative ones) are ranked with BM25. If those are too
 * few, the list is filled with the newest passages that contain every word, then any word, taken
 * in index order without ranking. So a query never ranks more rows than its informative words
 * match, which bounds its cost however large the knowledge base grows; the sentences are ranked
 * again afterwards against every word of the topic. Best first, each passage with its text and its
 * stored sentence facts when those are current. The text comes with the facts, not in a second
 * read of the chosen passages only: a D1 round trip costs more than the text of `limit` passages.
 */
export async function findTopicPassages(db: D1Database, scope: PassageScope, topicWords: readonly string[], limit: number): Promise<FoundPassage[]> {
  const words = searchTerms(topicWords);
  if (words.length === 0) return [];
  const block = await passageBlock(db, scope.organizationId);
  if (block === null) return [];
  const { results } = await db
    .prepare(TOPIC_SEARCH)
    .bind(policyFilter(scope.policy), JSON.stringify(words), COMMON_TERM_MATCHES, limit, FACTS_VERSION, block)
    .all<FoundPassage>();
  return results;
}

/** `findTopicPassages` as the other searches return passages. */
export async function searchTopic(db: D1Database, scope: PassageScope, topicWords: readonly string[], limit: number): Promise<RankedPassage[]> {
  const found = await findTopicPassages(db, scope, topicWords, limit);
  return found.map(({ id: _id, facts: _facts, ...passage }) => passage);
}
