/**
 * The one builder of FTS5 query text. Every word that reaches `passages_fts MATCH` (topic words,
 * company names, area terms, the organization token, source-policy domains) becomes a phrase here,
 * so no input can be read as FTS5 syntax (AND OR NOT NEAR * ^ : ( ) { } - "), and no query holds
 * more terms than it can afford.
 */

/**
 * At most this many terms in one list of an FTS5 query, and so in one search of a topic (each term
 * is counted first, one bound parameter each; D1 allows 100 per statement). A longer topic keeps
 * its most informative terms (see `searchTerms`); sentences are still ranked against all its words.
 */
export const MAX_QUERY_TERMS = 16;

/**
 * A phrase that matches nothing: FTS5 reads a phrase without tokens as matching no row, so a list
 * of no terms narrows a query to nothing instead of breaking it (`()` is a syntax error).
 */
const NOTHING = '""';

/**
 * What FTS5 indexes of a word, as one phrase's text: its runs of letters, digits and marks (the
 * characters the `unicode61` tokenizer keeps), lower-cased and joined by spaces. Empty when the word
 * has none. Nothing else survives, so the text is safe between double quotes; FTS5 tokenizes it
 * again, so a word it splits ("don't", "acme.com") stays one phrase ("don t", "acme com").
 */
export function termText(word: string): string {
  return (word.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}\p{M}\p{Co}]+/gu) ?? []).join(' ');
}

/**
 * The distinct searchable terms of `words` (as `termText`), at most `max` of them: when there are
 * more, the longest are kept (a longer word is rarer and says more about a topic; ties keep the
 * earlier word), in their original order. Words with nothing searchable are dropped.
 */
export function searchTerms(words: readonly string[], max = MAX_QUERY_TERMS): string[] {
  const unique = [...new Set(words.map(termText).filter((term) => term.length > 0))];
  if (unique.length <= max) return unique;
  const kept = new Set(
    unique
      .map((term, index) => ({ term, index }))
      .sort((a, b) => b.term.length - a.term.length || a.index - b.index)
      .slice(0, max)
      .map(({ term }) => term),
  );
  return unique.filter((term) => kept.has(term));
}

/** True when `words` hold at least one term a search can use. */
export function hasSearchTerms(words: readonly string[]): boolean {
  return searchTerms(words, 1).length > 0;
}

/** A term (from `searchTerms` or `termText`) as an FTS5 phrase. */
function phrase(term: string): string {
  return term ? `"${term}"` : NOTHING;
}

/**
 * `column : (a OR b ...)` (or AND) over the searchable terms of `words`, at most `max` of them; a
 * list with no searchable term matches nothing. `column` is an FTS5 column or `{a b}` column set
 * written by us, never by a caller's input.
 */
export function columnMatch(column: string, words: readonly string[], operator: 'OR' | 'AND', max = MAX_QUERY_TERMS): string {
  const terms = searchTerms(words, max);
  return `${column} : (${terms.length ? terms.map(phrase).join(` ${operator} `) : NOTHING})`;
}

/** `column : "term"` for one word as a phrase (matches nothing when the word has no searchable term). */
export function columnPhrase(column: string, word: string): string {
  return `${column} : ${phrase(termText(word))}`;
}
