import { describe, expect, it } from 'vitest';
import { sentenceAnswerTypes, topicAnswerTypes } from '../../src/research/answer-types.ts';

describe('a place as the kind of answer', () => {
  it('is what "where", "headquarters" and "located" ask for', () => {
    expect(topicAnswerTypes('where is Mizeledger based')).toEqual(['place']);
    expect(topicAnswerTypes('Tabbrook headquarters')).toEqual(['place']);
    expect(topicAnswerTypes('where is Heedra located')).toEqual(['place']);
  });

  it('is held by a sentence that puts a company in a named place', () => {
    const place = (sentence: string) => sentenceAnswerTypes(sentence, ['place']);
    expect(place('Mizeledger is headquartered in Toronto, Ontario and has an office in Chicago.')).toEqual(['place']);
    expect(place('Mizeledger is a Toronto-based back office vendor for restaurant groups.')).toEqual(['place']);
    expect(place('We have offices in Austin, Denver and Belfast.')).toEqual(['place']);
    expect(place('Rostrella was founded in Manchester in 2016.')).toEqual(['place']);
  });

  it('is not held by a year, a lower-case word or pricing "based" on something', () => {
    const place = (sentence: string) => sentenceAnswerTypes(sentence, ['place']);
    expect(place('Rostrella was founded in 2016 by a pub manager.')).toEqual([]);
    expect(place('Pricing is based on the number of locations.')).toEqual([]);
    expect(place('Usage-based billing starts at $10 a month.')).toEqual([]);
  });
});
