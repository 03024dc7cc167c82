import { describe, expect, it } from 'vitest';
import { stem } from '../../src/research/stem.ts';

describe('stem (Porter)', () => {
  it('gives the published outputs of the Porter algorithm', () => {
    const expected: Record<string, string> = {
      caresses: 'caress', ponies: 'poni', ties: 'ti', caress: 'caress', cats: 'cat', feed: 'feed', agreed: 'agre',
      plastered: 'plaster', bled: 'bled', motoring: 'motor', sing: 'sing', conflated: 'conflat', troubled: 'troubl',
      sized: 'size', hopping: 'hop', tanned: 'tan', falling: 'fall', hissing: 'hiss', fizzed: 'fizz', failing: 'fail',
      filing: 'file', happy: 'happi', sky: 'sky', relational: 'relat', conditional: 'condit', rational: 'ration',
      generalizations: 'gener', oscillators: 'oscil', hopeful: 'hope', goodness: 'good', electrical: 'electr',
      adjustment: 'adjust', dependent: 'depend', adoption: 'adopt', controlling: 'control', rolling: 'roll',
      probate: 'probat', rate: 'rate', cease: 'ceas',
    };
    for (const [word, stemmed] of Object.entries(expected)) expect(stem(word), word).toBe(stemmed);
  });

  it('lets the forms of a word a salesperson writes meet', () => {
    for (const group of [['price', 'prices', 'pricing', 'priced'], ['charge', 'charges', 'charged'], ['salary', 'salaries'], ['rating', 'ratings', 'rated'], ['weakness', 'weaknesses', 'weak']]) {
      expect(new Set(group.map(stem)), group.join(' ')).toHaveProperty('size', 1);
    }
    expect(stem('price')).not.toBe(stem('prize'));
  });

  it('leaves figures, hyphenated and accented words as they are', () => {
    for (const word of ['$60,000', '2026', 'on-target', 'señor', 'b2b']) expect(stem(word)).toBe(word);
  });
});
