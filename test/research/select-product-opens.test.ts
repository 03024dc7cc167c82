import { describe, expect, it } from 'vitest';
import { sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

function passage(sourceKey: string, title: string, text: string): PassageFacts {
  return { sourceKey, title, score: -1, publishedAt: null, text, sentences: analyzePassage(text, (sentence) => sentence) };
}

/** The `product` feature of each candidate sentence, by sentence. */
function productOf(passages: PassageFacts[], topic: string, names: string[] = []) {
  return new Map(sentenceCandidates(passages, topic, undefined, names).map((c) => [c.key, c.features.evidence.product]));
}

describe('the product feature: how squarely a sentence is about the plan asked', () => {
  it('is full for the sentence that opens with the plan, half for one that lists it among others', () => {
    const text =
      'Globex pricing runs from $49 per seat per month on the Team plan to $99 on the Professional plan, with Enterprise priced by quote. ' +
      'Enterprise pricing is custom, with annual contracts starting at $60,000.';
    const found = productOf([passage('https://globex.example/pricing', 'Globex pricing', text)], 'Globex Enterprise plan pricing');
    expect(found.get('Enterprise pricing is custom, with annual contracts starting at $60,000.')).toBe(1);
    expect(found.get('Globex pricing runs from $49 per seat per month on the Team plan to $99 on the Professional plan, with Enterprise priced by quote.')).toBe(0.5);
  });

  it('counts a plan of several words as opening the sentence only when all of them do, side by side', () => {
    const text =
      'Rota costs £3 per employee per month for rota planning. Rota Pro costs £6.50 per employee per month and adds payroll exports. ' +
      'Rostrella charges per employee: Rota Pro is $8.50 per employee per month in the US.';
    const found = productOf([passage('https://rostrella.example/pricing', 'Rostrella pricing', text)], 'Rostrella Rota Pro price', ['Rostrella']);
    expect(found.get('Rota Pro costs £6.50 per employee per month and adds payroll exports.')).toBe(1);
    // Only "Rota" of "Rota Pro" opens it: half of the half share.
    expect(found.get('Rota costs £3 per employee per month for rota planning.')).toBe(0.25);
    // The company opens it and the plan comes after the colon: the plan named in passing.
    expect(found.get('Rostrella charges per employee: Rota Pro is $8.50 per employee per month in the US.')).toBe(0.5);
  });

  it('counts the plan right after the company that opens the sentence ("Funnelwise Experiments is ...")', () => {
    const text = 'Funnelwise Experiments is included in the Scale plan at $45 per seat per month. Funnelwise pricing starts with the free Starter plan.';
    const found = productOf([passage('https://funnelwise.example/news', 'Funnelwise news', text)], 'Funnelwise Experiments price', ['Funnelwise']);
    expect(found.get('Funnelwise Experiments is included in the Scale plan at $45 per seat per month.')).toBe(1);
    expect(found.get('Funnelwise pricing starts with the free Starter plan.')).toBe(0);
  });
});
