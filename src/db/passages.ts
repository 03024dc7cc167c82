import { inPassageBlock } from './passage-blocks.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * Searches of the passages of sources (`passages` and its FTS5 index `passages_fts`, kept in step
 * by triggers): the statements research, competitors and audits read passages with. Each takes its
 * FTS5 expression, scope included, built by research/search.ts and research/fts-query.ts, as a
 * bound parameter. Passages are written by oms/store.ts (db/object-writes.ts).
 */

/** A passage the search returned, with its BM25 score (lower is better, as FTS5 reports it). */
export interface RankedPassage {
  sourceKey: string;
  text: string;
  score: number;
  /** The source's title, domain and date, stored with each passage. */
  title: string;
  domain: string;
  publishedAt: string | null;
}

const PASSAGE_COLUMNS = 'p.source_key AS sourceKey, p.text, p.title, p.domain, p.published_at AS publishedAt';

/**
 * The best passages for an FTS5 expression by BM25 (titles weigh double). The top `limit` rows are
 * taken from the index alone, and only they are joined to their text: the scope is part of the
 * expression, so nothing is filtered after the sort.
 */
export async function searchPassages(db: Db, expression: string, limit: number): Promise<RankedPassage[]> {
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
 * How many passages each FTS5 expression matches, each counted only up to `cap` (cheap: rowid
 * order, no ranking), in the order of `expressions`, in one statement. It binds 1 +
 * `expressions.length` parameters and D1 binds at most 100 in one statement, so a caller passes at
 * most 99 (research/search.ts `capTermCounts` passes MAX_QUERY_TERMS at a time).
 */
export async function countPassageMatches(db: Db, expressions: readonly string[], cap: number): Promise<number[]> {
  const columns = expressions.map(
    (_, i) => `(SELECT count(*) FROM (SELECT 1 FROM passages_fts WHERE passages_fts MATCH ?${i + 2} LIMIT ?1)) AS c${i}`,
  );
  const row = await db
    .prepare(`SELECT ${columns.join(', ')}`)
    .bind(cap, ...expressions)
    .first<Record<string, number>>();
  return expressions.map((_, i) => row?.[`c${i}`] ?? 0);
}

/**
 * How many of the first `limit` passages (in index order) matching an FTS5 expression there are,
 * and how many distinct sources they belong to.
 */
export async function countPassagesAndSources(db: Db, expression: string, limit: number): Promise<{ passages: number; sources: number }> {
  const row = await db
    .prepare(
      `SELECT count(*) AS passages, count(DISTINCT p.source_key) AS sources
         FROM (SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?1 LIMIT ?2) AS hits
         JOIN passages p ON p.id = hits.rowid`,
    )
    .bind(expression, limit)
    .first<{ passages: number; sources: number }>();
  return { passages: row?.passages ?? 0, sources: row?.sources ?? 0 };
}

/** A passage found for a topic: its text and, when stored and current, its sentences' facts. */
export interface FoundPassage extends RankedPassage {
  /** Its row id (in its organization's block of ids; a JavaScript number, exact up to 2^53: block 8191). */
  id: number;
  /** The stored facts (sentence-facts.ts `encodeFacts`) when they are of FACTS_VERSION; else null (a row indexed before migration 0011, or by an older version). */
  facts: string | null;
}

/**
 * The one statement of `findTopicPassages` (research/search.ts). Bound: ?1 the source policy's
 * `policyFilter`, ?2 the search terms (a JSON array of `searchTerms`, each safe inside an FTS5
 * phrase), ?3 COMMON_TERM_MATCHES, ?4 the limit, ?5 FACTS_VERSION, ?6 the number of the
 * organization's block of passage ids (db/passage-blocks.ts). Every read of the index is scoped by
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

/** What TOPIC_SEARCH is bound with, in the order of its parameters ?1 to ?6. */
export interface TopicSearch {
  /** ?1: the FTS5 text of the source policy (research/search.ts `policyFilter`), ANDed after each expression. */
  policyFilter: string;
  /** ?2: the search terms (research/fts-query.ts `searchTerms`), each safe inside an FTS5 phrase. */
  terms: readonly string[];
  /** ?3: a term matching this many passages or more is not informative, and is not ranked. */
  commonTermMatches: number;
  /** ?4: how many passages at most. */
  limit: number;
  /** ?5: the facts version whose stored facts are current (research/sentence-facts.ts FACTS_VERSION). */
  factsVersion: number;
  /** ?6: the organization's block of passage ids (db/passage-blocks.ts `passageBlock`). */
  block: number;
}

/** The passages TOPIC_SEARCH finds, best first (one statement, one D1 round trip). */
export async function searchTopicPassages(db: Db, search: TopicSearch): Promise<FoundPassage[]> {
  const { results } = await db
    .prepare(TOPIC_SEARCH)
    .bind(search.policyFilter, JSON.stringify(search.terms), search.commonTermMatches, search.limit, search.factsVersion, search.block)
    .all<FoundPassage>();
  return results;
}

/*
 * A search whose cost does not grow with the knowledge base. FTS5's BM25 scores every row an
 * expression matches, and reads the whole posting list of each of its terms to weigh them; the
 * posting lists of common words are shared by every organization, so ranking a common-word
 * expression costs everyone. Here the index only finds the newest matches, in its own (rowid)
 * order, stopping after `window` rows, and only those are scored, by a cheap count of the words
 * they hold.
 */

export interface BoundedPassages {
  /** The best `limit` of the newest `window` matching passages, best first. */
  passages: RankedPassage[];
  /** True when more than `window` passages match: only the newest were read. */
  more: boolean;
}

/**
 * Of the `window` most recently indexed passages matching an FTS5 expression, the `limit` that hold
 * the most of `words` (a word counts where a word of the text starts with it; in the title it
 * counts twice), newest first among equals. `score` is minus that count, lower is better, as
 * FTS5's BM25 reports it. One statement; it reads at most `window + 1` index entries in rowid order.
 */
export async function searchNewestPassages(
  db: Db,
  expression: string,
  words: readonly string[],
  window: number,
  limit: number,
): Promise<BoundedPassages> {
  const { results } = await db
    .prepare(
      `WITH hits AS (SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?2 + 1),
            newest AS (SELECT rowid FROM hits ORDER BY rowid DESC LIMIT ?2)
       SELECT p.source_key AS sourceKey, p.text, p.title, p.domain, p.published_at AS publishedAt,
              -(SELECT total(2 * (instr(' ' || lower(p.title), ' ' || w.value) > 0) + (instr(' ' || lower(p.text), ' ' || w.value) > 0))
                  FROM json_each(?3) AS w) AS score,
              (SELECT count(*) FROM hits) AS matched
         FROM newest JOIN passages p ON p.id = newest.rowid
        ORDER BY score, p.id DESC
        LIMIT ?4`,
    )
    .bind(expression, window, JSON.stringify(words.map((word) => word.toLowerCase())), limit)
    .all<RankedPassage & { matched: number }>();
  return {
    passages: results.map(({ matched: _matched, ...passage }) => passage),
    more: (results[0]?.matched ?? 0) > window,
  };
}
