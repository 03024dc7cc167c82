import { describe, expect, it } from 'vitest';
import { ANSWER_SHARE, distance, fitWeights, objective, PENALTY, STEPS } from '../../scripts/lib/ranking-fit.ts';
import { prepareCorpus, replayBrief, replayScores, type CorpusCapture } from '../../scripts/lib/research-replay.ts';
import { EVIDENCE_FEATURES, PRIOR_RANKING, RANKING_PARTS, WEIGHT_NAMES, type Ranking } from '../../src/research/ranking.ts';
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

  it('makes first the move that raises the objective most of all single moves, not the first that pays in the order of the weights', () => {
    // Two faults: three stale figures (a higher answer.recency mends them) and one founding year,
    // where the sentence with more of the topic's words is not the fact (a higher answer.position
    // mends it, and comes before recency in the order of the weights).
    const capture = staleFigureCorpus();
    capture.questions.push({
      question: { topic: 'Initrode founding year', gold: ['https://initrode.example/about'], facts: ['founded in 2011'] },
      retrieved: {
        found: [found(20, 'https://initrode.example/about', 'Initrode was founded in 2011 in Leeds. The Initrode founding team marked its tenth year in 2021 with a new office.', '2026-01-01', -5)],
        companies: [],
      },
    });
    const corpus = prepareCorpus(capture, contents(capture));
    const moves: string[] = [];
    fitWeights([corpus], PRIOR_RANKING, { log: (line) => moves.push(line) });
    // Every single move from the prior, scored as the fit scores it (its default steps and penalty).
    let best = { name: '', score: -Infinity };
    for (const part of RANKING_PARTS) {
      for (const name of WEIGHT_NAMES) {
        for (const value of STEPS.flatMap((step) => [step, -step]).map((step) => Math.round((PRIOR_RANKING[part][name] + step) * 1e4) / 1e4)) {
          if (value < 0 && (EVIDENCE_FEATURES as readonly string[]).includes(name)) continue;
          const tried: Ranking = { ...PRIOR_RANKING, [part]: { ...PRIOR_RANKING[part], [name]: value } };
          const score = objective([corpus], tried) - PENALTY * distance(tried, PRIOR_RANKING);
          if (score > best.score + 1e-9) best = { name: `${part}.${name}`, score };
        }
      }
    }
    expect(best.name).toBe('answer.recency');
    expect(moves[0]).toContain('move 1: answer.recency ');
    expect(moves[1]).toContain('move 2: answer.position ');
  });

  it('scores a replay the same whether or not the corpus has replayed other weights before', () => {
    const capture = staleFigureCorpus();
    const used = prepareCorpus(capture, contents(capture));
    fitWeights([used], PRIOR_RANKING);
    const fresh = prepareCorpus(capture, contents(capture));
    for (const weights of [PRIOR_RANKING, { ...PRIOR_RANKING, answer: { ...PRIOR_RANKING.answer, recency: 1 } }]) {
      expect(replayScores(used, weights)).toEqual(replayScores(fresh, weights));
    }
  });

  it("charges a move of the answer weights at the Answer line's share, a move of the selection weights in full", () => {
    const moved = (part: 'selection' | 'answer') => ({ ...PRIOR_RANKING, [part]: { ...PRIOR_RANKING[part], coverage: PRIOR_RANKING[part].coverage + 1 } });
    expect(distance(moved('selection'), PRIOR_RANKING)).toBeCloseTo(1);
    expect(distance(moved('answer'), PRIOR_RANKING)).toBeCloseTo(ANSWER_SHARE);
  });
});
