import { describe, expect, it } from 'vitest';
import { boundAnswer, itemsThatFit, MAX_RESULT_TOKENS, tokensOf } from '../../src/mcp/tools/text-bound.ts';

/** The bound on a tool result's text (src/mcp/tools/text-bound.ts), with a small limit. */
const LIMIT = 2_000;
const WHOLE = 'the resource recon://briefs/brf_1 (resources/read)';

const textTokens = (answer: { text: string; note?: string }) => tokensOf(answer.text) + tokensOf(answer.note ?? '');

describe('tokensOf', () => {
  it('counts 3 ASCII characters as a token and any other character as one', () => {
    expect(tokensOf('abcdef')).toBe(2);
    expect(tokensOf('漢字')).toBe(2);
    // One character outside the BMP (a surrogate pair) is one token, not two.
    expect(tokensOf('😀')).toBe(1);
    expect(tokensOf('ab') + tokensOf('c漢')).toBe(tokensOf('abc漢'));
  });
});

describe('boundAnswer', () => {
  it('leaves an answer that fits as it is', () => {
    const answer = { text: 'short', structured: { a: 1 } };
    expect(boundAnswer(answer, WHOLE, LIMIT)).toBe(answer);
    expect(MAX_RESULT_TOKENS).toBe(25_000);
  });

  it('keeps the first whole lines of a long markdown answer, with a note naming the whole', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `${i + 1}. Finding number ${i + 1}, quoted whole from its source. [${i + 1}]`);
    const text = ['# Research brief', '', ...lines, ''].join('\n');
    const structured = { claims: lines.map((line) => ({ text: line })) };
    const bounded = boundAnswer({ text, structured }, WHOLE, LIMIT);
    expect(textTokens(bounded)).toBeLessThanOrEqual(LIMIT);
    // A prefix of the text, ending at a line boundary: no line is cut.
    expect(text.startsWith(`${bounded.text}\n`)).toBe(true);
    const kept = bounded.text.split('\n');
    expect(kept.length).toBeGreaterThan(10);
    expect(lines).toContain(kept.at(-1));
    expect(bounded.note).toContain(`its first ${kept.length} of 403 lines`);
    expect(bounded.note).toContain(WHOLE);
    expect(bounded.structured).toBe(structured);
  });

  it('never shows part of a line: a first line over the limit leaves the text empty and says so', () => {
    const bounded = boundAnswer({ text: `${'word '.repeat(20_000)}\nsecond` }, WHOLE, LIMIT);
    expect(bounded.text).toBe('');
    expect(bounded.note).toContain('its first 0 of 2 lines');
  });

  it('shortens the longest strings of a JSON answer, marked, and keeps every other field and text = JSON', () => {
    const content = 'Acme Analytics pricing starts at $19 per seat. '.repeat(2_000);
    const object = { type: 'source', key: 'https://acme.com/pricing', properties: { title: 'Pricing', content, summary: 'x'.repeat(300) }, version: 3 };
    const bounded = boundAnswer({ text: JSON.stringify(object), structured: object }, 'POST /api/v1/oms/objects/get with the same arguments', LIMIT);
    expect(textTokens(bounded)).toBeLessThanOrEqual(LIMIT);
    expect(bounded.text).toBe(JSON.stringify(bounded.structured));
    const shown = bounded.structured as typeof object;
    expect({ ...shown, properties: { ...shown.properties, content: '' } }).toEqual({ ...object, properties: { ...object.properties, content: '' } });
    const [kept, cut] = shown.properties.content.split('… [cut: ');
    expect(content.startsWith(kept!)).toBe(true);
    expect(cut).toBe(`${(content.length - kept!.length).toLocaleString('en-US')} more characters]`);
    expect(bounded.note).toContain('properties.content (94,000 characters)');
    expect(bounded.note).toContain('POST /api/v1/oms/objects/get');
  });
  it('shortens the string it priced, whatever the keys look like (a key with a dot is not a path)', () => {
    const long = 'Globex pricing changed again this quarter. '.repeat(500);
    const object = { 'a.b': long, a: { b: 'A short string of some sixty characters, kept as it is.' } };
    const bounded = boundAnswer({ text: JSON.stringify(object), structured: object }, 'REST', LIMIT);
    const shown = bounded.structured as typeof object;
    expect(shown.a.b).toBe(object.a.b);
    expect(shown['a.b']).toMatch(/… \[cut: [\d,]+ more characters\]$/);
    expect(textTokens(bounded)).toBeLessThanOrEqual(LIMIT);
  });
});

describe('boundAnswer, with more values than shortening can fit', () => {
  it('answers the shortened JSON one value a line, its first whole lines, and still within the limit', () => {
    const history = Array.from({ length: 300 }, (_, i) => ({ property: `p${i}`, from: `An earlier value number ${i} of this property.`, to: `A later value ${i}.` }));
    const structured = { history };
    const bounded = boundAnswer({ text: JSON.stringify(structured), structured }, 'REST', LIMIT);
    expect(textTokens(bounded)).toBeLessThanOrEqual(LIMIT);
    const pretty = JSON.stringify(bounded.structured, null, 1);
    expect(pretty.startsWith(`${bounded.text}\n`)).toBe(true);
    expect(bounded.text.split('\n').length).toBeGreaterThan(20);
    expect(bounded.note).toContain('whole lines only');
    expect(bounded.note).toContain('The text is its JSON one value a line.');
    // Strings just over the least length are not made longer by a marker: nothing here is shortened.
    expect(bounded.structured).toBe(structured);
    expect(bounded.note).not.toContain('shortened');
  });
});

describe('itemsThatFit', () => {
  it('counts the first items of a page that fit, at least one, and nothing for a page that fits', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, content: 'y'.repeat(1_500) }));
    const text = JSON.stringify({ objects: items, nextPageToken: null });
    const fit = itemsThatFit(text, items, LIMIT)!;
    expect(fit).toBeGreaterThanOrEqual(1);
    expect(fit).toBeLessThan(10);
    expect(tokensOf(JSON.stringify({ objects: items.slice(0, fit), nextPageToken: null }))).toBeLessThanOrEqual(LIMIT - 1_000);
    expect(tokensOf(JSON.stringify({ objects: items.slice(0, fit + 1), nextPageToken: null }))).toBeGreaterThan(LIMIT - 1_000);
    expect(itemsThatFit(JSON.stringify({ objects: items.slice(0, 1) }), items.slice(0, 1), LIMIT)).toBeUndefined();
    expect(itemsThatFit('{"objects":[]}', [], LIMIT)).toBeUndefined();
  });
});
