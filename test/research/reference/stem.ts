// A frozen copy of src/research/stem.ts as it was before its speed-up (only import paths changed): the
// reference that test/research/sentence-facts-speed.test.ts and scripts/bench/sentence-facts.ts compare against.
/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980, with the published
 * revisions `bli` -> `ble` and `logi` -> `log`), so that "price", "prices" and "pricing" meet, and
 * "charges" meets "charged". Pure and deterministic; words that are not plain lower-case ASCII
 * letters (figures, accented words) are returned unchanged. Results are kept in a bounded cache, so
 * a word seen before costs a map lookup.
 */
import { BoundedMap } from '../../../src/ground/bounded-map.ts';

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

function isConsonant(word: string, i: number): boolean {
  const c = word[i]!;
  if (VOWELS.has(c)) return false;
  if (c === 'y') return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** m in [C](VC)^m[V]: how many vowel-consonant sequences `stem` has. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsWithDoubleConsonant(stem: string): boolean {
  const n = stem.length;
  return n >= 2 && stem[n - 1] === stem[n - 2] && isConsonant(stem, n - 1);
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y (hop, not hoop or snow). */
function endsCvc(stem: string): boolean {
  const n = stem.length;
  if (n < 3) return false;
  const last = stem[n - 1]!;
  return isConsonant(stem, n - 3) && !isConsonant(stem, n - 2) && isConsonant(stem, n - 1) && !'wxy'.includes(last);
}

/** The first rule whose suffix ends `word` is the only one tried (longest suffixes are listed first). */
function replaceSuffix(word: string, rules: readonly (readonly [string, string])[], minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return measure(stem) > minMeasure ? stem + replacement : word;
  }
  return word;
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'],
  ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'],
  ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'],
  ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
].sort((a, b) => b[0]!.length - a[0]!.length) as [string, string][];

const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
].sort((a, b) => b[0]!.length - a[0]!.length) as [string, string][];

const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].sort(
  (a, b) => b.length - a.length,
);

function step1ab(word: string): string {
  if (word.endsWith('sses')) word = word.slice(0, -2);
  else if (word.endsWith('ies')) word = word.slice(0, -2);
  else if (!word.endsWith('ss') && word.endsWith('s')) word = word.slice(0, -1);

  if (word.endsWith('eed')) {
    if (measure(word.slice(0, -3)) > 0) word = word.slice(0, -1);
    return word;
  }
  let stripped: string | undefined;
  if (word.endsWith('ed') && hasVowel(word.slice(0, -2))) stripped = word.slice(0, -2);
  else if (word.endsWith('ing') && hasVowel(word.slice(0, -3))) stripped = word.slice(0, -3);
  if (stripped === undefined) return word;
  if (stripped.endsWith('at') || stripped.endsWith('bl') || stripped.endsWith('iz')) return `${stripped}e`;
  if (endsWithDoubleConsonant(stripped) && !'lsz'.includes(stripped.at(-1)!)) return stripped.slice(0, -1);
  if (measure(stripped) === 1 && endsCvc(stripped)) return `${stripped}e`;
  return stripped;
}

function porter(word: string): string {
  if (word.length <= 2) return word;
  word = step1ab(word);
  if (word.endsWith('y') && hasVowel(word.slice(0, -1))) word = `${word.slice(0, -1)}i`;
  word = replaceSuffix(word, STEP2, 0);
  word = replaceSuffix(word, STEP3, 0);
  for (const suffix of STEP4) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    const ok = measure(stem) > 1 && (suffix !== 'ion' || /[st]$/.test(stem));
    if (ok) word = stem;
    break;
  }
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) word = stem;
  }
  if (word.endsWith('ll') && measure(word) > 1) word = word.slice(0, -1);
  return word;
}

/** How many distinct words the cache keeps; past it, the oldest go first (a bounded memory). */
const CACHE_LIMIT = 50_000;
const cache = new BoundedMap<string, string>({ max: CACHE_LIMIT });

/** The Porter stem of a lower-case word; anything but plain a-z letters is returned as it is. */
export function stem(word: string): string {
  const cached = cache.get(word);
  if (cached !== undefined) return cached;
  const result = /^[a-z]+$/.test(word) ? porter(word) : word;
  cache.set(word, result);
  return result;
}
