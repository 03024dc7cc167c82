import type { RankedPassage } from './select.ts';
import { stem } from './text.ts';

/**
 * A search whose cost does not grow with the knowledge base. FTS5's BM25 scores every row an
 * expression matches, and reads the whole posting list of each of its terms to weigh them; the
 * posting lists of common words are shared by every organization, so ranking a common-word
 * expression costs everyone. Here the index only finds the newest matches, in its own (rowid)
 * order, stopping after `limit` rows; those few are ranked in the Worker.
 */

export interface NewestPassages {
  /** The newest matching passages (most recently indexed first), each with score 0. */
  passages: RankedPassage[];
  /** True when more passages match than were read. */
  more: boolean;
}

/** The `limit` most recently indexed passages matching an FTS5 expression, and whether more match. */
export async function newestPassages(db: D1Database, expression: string, limit: number): Promise<NewestPassages> {
  const { results } = await db
    .prepare(
      `SELECT p.source_key AS sourceKey, p.text, p.title, p.domain, p.published_at AS publishedAt, 0 AS score
         FROM (SELECT rowid FROM passages_fts WHERE passages_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?2) AS hits
         JOIN passages p ON p.id = hits.rowid
        ORDER BY p.id DESC`,
    )
    .bind(expression, limit + 1)
    .all<RankedPassage>();
  return { passages: results.slice(0, limit), more: results.length > limit };
}

const K1 = 1.2;
const B = 0.75;

function stems(text: string): string[] {
  return (text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);
}

/**
 * The passages ranked by BM25 for `words` (k1 1.2, b 0.75, the title counted twice, as the FTS5
 * searches weigh it), with document frequencies taken within `passages` themselves; best first,
 * each `score` negative like FTS5's (lower is better). Passages holding none of the words keep 0.
 */
export function rankWithin(passages: readonly RankedPassage[], words: readonly string[]): RankedPassage[] {
  const wanted = [...new Set(words.flatMap(stems))];
  const docs = passages.map((passage) => {
    const tokens = [...stems(passage.title), ...stems(passage.title), ...stems(passage.text)];
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    return { passage, length: tokens.length, counts };
  });
  const n = docs.length;
  const averageLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(n, 1) || 1;
  const idf = new Map(
    wanted.map((word) => {
      const df = docs.filter((d) => d.counts.has(word)).length;
      return [word, Math.log((n - df + 0.5) / (df + 0.5) + 1)];
    }),
  );
  return docs
    .map(({ passage, length, counts }) => {
      let score = 0;
      for (const word of wanted) {
        const tf = counts.get(word) ?? 0;
        if (tf) score += (idf.get(word)! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / averageLength));
      }
      return { ...passage, score: -score };
    })
    .sort((a, b) => a.score - b.score);
}
