import { describe, expect, it } from 'vitest';
import { fileEvidence, GTM_AUDIT_AREAS, RUBRIC, type Candidate } from '../../src/runs/rubric.ts';

const company = { names: (text: string) => /\bAcme\b/.test(text) };
const candidate = (sentence: string, extra: Partial<Candidate> = {}): Candidate => ({
  sentence,
  source: { url: `https://acme.com/${sentence.length}`, title: 'Acme', domain: 'acme.com', publishedAt: '2026-06-01' },
  own: true,
  named: /\bAcme\b/.test(sentence),
  subject: true,
  recent: true,
  ...extra,
});

/** Which area and points each sentence was filed under. */
function filing(candidates: Candidate[]) {
  const filed = fileEvidence(candidates, company);
  const out = new Map<string, string[]>();
  for (const area of GTM_AUDIT_AREAS) {
    for (const { point, candidate: index } of filed[area]) {
      if (index === undefined) continue;
      const key = candidates[index]!.sentence;
      out.set(key, [...(out.get(key) ?? []), `${area}/${point.id}`]);
    }
  }
  return out;
}

describe('the gtm-audit rubric files evidence', () => {
  it('files a sentence under one area only, letting each point take a sentence no other area needs', () => {
    const both = 'Every paid Acme plan comes with a 14-day free trial, and no credit card is required to start.';
    const selfServe = 'Teams can sign up for Acme online.';
    const out = filing([candidate(both), candidate(selfServe)]);
    expect(out.get(both)).toEqual(['pricing/trial']);
    // The self-serve point takes the other sentence ("sign up"), though the first one meets it too.
    expect(out.get(selfServe)).toEqual(['channels/self-serve']);
    for (const points of out.values()) expect(new Set(points.map((p) => p.split('/')[0])).size).toBe(1);
  });

  it('gives the same filing whatever order the sentences come in', () => {
    const sentences = [
      'Acme Analytics is the product analytics platform built for B2B SaaS teams, trusted by more than 2,100 companies.',
      'The Growth plan costs $39 per seat per month, and Business is $79 per seat per month.',
      'Acme integrates with Salesforce and HubSpot, and is listed on the Salesforce AppExchange marketplace.',
      'Northfield switched from Globex to Acme Analytics after a long rollout.',
    ].map((s) => candidate(s));
    const forward = filing(sentences);
    expect(filing([...sentences].reverse())).toEqual(forward);
    expect(forward.size).toBe(4);
  });

  it('does not read a salary or a funding round as a published price', () => {
    const out = filing([
      candidate('The base salary range for this Acme role is $170,000 to $205,000 per year plus equity.'),
      candidate('Acme raised a $62 million Series C to grow its plans in Europe.'),
    ]);
    expect([...out.values()].flat().filter((p) => p.startsWith('pricing/'))).toEqual([]);
  });

  it('has five points per area, each with advice and a priority', () => {
    for (const area of GTM_AUDIT_AREAS) {
      expect(RUBRIC[area].points).toHaveLength(5);
      for (const point of RUBRIC[area].points) expect(point.advice.length).toBeGreaterThan(10);
    }
  });
});
