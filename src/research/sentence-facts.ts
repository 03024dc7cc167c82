import { ANSWER_TYPES, figures, holdsAddOn, rolesIn, sentenceAnswerTypes, statesWeaknessPlainly, tellsOfBefore, tellsOfFuture, type AnswerType } from './answer-types.ts';
import { stem } from './stem.ts';
import { forEachTerm, isCitableCounted, sentenceSpans, wordCount } from './text.ts';

/**
 * What sentence selection needs to know about a sentence that does not depend on the topic: where
 * it lies in its passage, an identity for finding the same sentence in other sources, its stems,
 * the kinds of answer it holds, its informativeness and its figures. The import computes these
 * once per passage and stores them with it (`passages.sentences`), so a research call reads them
 * instead of splitting and stemming every candidate sentence again, and fetches the text of only
 * the sentences it cites.
 */

/**
 * The version of what `analyzePassage` computes. Stored facts of another version (or none: rows
 * indexed before migration 0011) are not used; research computes them from the passage's text
 * instead. Change it whenever the output of `analyzePassage` would change for some text: the
 * sentence splitter or `isCitable` (text.ts), `terms`, the stemmer (stem.ts), the sentence
 * patterns or `figures` of answer-types.ts, `informativeness`, `sentenceKey`, or the encoding.
 * test/research/sentence-facts.test.ts pins a fingerprint of the facts of the demo market per
 * version, so such a change fails there until the version moves.
 */
export const FACTS_VERSION = 7;

/** The topic-independent facts of one citable sentence of a passage. */
export interface SentenceFacts {
  /** `passage.text.slice(start, end)` is the sentence (UTF-16 offsets). */
  start: number;
  end: number;
  /** Identifies the sentence's exact text across passages (`sentenceKey`, or the text itself). */
  key: string;
  /** Stems of its words (`stems`), in order of first appearance. */
  stems: string[];
  /**
   * The kinds of answer it holds, bit i for ANSWER_TYPES[i], and above them its marks: ADD_ON_MARK
   * (bit 16), the roles it names (`rolesMarked`, bits 17 to 24), BEFORE_MARK (bit 25),
   * FUTURE_MARK (bit 26) and PLAIN_WEAKNESS_MARK (bit 27).
   */
  answers: number;
  /** `informativeness` of the sentence. */
  informativeness: number;
  /** Its figures as distinct tokens (`figures` of answer-types.ts). */
  figures: string[];
}

/** Stems of the words of `text` (figures and hyphenated words kept as they are). */
export function stems(text: string): Set<string> {
  // As new Set(terms(text).map(stem)): a stem first appears where its first word does.
  const found = new Set<string>();
  forEachTerm(text, (term) => found.add(stem(term)));
  return found;
}

/**
 * A prior for sentences that carry facts: concrete figures (prices, counts, dates) and enough words
 * to say something, without running on. 0 to 1.
 */
export function informativeness(sentence: string): number {
  return informativenessCounted(sentence, wordCount(sentence));
}

/** `informativeness(sentence)` for a caller that has `wordCount(sentence)` already. */
function informativenessCounted(sentence: string, words: number): number {
  const figure = /[$€£%]|\d/.test(sentence) ? 0.5 : 0;
  const length = words >= 12 && words <= 45 ? 0.5 : words >= 8 ? 0.25 : 0;
  return figure + length;
}

/**
 * The bit of `SentenceFacts.answers` set when the sentence prices or names an add-on (answer-types.ts
 * `holdsAddOn`): a mark on the sentence, above the answer types' bits, so the stored form stays as it is.
 */
export const ADD_ON_MARK = 1 << 16;

/** Whether facts' `answers` carry ADD_ON_MARK. */
export function marksAddOn(answers: number): boolean {
  return (answers & ADD_ON_MARK) !== 0;
}

/** The bit of `SentenceFacts.answers` set when the sentence speaks of a time before what it names (answer-types.ts `tellsOfBefore`). */
export const BEFORE_MARK = 1 << 25;

/** Whether facts' `answers` carry BEFORE_MARK. */
export function marksBefore(answers: number): boolean {
  return (answers & BEFORE_MARK) !== 0;
}

/** The bit of `SentenceFacts.answers` set when the sentence states a plan or an intent (answer-types.ts `tellsOfFuture`). */
export const FUTURE_MARK = 1 << 26;

/** Whether facts' `answers` carry FUTURE_MARK. */
export function marksFuture(answers: number): boolean {
  return (answers & FUTURE_MARK) !== 0;
}

/**
 * The bit of `SentenceFacts.answers` set when the sentence holds a weakness and judges in so many
 * words (answer-types.ts `statesWeaknessPlainly`), not only with a word that has other senses.
 */
