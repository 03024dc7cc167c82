import { describe, expect, it } from 'vitest';
import { sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

function passage(text: string): PassageFacts {
  return { sourceKey: 'https://shiftlark.example/pricing', title: 'Pricing', score: -1, publishedAt: null, text, sentences: analyzePassage(text, (sentence) => sentence) };
}

const PRICING = 'On Essentials and Plus, payroll costs $8 per employee per month. Premium plan customers pay $6 per employee per month for payroll.';

describe('a plan named on its own in the topic', () => {
  it('is the product asked about when a product word follows it ("on the Plus plan")', () => {
    const found = new Map(sentenceCandidates([passage(PRICING)], 'what does Shiftlark charge for payroll on the Plus plan', undefined, ['Shiftlark']).map((c) => [c.key, c.features.evidence.product]));
    expect(found.get('On Essentials and Plus, payroll costs $8 per employee per month.')).toBe(1);
    expect(found.get('Premium plan customers pay $6 per employee per month for payroll.')).toBe(0);
  });

  it('is no product when no product word follows it', () => {
    const found = sentenceCandidates([passage(PRICING)], 'what does Shiftlark charge Plus customers for payroll', undefined, ['Shiftlark']);
    expect(found.every((c) => c.features.evidence.product === 0)).toBe(true);
  });
});
