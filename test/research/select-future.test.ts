import { describe, expect, it } from 'vitest';
import { asksFuture, tellsOfFuture } from '../../src/research/answer-types.ts';
import { PRIOR_WEIGHTS, relevanceOf } from '../../src/research/ranking.ts';
import { sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

function passage(text: string): PassageFacts {
  return { sourceKey: 'https://news.example/a', title: 'News', score: -1, publishedAt: null, text, sentences: analyzePassage(text, (sentence) => sentence) };
}

const NEWS =
  'Sentryfold will open a Seattle office in January 2026 and sell first to credit unions. ' +
  "Melbourne's Sentryfold opened its Seattle office on January 12, 2026. " +
  'Sentryfold does not yet support the FICA tip credit report. ' +
  'Sentryfold plans to add HIPAA courses this year.';

function future(topic: string) {
  return new Map(sentenceCandidates([passage(NEWS)], topic, undefined).map((c) => [c.key, c.features.future]));
}

describe('a sentence that states a plan or an intent', () => {
  it('is marked as a near miss for a topic that asks what happened', () => {
    const found = future('when did Sentryfold open its US office');
    expect(found.get('Sentryfold will open a Seattle office in January 2026 and sell first to credit unions.')).toBe(true);
    expect(found.get('Sentryfold does not yet support the FICA tip credit report.')).toBe(true);
    expect(found.get('Sentryfold plans to add HIPAA courses this year.')).toBe(true);
    expect(found.get("Melbourne's Sentryfold opened its Seattle office on January 12, 2026.")).toBe(false);
  });

  it('is no near miss when the topic asks about plans', () => {
    expect(asksFuture('Sentryfold roadmap')).toBe(true);
    expect(asksFuture('Beaconly Series B use of funds')).toBe(true);
    expect(asksFuture('when will Sentryfold open a US office')).toBe(true);
    expect(asksFuture('when did Sentryfold open its US office')).toBe(false);
    expect([...future('Sentryfold expansion plans').values()].every((marked) => !marked)).toBe(true);
    expect(asksFuture('when does the Acme Analytics pricing change take effect')).toBe(true);
    expect(asksFuture('when did the Acme Analytics pricing change take effect')).toBe(false);
  });

  it('is no near miss beside the role asked for: it says who holds it, whatever it says they will do', () => {
    const text = "Cortilane's founders will remain shareholders, and co-founder Declan Mulqueen will become chair of the board.";
    const marked = (topic: string) => sentenceCandidates([passage(text)], topic, undefined)[0]!.features.future;
    expect(marked('who founded Cortilane')).toBe(false);
    expect(marked('when did Cortilane open its Boston office')).toBe(true);
  });

  it('is not read from a pricing plan ("from the Team plan to $99")', () => {
    expect(tellsOfFuture('Pricing runs from $49 per seat per month on the Team plan to $99 on the Professional plan.')).toBe(false);
    expect(tellsOfFuture('Customers move from the Team plan to the Professional plan when they need governance.')).toBe(false);
    expect(tellsOfFuture('We plan to open in Boston next spring.')).toBe(true);
  });

  it('costs its weight as a log factor', () => {
    const marked = sentenceCandidates([passage(NEWS)], 'when did Sentryfold open its US office', undefined).find((c) => c.features.future)!.features;
    const base = relevanceOf(marked, { ...PRIOR_WEIGHTS, future: 0 });
    expect(relevanceOf(marked, { ...PRIOR_WEIGHTS, future: Math.log(0.5) })).toBeCloseTo(base / 2);
  });
});
