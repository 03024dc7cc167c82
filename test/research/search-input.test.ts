import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_TERMS, searchTerms, termText } from '../../src/research/fts-query.ts';
import { columnMatch } from '../../src/research/fts-query.ts';
import { anyOf, capTermCounts, findTopicPassages, scopeExpression, searchPassages } from '../../src/research/search.ts';

/** Passages with every one of `words` in their title or text: the AND form of anyOf, as a caller could build it. */
const allOf = (words: readonly string[]) => columnMatch('{title text}', words, 'AND');
import { call, createKey, createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';

/** Words a hostile client types: FTS5 operators and syntax, quotes, controls, and unicode of every kind. */
const FTS5_NOISE = [
  'AND', 'OR', 'NOT', 'NEAR', 'NEAR(a b, 2)', '*', 'pric*', '^', '^acme', ':', 'title:', 'organization_id : x', '(', ')', '()',
  '{', '}', '{title text}:', '-', '--', '-acme', '"', '""', '"a" "b"', "'", "don't", '\\', '\u0000', '\n', '\t', '+', '@', '!!!',
  'ab', 'x', 'é', 'café', 'ﬁnance', 'İstanbul', '中文', '日本語の価格', 'Ωmega', '𞤀𞤁', '🙂', '🙂🙂🙂', '\u200b', '\u202e', 'a\u0301',
  '½', '²³', 'acme.com', 'https://acme.com/pricing', 'pricing', 'Acme',
];
const word = fc.oneof(
  fc.constantFrom(...FTS5_NOISE),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const hostileText = fc.array(word, { maxLength: 30 }).map((words) => words.join(' '));
/** 101 to 124 distinct searchable words in at most 500 characters (D1 allows 100 bound parameters). */
const manyWords = fc
  .uniqueArray(fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 2, maxLength: 2 }), { minLength: 101, maxLength: 124 })
  .map((pairs) => pairs.map((pair) => `q${pair}`).join(' '));
const topic = fc.oneof(hostileText, manyWords, manyWords.map((text) => `Acme Analytics pricing ${text}`.slice(0, 500)));

let org: TestOrganization;

beforeAll(async () => {
  org = await createOrganization();
  await importMarket(org.key);
});

/** A fresh key each call, so the property runs never meet the command rate limit. */
async function command(name: string, body: unknown): Promise<Response> {
  const { key } = await createKey(org.id);
  return call(`/api/v1/commands/${name}`, { key, body });
}

/** A command either answers (200 markdown) or rejects with the documented 400; never a 5xx. */
async function expectHandled(response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBeLessThan(500);
  if (response.status === 400) expect(JSON.parse(text)).toMatchObject({ error: 'invalid_input', requestId: expect.any(String) });
  else expect(response.status, text).toBe(200);
}

describe('FTS5 queries from hostile input', () => {
  it('the builder quotes every term as a phrase, drops empties and keeps at most MAX_QUERY_TERMS', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 200 }), (words) => {
        const kept = searchTerms(words);
        expect(kept.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
        for (const term of kept) expect(term).toMatch(/^[\p{L}\p{N}\p{M}\p{Co}]+(?: [\p{L}\p{N}\p{M}\p{Co}]+)*$/u);
        for (const expression of [anyOf(words), allOf(words)]) {
          expect(expression).toMatch(/^\{title text\} : \((?:""|"[^"]+"(?: (?:OR|AND) "[^"]+")*)\)$/u);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the most informative (longest) terms of a long topic', () => {
    const filler = Array.from({ length: 120 }, (_, i) => `q${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    expect(searchTerms([...filler.slice(0, 60), 'analytics', ...filler.slice(60), 'pricing'])).toEqual(
      expect.arrayContaining(['analytics', 'pricing']),
    );
    expect(termText('Acme.com')).toBe('acme com');
    expect(termText('"); DROP --')).toBe('drop');
    expect(termText('!!! ^ * :')).toBe('');
  });

  it('runs every query built from any words against D1 without an error', async () => {
    const scope = scopeExpression(org.id);
    await fc.assert(
      fc.asyncProperty(fc.array(word, { maxLength: 150 }), async (words) => {
        expect((await capTermCounts(env.DB, scope, words)).length).toBe(words.length);
        await findTopicPassages(env.DB, { organizationId: org.id }, words, 5);
        await findTopicPassages(env.DB, { organizationId: org.id, policy: { include: words.slice(0, 25), exclude: words.slice(25, 50) } }, words, 5);
        await findTopicPassages(env.DB, { organizationId: org.id, policy: { include: [], exclude: words.slice(0, 25) } }, words, 5);
        await searchPassages(env.DB, `${scope} AND ${anyOf(words)} AND ${allOf(words)}`, 5);
        await searchPassages(env.DB, scopeExpression(org.id, { include: words.slice(0, 25), exclude: words.slice(25, 50) }), 5);
      }),
      { numRuns: 40 },
    );
  });

  it('counts more than 100 distinct words without passing D1 bound-parameter limit', async () => {
    const words = Array.from({ length: 150 }, (_, i) => `w${i}`);
    const counts = await capTermCounts(env.DB, scopeExpression(org.id), [...words, 'pricing']);
    expect(counts).toHaveLength(151);
    expect(counts.at(-1)).toBeGreaterThan(0);
  });
});

describe('commands with hostile search input', () => {
  it('research answers a topic of more than 100 distinct words, searching its informative words', async () => {
    const filler = Array.from({ length: 110 }, (_, i) => `q${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    const response = await command('research', { topic: `Acme Analytics pricing ${filler.join(' ')}` });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('## Key findings');
  });

  it('research says so when a topic has no searchable word', async () => {
    const response = await command('research', { topic: '!!! ^ * : the of a' });
    expect(response.status).toBe(200);
    const markdown = await response.text();
    expect(markdown).toContain('has no words Recon can search for');
    expect(markdown).not.toContain('## Key findings');
  });

  it('competitors answers a company name with no searchable term', async () => {
    for (const company of ['ab', '!!!', '()', '"', '🙂']) {
      const response = await command('competitors', { company });
      expect(response.status, company).toBe(200);
      expect(await response.text()).toContain('No competitors of');
    }
  });

  it('research never answers 5xx, whatever the topic', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(topic, async (text) => expectHandled(await command('research', { topic: text }))),
      { numRuns: 30 },
    );
  });

  it('competitors never answers 5xx, whatever the company', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (company) => expectHandled(await command('competitors', { company }))),
      { numRuns: 30 },
    );
  });

  it('research never answers 5xx, whatever the source policy', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(word, { maxLength: 4 }), fc.array(word, { maxLength: 4 }), async (include, exclude) =>
        expectHandled(await command('research', { topic: 'Acme pricing', sourcePolicy: { include, exclude } })),
      ),
      { numRuns: 20 },
    );
  });
});
