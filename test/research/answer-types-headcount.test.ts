import { describe, expect, it } from 'vitest';
import { sentenceAnswerTypes } from '../../src/research/answer-types.ts';

const headcount = (sentence: string) => sentenceAnswerTypes(sentence, ['headcount']).length > 0;

describe('a headcount in a sentence', () => {
  it('is a number of people a company has', () => {
    expect(headcount('Shiftlark has roughly 180 employees and is backed by Halberd Ventures.')).toBe(true);
    expect(headcount('Tabbrook employs more than 600 people.')).toBe(true);
    expect(headcount('We are about 420 people today, in Austin, Denver and Belfast.')).toBe(true);
    expect(headcount('Headcount rose to 1,200 employees in Q3 2025.')).toBe(true);
  });

  it('is not the size of someone else a sentence sizes an example or a market by', () => {
    expect(headcount('For a US restaurant with 30 employees, Rota Pro costs $255 a month.')).toBe(false);
    expect(headcount('Starter is free for a single location with up to 15 employees.')).toBe(false);
    expect(headcount('It serves mid-size companies, from 200 to 20,000 employees.')).toBe(false);
    expect(headcount('We pay about $275 a month for 55 people on the Payout plan.')).toBe(false);
  });
});
