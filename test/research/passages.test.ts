import { describe, expect, it } from 'vitest';
import { splitPassages, splitSentences } from '../../src/research/text.ts';

describe('splitPassages', () => {
  it('cuts passages out of the content with their separators, so a heading stays its own sentence when a passage is split again', () => {
    const content = 'Pricing\n\nFleet plan\n\nZephyr charges $4,200 per robot per month. Starter costs $900.\n\nPlan Price\n\nFleet $4,200';
    const [passage] = splitPassages(content);
    expect(passage).toBe(content);
    expect(splitSentences(passage!)).toEqual(['Pricing', 'Fleet plan', 'Zephyr charges $4,200 per robot per month.', 'Starter costs $900.', 'Plan Price', 'Fleet $4,200']);
  });

  it('groups sentences into passages of about the target length, each a slice of the content, every sentence verbatim in it', () => {
    const content = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says something useful.${i % 3 === 0 ? '\n\n' : ' '}`).join('').trim();
    const passages = splitPassages(content, 200);
    expect(passages.length).toBeGreaterThan(5);
    let cursor = 0;
    for (const passage of passages) {
      const at = content.indexOf(passage, cursor);
      expect(at, passage).toBeGreaterThanOrEqual(cursor);
      expect(content.slice(cursor, at).trim(), passage).toBe('');
      cursor = at + passage.length;
      expect(passage.length).toBeLessThanOrEqual(260);
      for (const sentence of splitSentences(passage)) expect(content).toContain(sentence);
    }
    expect(cursor).toBe(content.length);
    expect(passages.flatMap(splitSentences)).toEqual(splitSentences(content));
  });
});
