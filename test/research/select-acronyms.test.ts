import { describe, expect, it } from 'vitest';
import { sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

function passage(text: string): PassageFacts {
  return { sourceKey: 'https://research.example/notes', title: 'Notes', score: -1, publishedAt: null, text, sentences: analyzePassage(text, (sentence) => sentence) };
}

function coverage(text: string, topic: string) {
  return new Map(sentenceCandidates([passage(text)], topic, undefined).map((c) => [c.key, c.features.evidence.coverage]));
}

describe('a term and its initials', () => {
  it('are the same words: "ARR" holds "annual recurring revenue"', () => {
    const found = coverage(
      "We estimate Mizeledger's ARR at US$41 million at the end of 2025. Mizeledger's annual recurring revenue passed US$30 million in early 2024.",
      'Mizeledger annual recurring revenue',
    );
    expect(found.get("We estimate Mizeledger's ARR at US$41 million at the end of 2025.")).toBe(1);
    expect(found.get("Mizeledger's annual recurring revenue passed US$30 million in early 2024.")).toBe(1);
  });

  it('are the same words the other way: "chief financial officer" holds "CFO"', () => {
    const found = coverage('Priya Lindqvist is the chief financial officer of Counterbell and joined in 2024. Dominic Harrow founded Counterbell in 2019 with two partners.', 'Counterbell CFO');
    expect(found.get('Priya Lindqvist is the chief financial officer of Counterbell and joined in 2024.')).toBe(1);
    expect(found.get('Dominic Harrow founded Counterbell in 2019 with two partners.')).toBe(0.5);
  });

  it('hold nothing when the initials only start a word ("Arrears")', () => {
    const found = coverage('Arrears grew at Mizeledger for the third year running.', 'Mizeledger annual recurring revenue');
    expect(found.get('Arrears grew at Mizeledger for the third year running.')).toBe(0.25);
  });
});
