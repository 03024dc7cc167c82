import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CoreContext } from '../../src/ground/context.ts';
import { importObjects } from '../../src/oms/import.ts';
import { research } from '../../src/operations/commands/research.ts';
import { chooseSentences, type RankedPassage } from '../../src/research/select.ts';
import { selectSentences } from '../helpers/select-text.ts';
import { analyzePassage, decodeFacts, encodeFacts, FACTS_VERSION, sentenceKey } from '../../src/research/sentence-facts.ts';
import { splitPassages } from '../../src/research/text.ts';
import { createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';
import { briefClaims, briefSources } from './brief-claims.ts';
import { requestDbOver } from '../helpers/request-db.ts';

interface Line {
  type?: string;
  key?: string;
  properties?: { title?: string; content?: string };
}

const sources = env.TEST_KNOWLEDGE_BASE.split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Line)
  .filter((l) => l.type === 'source');
const contentByUrl = new Map(sources.map((s) => [s.key!, s.properties!.content!]));
/** Every passage of the demo market, as the import cuts them. */
const PASSAGES: RankedPassage[] = sources.flatMap((s) =>
  splitPassages(s.properties!.content!).map((text) => ({ sourceKey: s.key!, title: s.properties!.title!, text, score: 0, domain: new URL(s.key!).hostname, publishedAt: null })),
);

/**
 * The facts of the whole demo market under FACTS_VERSION, as one hash. When a change to the
 * splitter, terms, the stemmer, the answer-type patterns, figures or informativeness changes it,
 * stored facts no longer match what research would compute: raise FACTS_VERSION (so stored rows of
 * the old version are recomputed from their text on read) and pin the new hash here.
 */
const FINGERPRINTS: Record<number, string> = { 1: '1yjjy9yxsrf', 2: '13p9iszzsjq', 3: 'lu5cgqdl1k', 4: '182n4fiyoep', 5: '11x60vxmn7s', 6: '1yd5v4aqqb7', 7: '22fb9xnw7fq' };

const TOPICS = ['Acme Analytics pricing', 'Globex weaknesses', 'Keelstone headcount', 'how long is the Lumetric trial', 'Beaconly Series B funding', 'Funnelwise integrations'];

let org: Awaited<ReturnType<typeof createOrganization>>;
let ctx: CoreContext;

beforeAll(async () => {
  org = await createOrganization({ profile: { ...FINISHED_PROFILE, competitors: ['globex.com'] } });
  ctx = {
    env,
    db: requestDbOver(),
    requestId: 'sentence-facts',
    principal: { organization: { id: org.id, slug: org.slug, name: org.slug }, keyId: org.keyId, scopes: ['commands', 'oms:write'] },
  };
  expect((await importObjects(ctx, env.TEST_KNOWLEDGE_BASE)).failed).toBe(0);
});

async function briefs(): Promise<string[]> {
  const out: string[] = [];
  for (const topic of TOPICS) for (const tier of ['lite', 'base'] as const) out.push((await research(ctx, { topic, tier }, { ...FINISHED_PROFILE, competitors: ['globex.com'] })).markdown);
  return out;
}

