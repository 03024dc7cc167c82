import { describe, expect, it } from 'vitest';
import { sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

function passage(sourceKey: string, title: string, text: string): PassageFacts {
  return { sourceKey, title, score: -1, publishedAt: null, text, sentences: analyzePassage(text, (sentence) => sentence) };
}

function features(text: string, topic: string) {
  return new Map(sentenceCandidates([passage('https://news.example/a', 'News', text)], topic, undefined).map((c) => [c.key, c.features]));
}

describe('money of the scale the topic asks for', () => {
  const text = 'Harbinly sells through MSPs at $0.90 per seat per month. Harbinly announced a $60 million growth investment from Stonecrop Partners.';

  it('is a sum in millions for a funding topic', () => {
    const found = features(text, 'Harbinly funding and investors');
    expect(found.get('Harbinly announced a $60 million growth investment from Stonecrop Partners.')!.evidence.moneyScale).toBe(1);
    expect(found.get('Harbinly sells through MSPs at $0.90 per seat per month.')!.evidence.moneyScale).toBe(0);
  });

  it('is a price not in millions for a price topic', () => {
    const found = features(text, 'Harbinly price per seat');
    expect(found.get('Harbinly sells through MSPs at $0.90 per seat per month.')!.evidence.moneyScale).toBe(1);
    expect(found.get('Harbinly announced a $60 million growth investment from Stonecrop Partners.')!.evidence.moneyScale).toBe(0);
  });

  it('is nothing when the topic asks for no scale of money', () => {
    for (const feature of features(text, 'Harbinly account executive salary').values()) expect(feature.evidence.moneyScale).toBe(0);
  });
});
