import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/ground/bounded-map.ts';

describe('BoundedMap', () => {
  it('evicts the oldest set entry when full; reads do not refresh, setting again does', () => {
    const map = new BoundedMap<string, number>({ max: 3 });
    map.set('a', 1).set('b', 2).set('c', 3);
    expect(map.get('a')).toBe(1);
    map.set('d', 4);
    expect(map.has('a')).toBe(false);
    expect([map.get('b'), map.get('c'), map.get('d')]).toEqual([2, 3, 4]);
    map.set('b', 20);
    map.set('e', 5);
    expect(map.has('c')).toBe(false);
    expect(map.get('b')).toBe(20);
    expect(map.size).toBe(3);
  });

  it('setting a key it holds never evicts another', () => {
    const map = new BoundedMap<string, number>({ max: 2 });
    map.set('a', 1).set('b', 2).set('b', 3);
    expect([map.get('a'), map.get('b')]).toEqual([1, 3]);
  });

  it('bounds the total weight with weigh, and keeps nothing heavier than max', () => {
    const map = new BoundedMap<string, string[]>({ max: 5, weigh: (value) => value.length });
    map.set('a', ['1', '2']).set('b', ['1', '2']);
    map.set('c', ['1', '2', '3']);
    expect(map.has('a')).toBe(false);
    expect(map.has('b')).toBe(true);
    map.set('b', ['1', '2', '3', '4', '5', '6']);
    expect(map.has('b')).toBe(false);
    expect(map.get('c')).toEqual(['1', '2', '3']);
    map.set('d', ['1', '2']);
    expect(map.size).toBe(2);
  });

  it('expires entries ttlMs after they were set, by its clock or the time given', () => {
    let now = 1_000;
    const map = new BoundedMap<string, number>({ max: 10, ttlMs: 100, now: () => now });
    map.set('a', 1);
    map.set('b', 2, 950);
    now = 1_049;
    expect(map.get('b')).toBe(2);
    now = 1_050;
    expect(map.has('b')).toBe(false);
    expect(map.get('a')).toBe(1);
    expect(map.get('a', 1_100)).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('refuses a max or ttlMs that is not positive', () => {
    expect(() => new BoundedMap({ max: 0 })).toThrow(RangeError);
    expect(() => new BoundedMap({ max: 1, ttlMs: 0 })).toThrow(RangeError);
  });

  it('behaves as a plain Map that drops its oldest keys past max, whatever the operations', () => {
    const operation = (keys: number) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.record({ op: fc.constant('set' as const), key: fc.integer({ min: 0, max: keys }), value: fc.integer({ min: 0, max: 4 }) }) },
        { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), key: fc.integer({ min: 0, max: keys }) }) },
        { weight: 2, arbitrary: fc.record({ op: fc.constant('get' as const), key: fc.integer({ min: 0, max: keys }) }) },
        { weight: 1, arbitrary: fc.record({ op: fc.constant('clear' as const) }) },
      );
    const run = (max: number, weighed: boolean, operations: { op: string; key?: number; value?: number }[]) => {
      const weigh = (value: number) => (weighed ? value : 1);
      const map = new BoundedMap<number, number>({ max, ...(weighed ? { weigh } : {}) });
      const model = new Map<number, number>();
      const total = () => [...model.values()].reduce((sum, value) => sum + weigh(value), 0);
      for (const step of operations) {
        if (step.op === 'set') {
          model.delete(step.key!);
          if (weigh(step.value!) <= max) {
            while (model.size > 0 && total() + weigh(step.value!) > max) model.delete(model.keys().next().value!);
            model.set(step.key!, step.value!);
          }
          map.set(step.key!, step.value!);
        } else if (step.op === 'delete') {
          expect(map.delete(step.key!)).toBe(model.delete(step.key!));
        } else if (step.op === 'clear') {
          model.clear();
          map.clear();
        } else {
          expect(map.get(step.key!)).toBe(model.get(step.key!));
        }
        expect(map.size).toBe(model.size);
      }
      for (const [key, value] of model) expect(map.get(key)).toBe(value);
    };
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.boolean(), fc.array(operation(12), { maxLength: 80 }), run), { numRuns: 300 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 60 }), fc.boolean(), fc.array(operation(200), { maxLength: 2_000 }), run), { numRuns: 30 });
  });

  it('keeps evicting in order through long churn (the walk of the oldest survives the map growing and shrinking)', () => {
    const map = new BoundedMap<number, number>({ max: 1_000 });
    const model = new Map<number, number>();
    const set = (key: number, value: number) => {
      map.set(key, value);
      model.delete(key);
      if (model.size >= 1_000) model.delete(model.keys().next().value!);
      model.set(key, value);
    };
    for (let i = 0; i < 20_000; i++) {
      set(i, i);
      if (i % 7 === 0) expect(map.delete(i - 500)).toBe(model.delete(i - 500));
      if (i % 11 === 0) set(i - 300, -i);
      if (i % 5_000 === 4_999) for (const key of [...model.keys()].slice(0, 900)) expect(map.delete(key)).toBe(model.delete(key));
    }
    expect(map.size).toBe(model.size);
    for (const [key, value] of model) expect(map.get(key)).toBe(value);
  });
});
