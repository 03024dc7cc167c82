import { describe, expect, it } from 'vitest';
import { asksAddOn, holdsAddOn } from '../../src/research/answer-types.ts';
import { PRIOR_WEIGHTS, relevanceOf } from '../../src/research/ranking.ts';
import { sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

function passage(text: string): PassageFacts {
  return { sourceKey: 'https://shiftlark.example/pricing', title: 'Pricing', score: -1, publishedAt: null, text, sentences: analyzePassage(text, (sentence) => sentence) };
}

function features(text: string, topic: string) {
  return new Map(sentenceCandidates([passage(text)], topic, undefined).map((c) => [c.key, c.features]));
}

const PRICING =
  'Premium is billed at $189 per location per month and includes manager logbooks. ' +
  'Premium plan customers can add Payroll to the Premium plan for $6 per employee per month. ' +
  'Each additional employee costs $4 per month.';

describe('a sentence that prices an add-on', () => {
  it('is told from one that prices a plan or lists what a plan adds', () => {
    expect(holdsAddOn('Premium plan customers can add Payroll to the Premium plan for $6 per employee per month.')).toBe(true);
    expect(holdsAddOn('Each additional employee costs $4 per month.')).toBe(true);
    expect(holdsAddOn('An optional add-on covers tip pooling.')).toBe(true);
    expect(holdsAddOn('Full Back Office, at $329 per location per month, adds payroll and accounts payable.')).toBe(false);
    expect(holdsAddOn('Premium is billed at $189 per location per month.')).toBe(false);
  });

  it('is marked for a topic that asks what a plan costs, so a weight can rank it below the plan price', () => {
    const found = features(PRICING, 'Premium plan price');
    expect(found.get('Premium plan customers can add Payroll to the Premium plan for $6 per employee per month.')!.addOn).toBe(true);
    expect(found.get('Each additional employee costs $4 per month.')!.addOn).toBe(true);
    expect(found.get('Premium is billed at $189 per location per month and includes manager logbooks.')!.addOn).toBe(false);
  });

  it('is no near miss for a topic that asks about add-ons', () => {
    expect(asksAddOn('Premium add-on pricing')).toBe(true);
    expect(asksAddOn('what does it cost to add payroll')).toBe(true);
    const found = features(PRICING, 'cost of additional employees on Premium');
    expect([...found.values()].every((f) => !f.addOn)).toBe(true);
  });

  it('is no near miss for a topic that asks no price: it is beside the price asked for, not beside a date', () => {
    const text = 'October 7, 2025: Warden Coach is generally available on all plans; Enterprise customers get it at no extra charge.';
    expect(features(text, 'when did Phishwarden launch Warden Coach').get(text)!.addOn).toBe(false);
    expect(features(text, 'Warden Coach price').get(text)!.addOn).toBe(true);
  });

  it('costs its weight as a log factor, and nothing under a weight of 0', () => {
    const addOn = features(PRICING, 'Premium plan price').get('Each additional employee costs $4 per month.')!;
    const base = relevanceOf(addOn, PRIOR_WEIGHTS);
    expect(relevanceOf(addOn, { ...PRIOR_WEIGHTS, addOn: Math.log(0.5) })).toBeCloseTo(base / 2);
    expect(relevanceOf({ ...addOn, addOn: false }, { ...PRIOR_WEIGHTS, addOn: Math.log(0.5) })).toBeCloseTo(base);
  });
});