describe('sentence facts', () => {
  it('are stored by the import with every passage, equal to the facts computed from its text', async () => {
    const { results } = await env.DB.prepare('SELECT text, facts, facts_version AS version FROM passages WHERE organization_id = ?')
      .bind(org.id)
      .all<{ text: string; facts: string | null; version: number | null }>();
    expect(results.length).toBe(PASSAGES.length);
    for (const row of results) {
      expect(row.version).toBe(FACTS_VERSION);
      const computed = analyzePassage(row.text);
      expect(row.facts).toBe(encodeFacts(computed));
      expect(decodeFacts(row.facts!)).toEqual(computed);
      for (const f of computed) expect(f.key).toBe(sentenceKey(row.text.slice(f.start, f.end)));
    }
  });

  it('of the demo market are pinned for FACTS_VERSION (raise it when what they compute changes)', () => {
    const all = PASSAGES.map((p) => encodeFacts(analyzePassage(p.text))).join('\n');
    expect(FINGERPRINTS[FACTS_VERSION], 'FACTS_VERSION has no pinned fingerprint').toBeDefined();
    expect(sentenceKey(all)).toBe(FINGERPRINTS[FACTS_VERSION]);
  });

  it('read back as they were written, whatever the text', () => {
    const text = fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom('Acme costs $45 per seat.', ' It | rose; 40 %. ', 'In 2026, "A" grew.', '\n\n', ' ')), { maxLength: 40 });
    fc.assert(
      fc.property(text, (parts) => {
        const facts = analyzePassage(parts.join(''));
        expect(decodeFacts(encodeFacts(facts))).toEqual(facts);
      }),
      { numRuns: 300 },
    );
  });

  it('make the same choice as selection over the texts, in the same order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: PASSAGES.length - 1 }), { minLength: 1, maxLength: 60 }),
        fc.constantFrom(...TOPICS, 'pricing', 'Acme Analytics startup discount', 'compare Quillmetrics and Keelstone entry prices'),
        fc.constantFrom(undefined, 'enterprise customers in Europe'),
        fc.boolean(),
        (indexes, topic, context, base) => {
          const passages = indexes.map((i, rank) => ({ ...PASSAGES[i]!, score: -1 - ((rank * 7919) % 13) / 4 }));
          const options = base ? { count: 10, perSource: 3 } : { count: 5, perSource: 2 };
          const fromText = selectSentences(passages, topic, context, options);
          const facts = passages.map((p) => ({ sourceKey: p.sourceKey, title: p.title, score: p.score, text: p.text, sentences: decodeFacts(encodeFacts(analyzePassage(p.text))) }));
          const fromFacts = chooseSentences(facts, topic, context, options).map(({ key: _key, refs, ...chosen }) => {
            const { passage, sentence } = refs.get(chosen.sourceKey)!;
            return { sentence: passages[passage]!.text.slice(sentence.start, sentence.end), ...chosen };
          });
          expect(fromFacts).toEqual(fromText);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('missing (rows indexed before migration 0011) or of another version, are computed from the text: the same briefs', async () => {
    const stored = await briefs();
    await env.DB.prepare('UPDATE passages SET facts = NULL, facts_version = NULL WHERE organization_id = ?').bind(org.id).run();
    expect(await briefs()).toEqual(stored);
    await env.DB.prepare("UPDATE passages SET facts = '', facts_version = ? WHERE organization_id = ?").bind(FACTS_VERSION + 1, org.id).run();
    expect(await briefs()).toEqual(stored);
    // Re-importing a source stores its facts again.
    await env.DB.prepare('DELETE FROM objects WHERE organization_id = ? AND type = ?').bind(org.id, 'source').run();
    await importObjects(ctx, env.TEST_KNOWLEDGE_BASE);
    const { results } = await env.DB.prepare('SELECT DISTINCT facts_version AS version FROM passages WHERE organization_id = ?').bind(org.id).all();
    expect(results).toEqual([{ version: FACTS_VERSION }]);
    expect(await briefs()).toEqual(stored);
  });

  it('that do not fit their passage (rewritten meanwhile) never put words in a source: its sentences are not cited', async () => {
    // The stored facts of acme.com's passages point one character off: their keys no longer fit the text there.
    const { results } = await env.DB.prepare("SELECT id, facts FROM passages WHERE organization_id = ? AND domain = 'acme.com'")
      .bind(org.id)
      .all<{ id: number; facts: string }>();
    expect(results.length).toBeGreaterThan(0);
    for (const row of results) {
      const shifted = decodeFacts(row.facts).map((f) => ({ ...f, start: f.start + 1, end: f.end + 1 }));
      await env.DB.prepare('UPDATE passages SET facts = ? WHERE id = ?').bind(encodeFacts(shifted), row.id).run();
    }
    let claims = 0;
    for (const markdown of await briefs()) {
      const urls = briefSources(markdown).map((s) => s.url);
      expect(urls.filter((url) => new URL(url).hostname === 'acme.com')).toEqual([]);
      for (const claim of briefClaims(markdown)) {
        claims++;
        for (const n of claim.cites) expect(contentByUrl.get(urls[n - 1]!), claim.sentence).toContain(claim.sentence);
      }
    }
    expect(claims).toBeGreaterThan(20);
  });
});
