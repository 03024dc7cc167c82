import { describe, expect, it } from 'vitest';
import { compileIgnore, MAX_IGNORE_PATTERN_CHARS, MAX_IGNORE_PATTERNS } from '../../src/ground/ignore-patterns.ts';

/** The mask of patterns that must compile. */
function maskOf(patterns: readonly string[]): (sentence: string) => string {
  const compiled = compileIgnore(patterns);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.mask;
}

/** The refusal of patterns that must not compile. */
function refusal(patterns: readonly string[]): { index: number; message: string } {
  const compiled = compileIgnore(patterns);
  if (compiled.ok) throw new Error(`compiled: ${JSON.stringify(patterns)}`);
  return compiled;
}

describe("a watch's ignore patterns", () => {
  it('mask what they match, case-insensitively and everywhere, so sentences differing only there compare equal', () => {
    const mask = maskOf(['order #\\d+', 'session [0-9a-f]{8,}']);
    expect(mask('Order #1234 shipped; ORDER #99 too (session deadbeef12).')).toBe('\u2022 shipped; \u2022 too (\u2022).');
    expect(mask('Order #1234 costs $49.')).toBe(mask('Order #5678 costs $49.'));
    expect(mask('Order #1234 costs $49.')).not.toBe(mask('Order #1234 costs $59.'));
  });

  it('apply with the unicode flag: property escapes and lookbehind work', () => {
    const mask = maskOf(['(?<=\\$)\\d+', '\\p{Lu}{3}-\\d{4}']);
    expect(mask('Ref ABC-2026 costs $49.')).toBe('Ref \u2022 costs $\u2022.');
  });

  it('with no patterns, leave every sentence as it is', () => {
    expect(maskOf([])('Order #1234.')).toBe('Order #1234.');
  });

  it('read only the first 2,000 characters of a sentence', () => {
    const mask = maskOf(['x+']);
    const sentence = `${'a'.repeat(1_990)}xxxxx${'a'.repeat(20)}xxxxx`;
    expect(mask(sentence)).toBe(`${'a'.repeat(1_990)}\u2022${'a'.repeat(20)}xxxxx`);
  });

  it(`refuse more than ${MAX_IGNORE_PATTERNS} patterns, at the first one over`, () => {
    const patterns = Array.from({ length: MAX_IGNORE_PATTERNS + 1 }, (_, n) => `item ${n}`);
    expect(compileIgnore(patterns.slice(0, MAX_IGNORE_PATTERNS)).ok).toBe(true);
    const refused = refusal(patterns);
    expect(refused.index).toBe(MAX_IGNORE_PATTERNS);
    expect(refused.message).toContain(`at most ${MAX_IGNORE_PATTERNS}`);
  });

  it('refuse an empty pattern, naming it by its place', () => {
    expect(refusal(['ok', ''])).toMatchObject({ index: 1, message: expect.stringMatching(/^Ignore pattern 2 `` is empty/) });
  });

  it(`refuse a pattern over ${MAX_IGNORE_PATTERN_CHARS} characters`, () => {
    expect(compileIgnore(['a'.repeat(MAX_IGNORE_PATTERN_CHARS)]).ok).toBe(true);
    const refused = refusal(['a'.repeat(MAX_IGNORE_PATTERN_CHARS + 1)]);
    expect(refused.index).toBe(0);
    expect(refused.message).toContain(`over the limit of ${MAX_IGNORE_PATTERN_CHARS}`);
  });

  it('refuse a pattern that does not compile, with the reason', () => {
    expect(refusal(['(unclosed']).message).toMatch(/not a valid JavaScript regular expression \(.*Unterminated group/);
    // Allowed without the unicode flag, an error with it: the message says so.
    expect(refusal(['a\\-b']).message).toContain('unicode flag');
  });

  it('refuse a pattern written with slashes, giving what to write instead', () => {
    expect(refusal(['/order #\\d+/i']).message).toContain('give only what is between them (`order #\\d+`)');
  });

  it('refuse nested quantifiers (exponential backtracking), saying how to rewrite them', () => {
    for (const pattern of ['(a+)+$', '(.*a){12}', '(\\w+\\s?)+$']) {
      const { message } = refusal([pattern]);
      expect(message).toContain('exponential time');
      expect(message).toContain('without a quantifier inside a quantified group');
    }
  });

  it('refuse more than 25 quantifiers', () => {
    expect(refusal(['a?'.repeat(13) + 'b'.repeat(1) + 'c?'.repeat(13)]).message).toContain('more than 25 quantifiers');
  });

  it('refuse two repeats that can take the same characters one after the other (polynomial backtracking)', () => {
    for (const [pattern, first, second] of [
      ['.*\\d+.*', '.*', '\\d+'],
      ['\\w+\\s*\\w+', '\\w+', '\\w+'],
      ['.*\\s.*x', '.*', '.*'],
      ['(\\d+)\\1', '(\\d+)', '\\1'],
    ] as const) {
      const { message } = refusal([pattern]);
      expect(message).toContain('polynomial time');
      expect(message).toContain(`\`${first}\` and then \`${second}\``);
    }
    // A character the first repeat cannot take pins where it ends.
    expect(compileIgnore(['\\d+-\\d+', '[a-z]+\\d+', 'updated .*', '.*ago']).ok).toBe(true);
  });

  it('refuse a repeated group whose alternatives can start alike (exponential without nested quantifiers)', () => {
    expect(refusal(['(a|ab)*c']).message).toContain('the repeated group `(a|ab)*` has alternatives that can start with the same character');
    expect(compileIgnore(['(?:\\w|\\s)+x', '(am|pm)']).ok).toBe(true);
  });

  it('refuse a pattern that can match the empty string', () => {
    for (const pattern of ['\\d*', 'x?', '\\b', '(?=x)', 'a|']) {
      expect(refusal([pattern]).message).toContain('can match the empty string');
    }
  });

  it('give the index of the first refused pattern', () => {
    expect(refusal(['fine', 'also fine', '(a+)+', '']).index).toBe(2);
  });
});
