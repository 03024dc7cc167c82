/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980, with the published
 * revisions `bli` -> `ble` and `logi` -> `log`), so that "price", "prices" and "pricing" meet, and
 * "charges" meets "charged". Pure and deterministic; words that are not plain lower-case ASCII
 * letters (figures, accented words) are returned unchanged. Results are kept in a bounded cache, so
 * a word seen before costs a map lookup.
 */
import { BoundedMap } from '../ground/bounded-map.ts';

function isConsonant(word: string, i: number): boolean {
  const c = word.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  // y: a consonant at the start or after a vowel (toy), a vowel after a consonant (syzygy)
  if (c === 121) return i === 0 || !isConsonant(word, i - 1);
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

type Rule = readonly [suffix: string, replacement: string];

/**
 * Rules by the last letter of their suffix, in their order: a word can only end with a suffix
 * that ends in its own last letter, so a step tries those alone and never the other ones.
 */
function byLastLetter<T>(rules: readonly T[], suffix: (rule: T) => string): ReadonlyMap<string, readonly T[]> {
  const groups = new Map<string, T[]>();
  for (const rule of rules) {
    const last = suffix(rule).at(-1)!;
    const group = groups.get(last);
    if (group) group.push(rule);
    else groups.set(last, [rule]);
  }
  return groups;
}

/** The first rule whose suffix ends `word` is the only one tried (longest suffixes are listed first). */
function replaceSuffix(word: string, rules: ReadonlyMap<string, readonly Rule[]>, minMeasure: number): string {
  for (const [suffix, replacement] of rules.get(word.at(-1)!) ?? []) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return measure(stem) > minMeasure ? stem + replacement : word;
  }
  return word;
}

const STEP2 = byLastLetter(
  (
    [
      ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'],
      ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'],
      ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'],
      ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
    ] as Rule[]
  ).sort((a, b) => b[0].length - a[0].length),
  (rule) => rule[0],
);

const STEP3 = byLastLetter(
  ([['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', '']] as Rule[]).sort((a, b) => b[0].length - a[0].length),
  (rule) => rule[0],
);

const STEP4 = byLastLetter(
  ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].sort((a, b) => b.length - a.length),
  (suffix) => suffix,
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
  for (const suffix of STEP4.get(word.at(-1)!) ?? []) {
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
