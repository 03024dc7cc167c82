import { describe, expect, it } from 'vitest';
import { topicAnswerTypes } from '../../src/research/answer-types.ts';

describe('answer types read from question words and set phrases', () => {
  it('reads "when" as asking for a date, whatever else the topic names', () => {
    // "pricing" alone asks for money and "take" for a duration: "when" asks for the date it takes effect.
    expect(topicAnswerTypes('when does the Initech pricing change take effect')).toEqual(['date']);
    expect(topicAnswerTypes('when did Initech raise its Series B')).toEqual(['date']);
    expect(topicAnswerTypes('what year did Initech launch its payroll product')).toEqual(['date']);
    // Another question word beside it still asks for its own kind.
    expect(topicAnswerTypes('when and how much did Initech raise')).toEqual(['money', 'date']);
    expect(topicAnswerTypes('who founded Initech and when')).toEqual(['date', 'person']);
  });

  it('reads the size of a market as money, not as a count or a headcount', () => {
    expect(topicAnswerTypes('size of the restaurant workforce software market')).toEqual(['money']);
    expect(topicAnswerTypes('security awareness training market size')).toEqual(['money']);
    // A size without a market is still a count.
    expect(topicAnswerTypes('company size of Initech')).toEqual(['count']);
  });

  it('reads the results or outcomes of a case study or a pilot as percentages, counts or changes', () => {
    expect(topicAnswerTypes('Peakline Foods results with Initech')).toEqual(['percent', 'count', 'change']);
    expect(topicAnswerTypes('Initech Forecast pilot outcomes')).toEqual(['percent', 'count', 'change']);
  });

  it('reads limits as a count, and limitations as weaknesses only', () => {
    expect(topicAnswerTypes('Initech free tier limits')).toEqual(['count']);
    expect(topicAnswerTypes('Initech limitations')).toEqual(['weakness']);
  });
});
