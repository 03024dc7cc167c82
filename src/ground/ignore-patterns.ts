import { safeRegex } from 'safe-regex2';
import { messageOf } from './errors.ts';

/**
 * A watch's own `ignore` patterns: regular expressions for what changes on its pages without
 * meaning anything (an order number, a stock level), masked before two readings of a sentence are
 * compared. Patterns come from users and run on every sentence of every page a watch reads, so a
 * pattern is refused, with a message saying how to fix it, unless it is valid, short, and cannot
 * backtrack badly; the mask also reads at most the first MAX_MASKED_CHARS of a sentence.
 *
 * Three checks bound a pattern's time. safe-regex2 refuses nested quantifiers (`(a+)+`, `(.*a){12}`:
 * exponential). It misses two shapes this file refuses itself, found by parsing the pattern:
 * - a repeat followed by another repeat that can take the same characters, with nothing between
 *   them that the first cannot take (`.*\d+.*`, `\w+\s*\w+`): the engine tries every split between
 *   them at every start, polynomial time (`.*.*x` took 4 s on 2,000 characters in V8);
 * - a repeated group whose alternatives can begin with the same character (`(a|ab)*`): exponential,
 *   with no nested quantifier (`(a|a)*b` took 5 s on 25 characters).
 * Both are judged on a sample of characters (ASCII letters, digits, spaces and punctuation, a few
 * letters and digits of other scripts, and every character the pattern names), so two character
 * classes that overlap only on characters outside it pass as disjoint.
 */

export const MAX_IGNORE_PATTERNS = 20;
export const MAX_IGNORE_PATTERN_CHARS = 200;
/** Characters of a sentence an ignore mask reads; the rest is compared as it is. */
const MAX_MASKED_CHARS = 2_000;
/** What a masked stretch becomes. */
const PLACEHOLDER = '\u2022';

/** Masks what the patterns match in a sentence (replaced by a placeholder such as "\u2022"), so two sentences that differ only there compare equal. */
export type IgnoreMask = (sentence: string) => string;

export type CompiledIgnore = { ok: true; mask: IgnoreMask } | { ok: false; index: number; message: string };

/**
 * Compiles a watch's ignore patterns: each a JavaScript regular expression source (no slashes, no
 * flags), applied case-insensitively, with the unicode flag, everywhere it matches. The first
 * pattern refused gives its index and why, e.g. `compileIgnore(['Order #\\d+'])` masks
 * "Order #1234" to "\u2022".
 */
export function compileIgnore(patterns: readonly string[]): CompiledIgnore {
  if (patterns.length > MAX_IGNORE_PATTERNS) {
    return {
      ok: false,
      index: MAX_IGNORE_PATTERNS,
      message: `A watch takes at most ${MAX_IGNORE_PATTERNS} ignore patterns (this one has ${patterns.length}); merge related ones or remove some.`,
    };
  }
  const expressions: RegExp[] = [];
  for (const [index, pattern] of patterns.entries()) {
    const compiled = compilePattern(pattern);
    if (typeof compiled === 'string') return { ok: false, index, message: `Ignore pattern ${index + 1} ${shown(pattern)} ${compiled}` };
    expressions.push(compiled);
  }
  return { ok: true, mask: (sentence) => maskWith(expressions, sentence) };
}

function maskWith(expressions: readonly RegExp[], sentence: string): string {
  let head = sentence.length > MAX_MASKED_CHARS ? sentence.slice(0, MAX_MASKED_CHARS) : sentence;
  const tail = sentence.slice(head.length);
  // An empty match (refused, but a pattern may still find one where no probe looked) masks nothing.
  for (const expression of expressions) head = head.replace(expression, (match) => (match === '' ? '' : PLACEHOLDER));
  return head + tail;
}

