import { describe, expect, it } from 'vitest';
import { currencyAsked, figures, holdsCurrency } from '../../src/research/answer-types.ts';
import { sentenceCandidates } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

describe('the currency a topic asks its money in', () => {
  it('is read from a currency or a place named in the topic', () => {
    expect(currencyAsked('Cortilane Compliance Suite price in US dollars')).toBe('$');
    expect(currencyAsked('Rostrella Rota Pro price in the United States')).toBe('$');
    expect(currencyAsked('Acme account executive salary in euros')).toBe('€');
    expect(currencyAsked('Rostrella UK pricing')).toBe('£');
  });

  it('is none when the topic names no currency, or two', () => {
    expect(currencyAsked('Rostrella Rota Pro price')).toBeNull();
    expect(currencyAsked('Rota Pro price in the UK and the US')).toBeNull();
    // A lower-case "us" is a pronoun, not the United States; a language is no currency.
    expect(currencyAsked('what would it cost us')).toBeNull();
    expect(currencyAsked('price of the courses in German')).toBeNull();
  });

  it('is held by a sentence whose figures state money in it, by sign or by name', () => {
    expect(holdsCurrency(figures('In the United States the same plan is $8.50 per employee per month.'), '$')).toBe(true);
    expect(holdsCurrency(figures('Rota Pro costs £6.50 per employee per month.'), '$')).toBe(false);
    expect(holdsCurrency(figures('The on-target earnings are 140,000 to 160,000 euros.'), '€')).toBe(true);
    expect(holdsCurrency(figures('Compliance Suite costs €24 per learner per year.'), '£')).toBe(false);
  });
});

describe('the currency feature of a sentence', () => {
  it('is 1 for money in the asked currency and 0 for money in another', () => {
    const text = 'Rota Pro costs £6.50 per employee per month. In the United States the same plan is $8.50 per employee per month.';
    const passage = { sourceKey: 'https://rostrella.example/pricing', title: 'Pricing', score: -1, publishedAt: null, text, sentences: analyzePassage(text, (sentence) => sentence) };
    const found = new Map(sentenceCandidates([passage], 'Rostrella Rota Pro price in the United States', undefined).map((c) => [c.key, c.features.evidence.currency]));
    expect(found.get('In the United States the same plan is $8.50 per employee per month.')).toBe(1);
    expect(found.get('Rota Pro costs £6.50 per employee per month.')).toBe(0);
    const plain = sentenceCandidates([passage], 'Rostrella Rota Pro price', undefined);
    expect(plain.every((c) => c.features.evidence.currency === 0)).toBe(true);
  });
});
