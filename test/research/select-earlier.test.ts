import { describe, expect, it } from 'vitest';
import { PRIOR_WEIGHTS, relevanceOf } from '../../src/research/ranking.ts';
import { sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

function passage(sourceKey: string, title: string, text: string): PassageFacts {
  return { sourceKey, title, score: -1, publishedAt: null, text, sentences: analyzePassage(text, (sentence) => sentence) };
}

function features(text: string, topic: string) {
  return new Map(sentenceCandidates([passage('https://news.example/a', 'News', text)], topic, undefined).map((c) => [c.key, c.features]));
}

describe('a sentence that gives an earlier figure', () => {
  it('is marked, so that a weight can rank it below the current one', () => {
    const found = features(
      'Heedra previously raised a $15 million Series A in 2023. Heedra raised a $32 million Series B on September 16, 2025. ' +
        "Rostrella's earlier Series A in 2021 was led by Fellgate Ventures.",
      'Heedra Series B amount',
    );
    expect(found.get('Heedra previously raised a $15 million Series A in 2023.')!.earlier).toBe(true);
    expect(found.get("Rostrella's earlier Series A in 2021 was led by Fellgate Ventures.")!.earlier).toBe(true);
    expect(found.get('Heedra raised a $32 million Series B on September 16, 2025.')!.earlier).toBe(false);
  });

  it('is marked when it tells of a time before what it names ("before Counterbell he was CFO")', () => {
    const found = features(
      'Dominic Harrow is our CEO; before Counterbell he was CFO of a 90-unit franchise group in Texas. ' +
        'Before joining Shiftlark, Tessa Marlowe ran operations at a restaurant group in Portland. ' +
        'Priya Lindqvist has run the finance team since before 2020 and reports to the CEO.',
      "who is Counterbell's CFO",
    );
    expect(found.get('Dominic Harrow is our CEO; before Counterbell he was CFO of a 90-unit franchise group in Texas.')!.earlier).toBe(true);
    expect(found.get('Before joining Shiftlark, Tessa Marlowe ran operations at a restaurant group in Portland.')!.earlier).toBe(true);
    expect(found.get('Priya Lindqvist has run the finance team since before 2020 and reports to the CEO.')!.earlier).toBe(false);
  });

  it('costs its weight as a log factor, and nothing under a weight of 0', () => {
    const [earlier] = features('Heedra previously raised a $15 million Series A in 2023.', 'Heedra Series A').values();
    const base = relevanceOf(earlier!, PRIOR_WEIGHTS);
    expect(relevanceOf(earlier!, { ...PRIOR_WEIGHTS, earlier: Math.log(0.5) })).toBeCloseTo(base / 2);
    expect(relevanceOf({ ...earlier!, earlier: false }, { ...PRIOR_WEIGHTS, earlier: Math.log(0.5) })).toBeCloseTo(base);
  });
});
