import { describe, expect, it } from 'vitest';
import { figures, holdsLargeSum, moneyScaleAsked } from '../../src/research/answer-types.ts';

describe('the scale of money a topic asks for', () => {
  it('reads funding, revenue, rounds and markets as a sum, and prices, costs and fees as a price', () => {
    expect(moneyScaleAsked('Harbinly funding and investors')).toBe('sum');
    expect(moneyScaleAsked('Initech annual recurring revenue')).toBe('sum');
    expect(moneyScaleAsked('Initech Series B amount and lead investor')).toBe('sum');
    expect(moneyScaleAsked('size of the restaurant software market')).toBe('sum');
    expect(moneyScaleAsked('Initech Premium plan price')).toBe('price');
    expect(moneyScaleAsked('cheapest security awareness training vendor')).toBe('price');
    expect(moneyScaleAsked('Initech minimum monthly charge per location')).toBe('price');
  });

  it('reads no scale when the topic names neither, or both', () => {
    expect(moneyScaleAsked('Initech account executive salary')).toBeNull();
    expect(moneyScaleAsked('how much did Ironoak pay for Initech')).toBeNull();
    expect(moneyScaleAsked('Initech pricing and funding')).toBeNull();
  });
});

describe('a sum in millions', () => {
  it('is a figure in millions or billions', () => {
    expect(holdsLargeSum(figures('Harbinly announced a $60 million growth investment.'))).toBe(true);
    expect(holdsLargeSum(figures('Spending reached an estimated $3.4 billion in 2025.'))).toBe(true);
    expect(holdsLargeSum(figures('Each location pays a minimum of $60 a month.'))).toBe(false);
    expect(holdsLargeSum(figures('Annual contracts start at $60,000.'))).toBe(false);
  });
});
