import { describe, expect, it } from 'vitest';
import { PRIOR_WEIGHTS, relevanceOf } from '../../src/research/ranking.ts';
import { askedNames, sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

function passage(sourceKey: string, title: string, text: string, publishedAt: string | null = null, score = -1): PassageFacts & { text: string } {
  return { sourceKey, title, score, publishedAt, text, sentences: analyzePassage(text, (sentence) => sentence) };
}

/** The candidates' features by sentence. */
function features(passages: ReturnType<typeof passage>[], topic: string, names: string[] = []) {
  return new Map(sentenceCandidates(passages, topic, undefined, names).map((c) => [c.key, c.features]));
}

describe('the features of a candidate sentence', () => {
  it('reads a plan or product named after a known company as the thing asked about', () => {
    const text = 'Premium is billed at $189 per location per month. Plus is $99 per location per month. Shiftlark has 180 employees.';
    const found = features([passage('https://shiftlark.com/pricing', 'Pricing', text)], 'Shiftlark Premium plan price');
    expect(found.get('Premium is billed at $189 per location per month.')!.evidence.product).toBe(1);
    expect(found.get('Plus is $99 per location per month.')!.evidence.product).toBe(0);
    // A run that is a known company's whole name names no product.
    const named = features([passage('https://example.org/a', 'A', 'Juniper & Salt runs 14 restaurants.')], 'Juniper & Salt locations', ['Juniper & Salt']);
    expect(named.get('Juniper & Salt runs 14 restaurants.')!.evidence.product).toBe(0);
  });

  it('marks the sentence that holds the superlative or list word the topic asks with', () => {
    const text = 'The cheapest option we tested is Baitwise at $1.25 per user. Security awareness training spending reached $3.4 billion.';
    const found = features([passage('https://reviews.example/tested', 'Tested', text)], 'cheapest security awareness training vendor');
    expect(found.get('The cheapest option we tested is Baitwise at $1.25 per user.')!.evidence.cue).toBe(1);
    expect(found.get('Security awareness training spending reached $3.4 billion.')!.evidence.cue).toBe(0);
    // "interest" ends in -est and is no superlative.
    const plain = features([passage('https://reviews.example/rates', 'Rates', 'Interest rates rose to 5 percent.')], 'interest rates');
    expect(plain.get('Interest rates rose to 5 percent.')!.evidence.cue).toBe(0);
  });

  it('rates newer sources higher, and an undated one at 0', () => {
    const found = features(
      [
        passage('https://a.example/new', 'Acme news', 'Acme has 420 employees across its offices today.', '2026-04-06'),
        passage('https://a.example/old', 'Acme news', 'Acme has 300 employees in Austin and in Denver.', '2025-04-06'),
        passage('https://a.example/undated', 'Acme news', 'Acme has 250 employees in Texas and in Ohio.', null),
      ],
      'Acme headcount',
    );
    expect(found.get('Acme has 420 employees across its offices today.')!.evidence.recency).toBe(1);
    expect(found.get('Acme has 300 employees in Austin and in Denver.')!.evidence.recency).toBeCloseTo(0.5, 2);
    expect(found.get('Acme has 250 employees in Texas and in Ohio.')!.evidence.recency).toBe(0);
  });

  it('joins capitalized words around an & into one name, and compares names joined by vs, and, or', () => {
    expect(askedNames('Carrow & Pike results with Baitwise').names.map((n) => n.text)).toEqual(['Carrow & Pike', 'Baitwise']);
    expect(askedNames('Carrow & Pike results with Baitwise').together).toBe(false);
    expect(askedNames('Phishwarden vs Heedra headcount').together).toBe(true);
    expect(askedNames('which is cheaper, Baitwise or Phishwarden').together).toBe(true);
  });

  it('reproduces the hand-set ranking under the prior weights: a sentence in the topic words outranks one with them only in its title', () => {
    const found = features(
      [passage('https://initech.io/pricing', 'Initech pricing', 'Annual contracts start at $60,000.'), passage('https://initech.io/blog', 'Blog', 'Initech pricing starts at $60,000 a year.')],
      'Initech pricing',
    );
    const inTitle = relevanceOf(found.get('Annual contracts start at $60,000.')!, PRIOR_WEIGHTS);
    const inWords = relevanceOf(found.get('Initech pricing starts at $60,000 a year.')!, PRIOR_WEIGHTS);
    expect(inWords).toBeGreaterThan(inTitle);
  });
});
