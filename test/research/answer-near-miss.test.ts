import { describe, expect, it } from 'vitest';
import type { FoundPassage } from '../../src/db/passages.ts';
import { extractFindings, findingCandidates, type Retrieved } from '../../src/research/embedded-pipeline.ts';
import { PRIOR_RANKING, relevanceOf } from '../../src/research/ranking.ts';

function found(id: number, sourceKey: string, title: string, text: string, score: number): FoundPassage {
  return { id, sourceKey, text, title, domain: new URL(sourceKey).hostname, publishedAt: '2026-03-01', score, facts: null };
}

const PLAN = 'Sentryfold will open its US office in Seattle in January 2026 and sell first to US credit unions.';
const OPENED = "Melbourne's Sentryfold opened a Seattle office on January 12, 2026.";

function retrieved(...texts: string[]): Retrieved {
  return { found: texts.map((text, i) => found(i + 1, `https://news.example/${i}`, 'Sentryfold news', text, -9 + i / 10)), companies: [] };
}

describe('the Answer beside a near miss', () => {
  const topic = 'when did Sentryfold open its US office';

  it('is a sentence without a near-miss mark, even when the answer weights rank the marked one higher', () => {
    const candidates = findingCandidates(retrieved(PLAN, OPENED), { topic });
    const plan = candidates.find((c) => c.features.future)!;
    const opened = candidates.find((c) => !c.features.future)!;
    // Under the prior (no weight on the mark) the plan, which holds more of the topic's words, ranks first.
    expect(relevanceOf(plan.features, PRIOR_RANKING.answer)).toBeGreaterThan(relevanceOf(opened.features, PRIOR_RANKING.answer));
    const { findings } = extractFindings(retrieved(PLAN, OPENED), { topic, tier: 'lite' }, { ranking: PRIOR_RANKING });
    expect(findings.map((f) => f.sentence)).toEqual([OPENED, PLAN]);
  });

  it('is the near miss when no other sentence holds what was asked', () => {
    const { findings } = extractFindings(retrieved(PLAN, 'Sentryfold sells security awareness training to credit unions.'), { topic, tier: 'lite' }, { ranking: PRIOR_RANKING });
    expect(findings[0]!.sentence).toBe(PLAN);
  });
});

describe('the Answer of a topic that asks several things', () => {
  const topic = 'Sentryfold Team plan price and free trial length';
  const PRICE = 'The Team plan costs $49 per seat per month.';
  const LATER = 'Sentryfold will offer a 30-day free trial on the Team plan next year.';
  const TRIAL = 'Every plan starts with a 14-day free trial.';

  it('puts first the best sentence for each part the answers before it do not hold, never a near miss while a plain one holds it', () => {
    const candidates = findingCandidates(retrieved(PRICE, LATER, TRIAL), { topic });
    const later = candidates.find((c) => c.features.future)!;
    const trial = candidates.find((c) => !c.features.future && c.answers.includes('duration'))!;
    expect(relevanceOf(later.features, PRIOR_RANKING.answer)).toBeGreaterThan(relevanceOf(trial.features, PRIOR_RANKING.answer));
    const { findings } = extractFindings(retrieved(PRICE, LATER, TRIAL), { topic, tier: 'lite' }, { ranking: PRIOR_RANKING });
    // One answer per part, in the answer weights' order; the plan for next year is neither.
    expect(findings.map((f) => f.sentence).slice(0, 2).sort()).toEqual([PRICE, TRIAL].sort());
  });
});
