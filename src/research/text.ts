/**
 * Text handling for the embedded engine: sentences, passages and search terms. Pure functions, so
 * the faithfulness of briefs rests on code that is easy to test: every sentence a brief cites is a
 * substring of its source, because sentences are only ever cut out of source text, never rebuilt.
 */

const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'inc', 'ltd', 'co', 'corp', 'vs', 'mr', 'ms', 'dr', 'st', 'no', 'approx', 'u.s', 'u.k']);

/** Splits text into sentences; each returned sentence is an exact substring of `text` (trimmed). */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  // A sentence ends at . ! or ? (with closing quotes or brackets) followed by whitespace and an
  // upper-case letter, a digit or an opening quote, or at a line break, or at the end.
  const boundary = /([.!?]["'”’)\]]*)(\s+)(?=["'“‘(\[]?[A-Z0-9])|\n\s*\n|\n(?=\s*[-*•\d])/g;
  let start = 0;
  for (const match of text.matchAll(boundary)) {
    const end = match.index + (match[1]?.length ?? 0);
    const candidate = text.slice(start, end);
    if (match[1] && endsWithAbbreviation(candidate)) continue;
    pushSentence(sentences, candidate);
    start = match.index + match[0].length;
  }
  pushSentence(sentences, text.slice(start));
  return sentences;
}

function endsWithAbbreviation(sentence: string): boolean {
  const lastWord = /(\S+)\.$/.exec(sentence.trimEnd())?.[1]?.toLowerCase();
  return lastWord !== undefined && (ABBREVIATIONS.has(lastWord) || /^[a-z]$/i.test(lastWord));
}

function pushSentence(sentences: string[], raw: string): void {
  const sentence = raw.trim();
  if (sentence) sentences.push(sentence);
}

/** Whole sentences worth citing: long enough to say something, short enough to read. */
export function isCitable(sentence: string): boolean {
  const words = sentence.split(/\s+/).length;
  return words >= 5 && words <= 80 && /[.!?]["'”’)\]]*$/.test(sentence);
}

/**
 * Groups sentences into passages of about `targetChars` characters, for the search index. Each
 * passage is a slice of `content`, separators included, so the line breaks that end a heading or a
 * paragraph without punctuation still end its sentence when the passage is split again, and every
 * sentence cut from a passage is verbatim in the content.
 */
export function splitPassages(content: string, targetChars = 600): string[] {
  const passages: string[] = [];
  let start = -1;
  let end = 0;
  let length = 0;
  for (const sentence of splitSentences(content)) {
    // Sentences are substrings of `content` in order, with only whitespace between them.
    const at = content.indexOf(sentence, end);
    if (start >= 0 && length + sentence.length > targetChars) {
      passages.push(content.slice(start, end));
      start = -1;
      length = 0;
    }
    if (start < 0) start = at;
    end = at + sentence.length;
    length += sentence.length + 1;
  }
  if (start >= 0) passages.push(content.slice(start, end));
  return passages;
}

const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have how i in into is it its of on or our that the their them ' +
    'there these they this to was we were what when where which who why will with you your about over than ' +
    'then also can do does did not no so such more most any all each other some very just only own same too ' +
    'should would could may might must shall us me my he she his her him tell show give find get know want'
  ).split(' '),
);

/** Lower-cased content words of `text`, without stopwords or one-letter tokens, in order, unique. */
export function terms(text: string): string[] {
  const words = text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  const seen = new Set<string>();
  for (const word of words) {
    const cleaned = word.replace(/'s$/, '').replace(/^-+|-+$/g, '');
    if (cleaned.length > 1 && !STOPWORDS.has(cleaned)) seen.add(cleaned);
  }
  return [...seen];
}

/** Jaccard similarity of two stem sets: the redundancy measure of the diversity pass. */
export function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}