export const PLAIN_WEAKNESS_MARK = 1 << 27;

/** Whether facts' `answers` carry PLAIN_WEAKNESS_MARK. */
export function marksPlainWeakness(answers: number): boolean {
  return (answers & PLAIN_WEAKNESS_MARK) !== 0;
}

/** Where the roles a sentence names (answer-types.ts `rolesIn`) start among the bits of `SentenceFacts.answers`. */
const ROLE_SHIFT = 17;

/** The roles a sentence names (answer-types.ts `rolesIn` bits), from its facts' `answers`. */
export function rolesMarked(answers: number): number {
  return (answers >>> ROLE_SHIFT) & 0xff;
}

/** The bit of an answer type in `SentenceFacts.answers`. */
export function answerBit(type: AnswerType): number {
  return 1 << ANSWER_TYPES.indexOf(type);
}

/** The types among `among` whose bit is set in `mask`, in their order. */
export function answersIn(mask: number, among: readonly AnswerType[]): AnswerType[] {
  return mask === 0 ? [] : among.filter((type) => (mask & answerBit(type)) !== 0);
}

/**
 * A 53-bit hash of a sentence's text (cyrb53), in base 36: the same sentence in two sources has
 * the same key. Two different sentences could share a key, with odds of about 1 in 10^15 per pair;
 * research compares the texts before it cites a second source for a sentence (embedded-engine.ts).
 */
export function sentenceKey(sentence: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < sentence.length; i++) {
    const code = sentence.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return base36(4294967296 * (2097151 & h2) + (h1 >>> 0));
}

const DIGITS36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * `n.toString(36)` for an integer 0 <= n < 2^53. V8 formats a number that large in another radix
 * on its general path for fractions, about a microsecond each; here `n % 36` is exact, and so is
 * dividing off a multiple of 36.
 */
function base36(n: number): string {
  let out = '';
  do {
    const digit = n % 36;
    out = DIGITS36[digit]! + out;
    n = (n - digit) / 36;
  } while (n > 0);
  return out;
}

/**
 * The facts of every citable sentence of a passage, in order. `key` names a sentence: by default
 * its hash (what the import stores); selection over texts in hand uses the text itself.
 */
export function analyzePassage(text: string, key: (sentence: string) => string = sentenceKey): SentenceFacts[] {
  const facts: SentenceFacts[] = [];
  for (const { start, end } of sentenceSpans(text)) {
    const sentence = text.slice(start, end);
    const words = wordCount(sentence);
    if (!isCitableCounted(sentence, words)) continue;
    let answers = 0;
    for (const type of sentenceAnswerTypes(sentence)) answers |= answerBit(type);
    if (holdsAddOn(sentence)) answers |= ADD_ON_MARK;
    answers |= rolesIn(sentence) << ROLE_SHIFT;
    if (tellsOfBefore(sentence)) answers |= BEFORE_MARK;
    if (tellsOfFuture(sentence)) answers |= FUTURE_MARK;
    if ((answers & answerBit('weakness')) !== 0 && statesWeaknessPlainly(sentence)) answers |= PLAIN_WEAKNESS_MARK;
    facts.push({
      start,
      end,
      key: key(sentence),
      stems: [...stems(sentence)],
      answers,
      informativeness: informativenessCounted(sentence, words),
      figures: figures(sentence),
    });
  }
  return facts;
}

/**
 * The stored form of a passage's facts: one record per sentence, records joined by `|`, fields by
 * `;`: `start;end;key;stems;answers;informativeness;figures`, stems and figures each joined by
 * spaces. None of these characters can occur inside a field (`terms` keeps only letters, digits,
 * `'` and `-`; `figures` only currency signs, digits, `,` `.` `%` `#` and letters, without
 * whitespace; keys are base 36), and none needs escaping in JSON, so the column travels from D1 as
 * it is stored and is read with two splits. An empty string is a passage with no citable sentence.
 */
export function encodeFacts(facts: readonly SentenceFacts[]): string {
  return facts.map((f) => `${f.start};${f.end};${f.key};${f.stems.join(' ')};${f.answers};${f.informativeness};${f.figures.join(' ')}`).join('|');
}

const words = (joined: string): string[] => (joined === '' ? [] : joined.split(' '));

/** Reads what `encodeFacts` wrote. */
export function decodeFacts(stored: string): SentenceFacts[] {
  if (stored === '') return [];
  return stored.split('|').map((record) => {
    const [start, end, key, stemList, answers, info, figureList] = record.split(';') as [string, string, string, string, string, string, string];
    return { start: Number(start), end: Number(end), key, stems: words(stemList), answers: Number(answers), informativeness: Number(info), figures: words(figureList) };
  });
}
