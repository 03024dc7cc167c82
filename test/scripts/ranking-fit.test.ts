import { describe, expect, it } from 'vitest';
import { ANSWER_SHARE, distance, fitWeights, objective } from '../../scripts/lib/ranking-fit.ts';
import { prepareCorpus, replayBrief, type CorpusCapture } from '../../scripts/lib/research-replay.ts';
import { PRIOR_RANKING } from '../../src/research/ranking.ts';
import type { FoundPassage } from '../../src/db/passages.ts';
import { FINISHED_PROFILE } from '../helpers/fixtures.ts';

const OLD = 'Acme has about 300 employees across its Austin offices.';
const NEW = 'Acme has about 420 employees across its Austin offices.';

function found(id: number, sourceKey: string, text: string, publishedAt: string, score: number): FoundPassage {
  return { id, sourceKey, text, title: 'Acme company facts', domain: new URL(sourceKey).hostname, publishedAt, score, facts: null };
}

/**
 * A captured corpus where the prior ranking quotes a stale figure as the Answer: for each of a few
 * companies, the older of two sources states the headcount first and ranks higher; the fact asked
 * for is the newer one's.
 */
function staleFigureCorpus(): CorpusCapture {
  const questions = ['Acme', 'Initech', 'Globex'].map((company, i) => ({
    question: { topic: `${company} headcount`, gold: [`https://news.example/${i}/new`], facts: [NEW.replace('Acme', company).match(/about 420 employees/)![0]] },
    retrieved: {
      found: [
        found(2 * i + 1, `https://news.example/${i}/old`, OLD.replace('Acme', company), '2024-01-10', -9),
        found(2 * i + 2, `https://news.example/${i}/new`, NEW.replace('Acme', company), '2026-03-01', -3),
      ],
      companies: [],
    },
  }));
  return { name: 'stale-figures', profile: FINISHED_PROFILE, questions };
}

function contents(capture: CorpusCapture): Map<string, string> {
  return new Map(capture.questions.flatMap((q) => q.retrieved.found.map((p) => [p.sourceKey, p.text] as const)));
}

describe('fitting the ranking on captured research', () => {
  it('replays a research call from what was retrieved: the brief quotes its sources verbatim', () => {
    const capture = staleFigureCorpus();
    const markdown = replayBrief(prepareCorpus(capture, contents(capture)), 0, PRIOR_RANKING);
    expect(markdown).toContain(`**Answer:** "${OLD}"`);
    expect(markdown).toContain(NEW);
  });

  it('raises the objective from the prior by moving weights, and gives the same weights every time', () => {
    const capture = staleFigureCorpus();
    const corpus = prepareCorpus(capture, contents(capture));
    const fit = fitWeights([corpus], PRIOR_RANKING);
    expect(fit.objective).toBeGreaterThan(fit.start);
    expect(objective([corpus], fit.weights)).toBe(fit.objective);
    expect(replayBrief(corpus, 0, fit.weights)).toContain(`**Answer:** "${NEW}"`);
    expect(fitWeights([prepareCorpus(capture, contents(capture))], PRIOR_RANKING).weights).toEqual(fit.weights);
  });

  it("charges a move of the answer weights at the Answer line's share, a move of the selection weights in full", () => {
    const moved = (part: 'selection' | 'answer') => ({ ...PRIOR_RANKING, [part]: { ...PRIOR_RANKING[part], coverage: PRIOR_RANKING[part].coverage + 1 } });
    expect(distance(moved('selection'), PRIOR_RANKING)).toBeCloseTo(1);
    expect(distance(moved('answer'), PRIOR_RANKING)).toBeCloseTo(ANSWER_SHARE);
  });
});
