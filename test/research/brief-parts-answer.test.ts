import { describe, expect, it } from 'vitest';
import { topicParts } from '../../src/research/answer-types.ts';
import type { ResearchResult } from '../../src/research/provider.ts';
import { answerLine as answerLineOf } from '../helpers/answer-line.ts';

const SOURCES: ResearchResult['sources'] = [
  { url: 'https://initech.io/pricing', title: 'Initech pricing', domain: 'initech.io', publishedAt: '2026-04-07' },
  { url: 'https://reviews.example/initech', title: 'Initech review', domain: 'reviews.example', publishedAt: '2026-02-11' },
];

function answerLine(topic: string, findings: ResearchResult['findings']) {
  return answerLineOf(topic, SOURCES, findings);
}

const PRICE = 'The Growth plan costs $49 per seat per month.';
const TRIAL = 'Every plan starts with a 14-day free trial.';
const RATING = 'The reviewer rated Initech 4 out of 5.';
const COMPLAINT = 'The most common complaint about Initech is the long implementation.';

describe('the kinds of answer each part of a topic asks for', () => {
  it('are read from parts joined by "and" or commas, when they ask for different kinds', () => {
    expect(topicParts('Initech Team plan price and free trial length')).toEqual([['money'], ['duration']]);
    expect(topicParts('Initech reviewer ratings and complaints')).toEqual([['rating'], ['weakness']]);
    expect(topicParts('Initech funding: amount, date and lead investor').length).toBeGreaterThan(1);
  });

  it('are none for a topic asking one thing, or the same kind twice', () => {
    expect(topicParts('Initech pricing')).toEqual([]);
    expect(topicParts('Initech price and Hooli price')).toEqual([]);
    expect(topicParts('Initech sales and marketing teams')).toEqual([]);
  });
});

describe('the Answer line of a topic that asks several things', () => {
  it('quotes the first finding, then one for each part it does not answer', () => {
    const { line, claims } = answerLine('Initech Growth plan price and free trial length', [
      { sentence: PRICE, source: 0 },
      { sentence: 'Initech sells to logistics teams in Europe.', source: 1 },
      { sentence: TRIAL, source: 0 },
    ]);
    expect(line).toBe(`**Answer:** "${PRICE}" [1] (initech.io, 2026-04-07); "${TRIAL}" [1] (initech.io, 2026-04-07)`);
    expect(claims.filter((c) => c.answer).map((c) => c.sentence)).toEqual([PRICE, TRIAL]);
  });

  it('quotes one finding when it answers every part', () => {
    const BOTH = 'The Growth plan costs $49 per seat per month after a 14-day free trial.';
    const { line } = answerLine('Initech Growth plan price and free trial length', [
      { sentence: BOTH, source: 0 },
      { sentence: TRIAL, source: 0 },
    ]);
    expect(line).toBe(`**Answer:** "${BOTH}" [1] (initech.io, 2026-04-07)`);
  });

  it('quotes nothing for a part no finding answers', () => {
    const { line } = answerLine('Initech reviewer ratings and complaints', [
      { sentence: RATING, source: 1 },
      { sentence: 'Initech sells to logistics teams in Europe.', source: 1 },
    ]);
    expect(line).toBe(`**Answer:** "${RATING}" [2] (reviews.example, 2026-02-11)`);
    const both = answerLine('Initech reviewer ratings and complaints', [
      { sentence: COMPLAINT, source: 1 },
      { sentence: RATING, source: 1 },
    ]);
    expect(both.line).toBe(`**Answer:** "${COMPLAINT}" [2] (reviews.example, 2026-02-11); "${RATING}" [2] (reviews.example, 2026-02-11)`);
  });
});
