import { describe, expect, it } from 'vitest';
import type { ResearchResult } from '../../src/research/provider.ts';
import { answerLine as answerLineOf } from '../helpers/answer-line.ts';

const SOURCES: ResearchResult['sources'] = [
  { url: 'https://reviews.example/compare', title: 'Plans compared', domain: 'reviews.example', publishedAt: '2026-04-07' },
  { url: 'https://initech.io/about', title: 'About Initech', domain: 'initech.io', publishedAt: '2026-02-11' },
  { url: 'https://hooli.example/about', title: 'About Hooli', domain: 'hooli.example', publishedAt: '2026-01-20' },
];

function answerLine(topic: string, findings: ResearchResult['findings']) {
  return answerLineOf(topic, SOURCES, findings);
}

const PASSING = 'For a team of 1,000 employees, Initech costs more than most rivals.';
const INITECH = 'Initech has about 420 employees across three offices.';
const HOOLI = 'Hooli has 150 employees, most of them in Denver.';
const BOTH = 'Initech has 420 employees and Hooli has 150.';

describe('the Answer line of a comparison', () => {
  it('quotes one finding per side, in the topic order: the first (most relevant) that speaks of the side and holds the asked kind of answer', () => {
    const { line, claims } = answerLine('Initech vs Hooli headcount', [
      { sentence: 'Initech sells to logistics teams in Europe.', source: 1 },
      { sentence: HOOLI, source: 2 },
      { sentence: INITECH, source: 1 },
    ]);
    expect(line).toBe(`**Answer:** "${INITECH}" [2] (initech.io, 2026-02-11); "${HOOLI}" [3] (hooli.example, 2026-01-20)`);
    expect(claims.filter((c) => c.answer).map((c) => c.sentence)).toEqual([INITECH, HOOLI]);
  });

  it('does not put a later finding first because it opens with the name', () => {
    const LIMITATION = 'The main limitation of Hooli is that it usually takes eight to twelve weeks to implement.';
    const REVIEW = 'This Hooli review comes from a CIO who has used the product for 18 months.';
    const { line } = answerLine('Initech vs Hooli implementation time', [
      { sentence: 'Initech was live in nine days.', source: 1 },
      { sentence: LIMITATION, source: 0 },
      { sentence: REVIEW, source: 0 },
    ]);
    expect(line).toBe(`**Answer:** "Initech was live in nine days." [2] (initech.io, 2026-02-11); "${LIMITATION}" [1] (reviews.example, 2026-04-07)`);
  });

  it('lets one finding that names both sides answer for both', () => {
    const { line } = answerLine('Initech or Hooli: how many employees', [
      { sentence: BOTH, source: 0 },
      { sentence: HOOLI, source: 2 },
    ]);
    expect(line).toBe(`**Answer:** "${BOTH}" [1] (reviews.example, 2026-04-07)`);
  });

  it('does not read a company named with an & as two sides', () => {
    const { line } = answerLine('Carrow & Pike headcount', [
      { sentence: PASSING, source: 0 },
      { sentence: 'Carrow & Pike is a 180-person law firm in Richmond.', source: 1 },
    ]);
    // Not a comparison: the first finding that holds the asked kind of answer.
    expect(line).toBe(`**Answer:** "${PASSING}" [1] (reviews.example, 2026-04-07)`);
  });

  it('keeps a side it finds nothing about out of the line, and quotes every other finding once below it', () => {
    const { line, markdown } = answerLine('Initech vs Globex headcount', [
      { sentence: HOOLI, source: 2 },
      { sentence: INITECH, source: 1 },
    ]);
    expect(line).toBe(`**Answer:** "${INITECH}" [2] (initech.io, 2026-02-11)`);
    expect(markdown.split(HOOLI)).toHaveLength(2);
    expect(markdown.split(INITECH)).toHaveLength(2);
  });
});

describe('an Answer line without an answer', () => {
  it('says plainly that no finding gives the kind of answer asked for, quotes none, and lists every finding below', () => {
    const { line, claims, markdown } = answerLine('Initech headcount', [
      { sentence: 'Initech sells to logistics teams in Europe and North America.', source: 1 },
      { sentence: 'Initech opened an office in Lyon for its European customers.', source: 1 },
    ]);
    expect(line).toBe('**Answer:** Not stated. None of the sentences found gives a headcount for this topic; the closest findings follow.');
    expect(claims.some((claim) => claim.answer)).toBe(false);
    expect(markdown).toContain('2 findings from');
    expect(markdown.split('\n').filter((l) => /^\d+\. /.test(l))).toHaveLength(2);
  });
});
