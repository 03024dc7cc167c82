import { asksWhoRuns } from './answer-types.ts';
import { terms } from './text.ts';

/**
 * Words a topic means without writing them, so search and selection meet the sentence that says
 * it the other way: the department a C-level title names ("CFO" is who "runs our finance team"),
 * the initials of a spelled-out term ("annual recurring revenue" is "ARR"), and the words of a
 * place's abbreviation ("US" is "the United States"). English business
 * usage only; nothing here is about one company, market or corpus. The words are soft: they widen
 * the search and count as context (at half weight), never as words a sentence must hold.
 */

/** C-level titles and the words a page uses for the role instead. */
const ROLE_WORDS: Record<string, readonly string[]> = {
  ceo: ['chief', 'executive', 'founder'],
  cfo: ['finance', 'financial'],
  cto: ['technology', 'engineering'],
  coo: ['operations'],
  cmo: ['marketing'],
  cro: ['revenue', 'sales'],
  cpo: ['product'],
  chro: ['people', 'hr'],
};

/**
 * Upper-case abbreviations of places, as a topic writes them (`US` is also a stopword, `us`), and the
 * words a page spells them with.
 */
const PLACE_WORDS: Record<string, readonly string[]> = {
  US: ['united', 'states', 'american'],
  USA: ['united', 'states', 'american'],
  UK: ['united', 'kingdom', 'british'],
  EU: ['europe', 'european'],
  UAE: ['emirates'],
  APAC: ['asia', 'pacific'],
  EMEA: ['europe', 'middle', 'east', 'africa'],
  LATAM: ['latin', 'america'],
};

/** Lower-case words that start a spelled-out term worth its initials: no short connector words. */
const INITIALS_FROM = 3;
const INITIALS_TO = 4;

/** The extra words of `topic` (see above), without those it already holds. */
export function topicExpansions(topic: string): string[] {
  const words = terms(topic);
  const extra = new Set<string>();
  for (const word of words) for (const related of ROLE_WORDS[word] ?? []) extra.add(related);
  // "Who runs (leads, heads) <a company>" asks for its chief executive.
  if (asksWhoRuns(topic)) for (const related of ['ceo', ...ROLE_WORDS.ceo!]) extra.add(related);
  // A hyphenated word by its parts too: "two-year" is what "two years" says.
  for (const word of words) if (word.includes('-')) for (const part of terms(word.replace(/-/g, ' '))) extra.add(part);
  for (const abbreviation of topic.match(/\b[A-Z]{2,5}\b/g) ?? []) for (const related of PLACE_WORDS[abbreviation] ?? []) extra.add(related);
  // Runs of lower-case words in the topic as written ("annual recurring revenue"), by their initials.
  // Only a whole run of 3 or 4 content words: one acronym at most per run, searched for cheaply.
  for (const run of topic.normalize('NFKC').match(/(?<![\p{L}\p{N}'-])\p{Ll}[\p{L}\p{N}'-]*(?:\s+\p{Ll}[\p{L}\p{N}'-]*)+/gu) ?? []) {
    const runWords = run.split(/\s+/);
    if (runWords.length >= INITIALS_FROM && runWords.length <= INITIALS_TO && runWords.every((w) => terms(w).length === 1)) {
      extra.add(runWords.map((w) => w[0]).join(''));
    }
  }
  for (const word of words) extra.delete(word);
  return [...extra];
}