/** The expression, or why the pattern is refused (the end of a sentence that names the pattern). */
function compilePattern(pattern: string): RegExp | string {
  if (pattern.length === 0) return 'is empty: write what to mask, e.g. `Order #\\d+`.';
  if (pattern.length > MAX_IGNORE_PATTERN_CHARS) {
    return `is ${pattern.length} characters long, over the limit of ${MAX_IGNORE_PATTERN_CHARS}: shorten it, e.g. with a character class instead of a list of alternatives.`;
  }
  const literal = /^\/(.+)\/[dgimsuvy]+$/s.exec(pattern);
  if (literal) return `is written with slashes: give only what is between them (${shown(literal[1] ?? '')}); patterns always apply case-insensitively, with no flags.`;
  let expression: RegExp;
  try {
    expression = new RegExp(pattern, 'giu');
  } catch (error) {
    return `is not a valid JavaScript regular expression (${messageOf(error)}). With the unicode flag, a backslash before a character with no special meaning (such as \`\\-\` outside brackets) is an error too.`;
  }
  return backtrackingRisk(pattern) ?? emptyMatchRisk(expression, pattern) ?? expression;
}

function backtrackingRisk(pattern: string): string | undefined {
  // safe-regex2's parser knows no lookbehind and no flag modifiers ("(?i:"): each is judged as a
  // plain group, which repeats the same way.
  const judged = pattern.replace(/\\.|\(\?<[=!]|\(\?[ims]*-?[ims]*:/gs, (token) => (token.startsWith('\\') ? token : '(?:'));
  if (!safeRegex(judged, { limit: Number.POSITIVE_INFINITY })) {
    return 'can take exponential time: a quantifier (*, +, ?, {n}) inside a quantified group backtracks catastrophically on some text. Write it without a quantifier inside a quantified group, e.g. `(a+)+` as `a+`, `(\\d+,)*\\d+` as `[\\d,]+`.';
  }
  if (!safeRegex(judged)) return 'has more than 25 quantifiers, which can backtrack badly: simplify it, e.g. with character classes.';
  const nodes = parsePattern(pattern);
  const charsOf = charsIn(sampleAlphabet(pattern));
  const adjacent = adjacentRepeats(nodes, charsOf);
  if (adjacent) {
    return `can take polynomial time: ${shown(adjacent[0])} and then ${shown(adjacent[1])} can match the same characters, so the engine tries every way to split text between them. Separate them with a character the first cannot match, or merge them into one repeat (\`.*\` for \`.*.*\`, \`\\d+\` for \`\\d+\\d*\`).`;
  }
  const group = overlappingAlternatives(nodes, charsOf);
  if (group) {
    return `can take exponential time: the repeated group ${shown(group)} has alternatives that can start with the same character. Make each alternative start differently, or use a character class (\`[ab]+\` for \`(a|b)+\`).`;
  }
  return undefined;
}

/** Texts that make a pattern that can match nothing show it (with the pattern's own characters, for lookaheads). */
const EMPTY_PROBES = ['', 'a', 'Aa 0_.-,:/\u20ac \u00e9\n'];

function emptyMatchRisk(expression: RegExp, pattern: string): string | undefined {
  for (const probe of [...EMPTY_PROBES, pattern]) {
    for (const match of probe.matchAll(expression)) {
      if (match[0] === '') {
        return 'can match the empty string, so it would mask nothing there: make at least one character required (`\\d+` rather than `\\d*`, `x` rather than `x?`; a lookahead or `\\b` alone matches nothing).';
      }
    }
  }
  return undefined;
}

/** A pattern (or part of one) as a message quotes it: as typed, in backticks, cut at 60 characters. */
function shown(pattern: string): string {
  return `\`${pattern.length > 60 ? `${pattern.slice(0, 59)}\u2026` : pattern}\``;
}

// --- A small parser of regular expression sources (already valid with the unicode flag) --------

/** Repeats above this count are as good as unbounded for backtracking. */
const BIG_REPEAT = 32;

interface CharsNode {
  kind: 'chars';
  /** A source matching one character (a literal, an escape, a class, "."), or undefined for a backreference (any text). */
  source: string | undefined;
  text: string;
  min: number;
  max: number;
}
interface GroupNode {
  kind: 'group';
  alternatives: Node[][];
  text: string;
  min: number;
  max: number;
}
/** Anchors, \b, lookarounds: they consume nothing. */
interface ZeroNode {
  kind: 'zero';
}
type Node = CharsNode | GroupNode | ZeroNode;

function parsePattern(pattern: string): Node[][] {
  let at = 0;

  function alternatives(): Node[][] {
    const result: Node[][] = [[]];
    while (at < pattern.length && pattern[at] !== ')') {
      if (pattern[at] === '|') {
        at++;
        result.push([]);
        continue;
      }
      const start = at;
      const node = atom();
      if (node.kind !== 'zero') {
        const [min, max] = quantifier();
        // A backreference stays what it is: any text, of any length.
        if (node.kind === 'group' || node.source !== undefined) {
          node.min = min;
          node.max = max;
        }
        node.text = pattern.slice(start, at);
      }
      result.at(-1)?.push(node);
    }
    return result;
  }

  function atom(): Node {
    const char = pattern[at] ?? '';
    if (char === '(') return group();
    if (char === '[') return chars(classEnd(pattern, at));
    if (char === '^' || char === '$') {
      at++;
      return { kind: 'zero' };
    }
    if (char === '\\') return escape();
    // One code point: a surrogate pair is one character with the unicode flag.
    const code = pattern.codePointAt(at) ?? 0;
    return chars(at + (code > 0xffff ? 2 : 1));
  }

  function chars(end: number): CharsNode {
    const source = pattern.slice(at, end);
    at = end;
    return { kind: 'chars', source, text: source, min: 1, max: 1 };
  }

  function group(): Node {
    at++;
    let lookaround = false;
    if (pattern[at] === '?') {
      const head = /^\?(?:<[=!]|[=!])/.exec(pattern.slice(at, at + 3));
      if (head) {
        lookaround = true;
        at += head[0].length;
      } else if (pattern[at + 1] === '<') {
        at = pattern.indexOf('>', at) + 1;
      } else {
        at = pattern.indexOf(':', at) + 1;
      }
    }
    const inner = alternatives();
    at++;
    return lookaround ? { kind: 'zero' } : { kind: 'group', alternatives: inner, text: '', min: 1, max: 1 };
  }

  function escape(): Node {
    const next = pattern[at + 1] ?? '';
    if (next === 'b' || next === 'B') {
      at += 2;
      return { kind: 'zero' };
    }
    if (/[1-9]/.test(next) || next === 'k') {
      at = next === 'k' ? pattern.indexOf('>', at) + 1 : at + 1 + (/^\d+/.exec(pattern.slice(at + 1))?.[0].length ?? 1);
      return { kind: 'chars', source: undefined, text: '', min: 0, max: Number.POSITIVE_INFINITY };
    }
    if ((next === 'p' || next === 'P' || next === 'u') && pattern[at + 2] === '{') return chars(pattern.indexOf('}', at) + 1);
    const length = next === 'u' ? 6 : next === 'x' ? 4 : next === 'c' ? 3 : 2;
    return chars(at + length);
  }

  function quantifier(): [number, number] {
    const found = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(pattern.slice(at, at + 24));
    if (!found) return [1, 1];
    at += found[0].length;
    if (found[1] === '*') return [0, Number.POSITIVE_INFINITY];
    if (found[1] === '+') return [1, Number.POSITIVE_INFINITY];
    if (found[1] === '?') return [0, 1];
    const min = Number(found[2]);
    if (found[3] === undefined) return [min, min];
    return [min, found[4] ? Number(found[4]) : Number.POSITIVE_INFINITY];
  }

  return alternatives();
}

/** Where the character class starting at `start` ends (after its "]"). */
function classEnd(pattern: string, start: number): number {
  let at = start + 1;
  if (pattern[at] === '^') at++;
  while (at < pattern.length && pattern[at] !== ']') at += pattern[at] === '\\' ? 2 : 1;
  return at + 1;
}

// --- What the parsed pattern can do, judged on a sample of characters ---------------------------

const BASE_SAMPLE = 'aAbzZ\u00e9\u00df\u0436\u4e2d\u3042\u0663059 \t\n\u00a0\u2003-_.,:;/\\@#$%&*+=?!()[]{}<>"\'`~^|\u20ac\u00a3\u00a9\u2022\u2013\u2014\u201c\u201d\u{1f600}';

/** The sample: the base characters and every character of the pattern, in both cases. */
function sampleAlphabet(pattern: string): string[] {
  const characters = new Set<string>();
  for (const character of BASE_SAMPLE + pattern) {
    characters.add(character);
    characters.add(character.toLowerCase());
    characters.add(character.toUpperCase());
  }
  return [...characters].filter((character) => [...character].length === 1);
}

/** The characters of the sample a node can consume, as a bit set. */
type CharsOf = (node: Node) => bigint;

function charsIn(sample: readonly string[]): CharsOf {
  const known = new Map<Node, bigint>();
  const charsOf = (node: Node): bigint => {
    let set = known.get(node);
    if (set === undefined) {
      set = computeChars(node, sample, charsOf);
      known.set(node, set);
    }
    return set;
  };
  return charsOf;
}

function computeChars(node: Node, sample: readonly string[], charsOf: CharsOf): bigint {
  if (node.kind === 'zero') return 0n;
  let set = 0n;
  if (node.kind === 'group') {
    for (const sequence of node.alternatives) for (const inner of sequence) set |= charsOf(inner);
    return set;
  }
  if (node.source === undefined) return (1n << BigInt(sample.length)) - 1n;
  const one = new RegExp(`^(?:${node.source})$`, 'iu');
  sample.forEach((character, index) => {
    if (one.test(character)) set |= 1n << BigInt(index);
  });
  return set;
}

function nullable(node: Node): boolean {
  if (node.kind === 'zero' || node.min === 0) return true;
  return node.kind === 'group' && node.alternatives.some((sequence) => sequence.every(nullable));
}

/** Can take a long run of characters: a big repeat, or a group holding one. */
function repeats(node: Node): boolean {
  if (node.kind === 'zero') return false;
  if (node.max > BIG_REPEAT) return true;
  return node.kind === 'group' && node.alternatives.some((sequence) => sequence.some(repeats));
}

/** Two repeats that can take the same characters with nothing between them that pins where the first ends. */
function adjacentRepeats(alternatives: readonly Node[][], charsOf: CharsOf): [string, string] | undefined {
  for (const sequence of alternatives) {
    for (const [index, node] of sequence.entries()) {
      if (node.kind === 'group') {
        const inner = adjacentRepeats(node.alternatives, charsOf);
        if (inner) return inner;
      }
      if (node.kind === 'zero' || !repeats(node)) continue;
      const first = charsOf(node);
      for (const next of sequence.slice(index + 1)) {
        if (next.kind === 'zero') continue;
        const nextChars = charsOf(next);
        if (repeats(next) && (first & nextChars) !== 0n) return [node.text, next.text];
        // A required character the first repeat cannot take: the first repeat must end just before it.
        if (!nullable(next) && (first & nextChars) === 0n) break;
      }
    }
  }
  return undefined;
}

/** A repeated group whose alternatives can start with the same character. */
function overlappingAlternatives(alternatives: readonly Node[][], charsOf: CharsOf): string | undefined {
  for (const sequence of alternatives) {
    for (const node of sequence) {
      if (node.kind !== 'group') continue;
      if (node.max > 1 && node.alternatives.length > 1) {
        const starts = node.alternatives.map((inner) => startChars(inner, charsOf));
        const clash = starts.some((start, index) => starts.slice(index + 1).some((other) => (start & other) !== 0n));
        if (clash) return node.text;
      }
      const inner = overlappingAlternatives(node.alternatives, charsOf);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** The characters a sequence can start with: those of its nodes up to its first required one. */
function startChars(sequence: readonly Node[], charsOf: CharsOf): bigint {
  let set = 0n;
  for (const node of sequence) {
    set |= charsOf(node);
    if (!nullable(node)) break;
  }
  return set;
}
