import type { RankedPassage } from './select.ts';

/**
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
  db: D1Database,
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
