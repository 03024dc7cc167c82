import { describe, expect, it } from 'vitest';
import { extractFindings, type Retrieved } from '../../src/research/embedded-pipeline.ts';
import type { FoundPassage } from '../../src/db/passages.ts';

function found(id: number, sourceKey: string, title: string, text: string, score: number): FoundPassage {
  return { id, sourceKey, text, title, domain: new URL(sourceKey).hostname, publishedAt: '2026-03-01', score, facts: null };
}

const RETRIEVED: Retrieved = {
  found: [
    found(1, 'https://softgauge.example/best/training', 'Best security awareness training vendors', 'Security awareness training vendors charge from $18 to $42 per user per year for their main plans, and most sell annual contracts. The cheapest option we tested is Baitwise, whose Team plan costs $1.25 per user per month.', -9),
    found(2, 'https://analyst.example/notes/market', 'Security awareness training market', 'Organizations spent an estimated $3.4 billion on security awareness training vendors in 2025, and the market grows 13 percent a year.', -9.5),
  ],
  companies: [],
};

describe('the Answer for a superlative', () => {
  it('is a sentence that states the superlative when one holds the asked kind of answer', () => {
    const { findings } = extractFindings(RETRIEVED, { topic: 'cheapest security awareness training vendor', tier: 'lite' });
    expect(findings[0]!.sentence).toBe('The cheapest option we tested is Baitwise, whose Team plan costs $1.25 per user per month.');
  });
});
