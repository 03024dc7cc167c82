// A frozen copy of src/research/text.ts as it was before its speed-up (only import paths changed): the
// reference that test/research/sentence-facts-speed.test.ts and scripts/bench/sentence-facts.ts compare against.
/**
 * Text handling for the embedded engine: sentences, passages and search terms. Pure functions, so
 * the faithfulness of briefs rests on code that is easy to test: every sentence a brief cites is a
 * substring of its source, because sentences are only ever cut out of source text, never rebuilt.
 */

const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'inc', 'ltd', 'co', 'corp', 'vs', 'mr', 'ms', 'dr', 'st', 'no', 'approx', 'u.s', 'u.k']);

/** Where a sentence lies in its text: `text.slice(start, end)` is the sentence. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The sentences of `text` as spans (see `splitSentences`): trimmed, in order, none empty. Offsets
 * are UTF-16 code units, as `String.prototype.slice` counts them.
 */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  // A sentence ends at . ! or ? (with closing quotes or brackets) followed by whitespace and an
  // upper-case letter, a digit or an opening quote, or at a line break, or at the end.
  const boundary = /([.!?]["'”’)\]]*)(\s+)(?=["'“‘(\[]?[A-Z0-9])|\n\s*\n|\n(?=\s*[-*•\d])/g;
  let start = 0;
  for (const match of text.matchAll(boundary)) {
    const end = match.index + (match[1]?.length ?? 0);
    if (match[1] && endsWithAbbreviation(text, start, end)) continue;
    pushSpan(spans, text, start, end);
    start = match.index + match[0].length;
  }
  pushSpan(spans, text, start, text.length);
  return spans;
}

/** Splits text into sentences; each returned sentence is an exact substring of `text` (trimmed). */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map(({ start, end }) => text.slice(start, end));
}

/** True when text[start, end), which ends with a period, ends with an abbreviation or an initial. */
function endsWithAbbreviation(text: string, start: number, end: number): boolean {
  // The candidate's last non-space run, as /(\S+)\.$/ finds it on the trimmed candidate.
  let stop = end;
  while (stop > start && isSpace(text.charCodeAt(stop - 1))) stop--;
  if (stop <= start || text.charCodeAt(stop - 1) !== 46 /* . */) return false;
  let from = stop - 1;
  while (from > start && !isSpace(text.charCodeAt(from - 1))) from--;
  if (from === stop - 1) return false;
  const lastWord = text.slice(from, stop - 1).toLowerCase();
  return ABBREVIATIONS.has(lastWord) || /^[a-z]$/i.test(lastWord);
}

/** \s as JavaScript's regular expressions read it. */
function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 160) return false;
  return code === 160 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

function pushSpan(spans: Span[], text: string, start: number, end: number): void {
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  if (end > start) spans.push({ start, end });
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

/** Text with only ASCII characters: its NFKC form is itself. */
const ASCII = /^[\x00-\x7f]*$/;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'-]*/gu;
const ASCII_WORD = /[a-z0-9][a-z0-9'-]*/g;

/** Lower-cased content words of `text`, without stopwords or one-letter tokens, in order, unique. */
export function terms(text: string): string[] {
  const lower = text.toLowerCase();
  // For ASCII text NFKC changes nothing, and the letters and digits of WORD are a-z and 0-9.
  const words = ASCII.test(lower) ? lower.match(ASCII_WORD) : lower.normalize('NFKC').match(WORD);
  const seen = new Set<string>();
  for (const word of words ?? []) {
    // As word.replace(/'s$/, '').replace(/^-+|-+$/g, ''): a word starts with a letter or digit.
    let end = word.length;
    if (end >= 2 && word.charCodeAt(end - 1) === 115 /* s */ && word.charCodeAt(end - 2) === 39 /* ' */) end -= 2;
    while (end > 0 && word.charCodeAt(end - 1) === 45 /* - */) end--;
    const cleaned = end === word.length ? word : word.slice(0, end);
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
