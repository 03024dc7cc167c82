import { describe, expect, it } from 'vitest';
import { amountsOf, priceChanges } from '../../../src/watches/page-changes/prices.ts';

describe('amountsOf', () => {
  it('finds currency amounts as written, in order', () => {
    expect(amountsOf('Pro: $49 per seat per month, or $1,299.00 a year.')).toEqual(['$49', '$1,299.00']);
    expect(amountsOf('From \u20ac39, 49 \u20ac, USD 49, 49 USD or \u00a34.50.')).toEqual(['\u20ac39', '49 \u20ac', 'USD 49', '49 USD', '\u00a34.50']);
    expect(amountsOf('Canadian prices are CAD $199, CAD $319 and CAD $439 per location per month.')).toEqual(['CAD $199', 'CAD $319', 'CAD $439']);
    expect(amountsOf('Team is \u20ac1.200 a year, or 1 200 \u20ac, or 12,50 \u20ac a month.')).toEqual(['\u20ac1.200', '1 200 \u20ac', '12,50 \u20ac']);
  });

  it('keeps the number only, not the unit after it', () => {
    expect(amountsOf('Calls cost $0.02/min.')).toEqual(['$0.02']);
  });

  it('keeps a magnitude as part of the amount', () => {
    expect(amountsOf('Acme raised $38 million and reached $2.2M in revenue.')).toEqual(['$38 million', '$2.2M']);
  });

  it('finds nothing in numbers that are not money', () => {
    expect(amountsOf('Up to 10 seats, 20 million events a month, since 2016, v2.3.1.')).toEqual([]);
  });
});

describe('priceChanges', () => {
  it('pairs a removed and an added sentence that differ only in their amount, naming the plan before it', () => {
    expect(priceChanges(['Pro: $49 per seat per month.'], ['Pro: $59 per seat per month.'])).toEqual([
      { plan: 'Pro', before: '$49', after: '$59', removed: 'Pro: $49 per seat per month.', added: 'Pro: $59 per seat per month.' },
    ]);
  });

  it('names the plan in the ways pricing pages write it', () => {
    const cases: [string, string, string][] = [
      ['The Pro plan costs $49 per seat.', 'The Pro plan costs $59 per seat.', 'Pro'],
      ['Team \u2014 $99/month', 'Team \u2014 $109/month', 'Team'],
      ['Premium is billed at $189 per location per month.', 'Premium is billed at $199 per location per month.', 'Premium'],
      ['Most full-service restaurants choose Plus, at $99 per location per month.', 'Most full-service restaurants choose Plus, at $109 per location per month.', 'Plus'],
      ['Labor + Inventory is $239 per location per month.', 'Labor + Inventory is $249 per location per month.', 'Labor + Inventory'],
      ['At $39 per seat per month, the Growth plan adds retention analysis.', 'At $45 per seat per month, the Growth plan adds retention analysis.', 'Growth'],
    ];
    for (const [removed, added, plan] of cases) expect(priceChanges([removed], [added])[0]?.plan).toBe(plan);
  });

  it('without a name, gives the sentence without its amount, cut to 80 characters', () => {
    const [short] = priceChanges(['Our price is $49 for everyone.'], ['Our price is $59 for everyone.']);
    expect(short?.plan).toBe('Our price is for everyone.');
    const long = 'Our price is $49 for everyone who signs up before the end of the year and tells their friends about it.';
    const [cut] = priceChanges([long], [long.replace('$49', '$59')]);
    expect(cut?.plan).toHaveLength(80);
    expect(cut?.plan.endsWith('\u2026')).toBe(true);
  });

  it('with several amounts, reports the first that differs', () => {
    const [change] = priceChanges(['Canadian prices are CAD $199, CAD $319 and CAD $439 per location per month.'], ['Canadian prices are CAD $199, CAD $329 and CAD $439 per location per month.']);
    expect(change).toMatchObject({ before: 'CAD $319', after: 'CAD $329' });
  });

  it('pairs each sentence at most once, each removed one with the first added one of its shape', () => {
    const removed = ['Pro: $49 per month.', 'Team: $99 per month.', 'Pro: $49 per month.'];
    const added = ['Team: $109 per month.', 'Pro: $59 per month.'];
    const changes = priceChanges(removed, added);
    expect(changes.map(({ plan, before, after }) => [plan, before, after])).toEqual([
      ['Pro', '$49', '$59'],
      ['Team', '$99', '$109'],
    ]);
  });

  it('pairs nothing when the words around the amount changed too, or the amount did not change', () => {
    expect(priceChanges(['Pro: $49 per month.'], ['Pro: $59 per year.'])).toEqual([]);
    expect(priceChanges(['Pro: $49 per month.'], ['Pro:  $49  per month.'])).toEqual([]);
    expect(priceChanges(['Pro is popular.'], ['Pro is very popular.'])).toEqual([]);
  });

  it('compares the rest of the sentence with spacing collapsed and case folded', () => {
    expect(priceChanges(['Pro: $49 per month.'], ['pro:  $59 per  month.'])).toHaveLength(1);
  });
});
