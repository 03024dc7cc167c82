import { describe, expect, it } from 'vitest';
import { jobTitlesIn, rolesAsked, rolesIn } from '../../src/research/answer-types.ts';
import { PRIOR_WEIGHTS, relevanceOf } from '../../src/research/ranking.ts';
import { sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage } from '../../src/research/sentence-facts.ts';

function passage(text: string): PassageFacts {
  return { sourceKey: 'https://gratuvo.example/team', title: 'Team', score: -1, publishedAt: null, text, sentences: analyzePassage(text, (sentence) => sentence) };
}

const TEAM =
  'Theo Achterberg, co-founder and chief operating officer, runs payments, compliance and support. ' +
  "Camila Dunleavy is Gratuvo's co-founder and chief executive officer. " +
  'Priya Lindqvist, who runs our finance team, joined from a restaurant technology company in 2024. ' +
  'Gratuvo pays out more than $90 million in tips every month across 2,600 restaurants.';

function otherRole(topic: string) {
  return new Map(sentenceCandidates([passage(TEAM)], topic, undefined).map((c) => [c.key, c.features.otherRole]));
}

describe('the role a topic asks for', () => {
  it('is read from a title, its words, or "who runs"', () => {
    expect(rolesAsked('who runs Gratuvo')).toBe(rolesIn('CEO'));
    expect(rolesAsked("who is Counterbell's CFO")).toBe(rolesIn('chief financial officer'));
    expect(rolesAsked('who founded Rostrella')).toBe(rolesIn('co-founder'));
    expect(rolesAsked('Gratuvo pricing')).toBe(0);
  });

  it('marks a sentence that names only other roles, as a near miss', () => {
    const found = otherRole('who runs Gratuvo');
    expect(found.get('Theo Achterberg, co-founder and chief operating officer, runs payments, compliance and support.')).toBe(true);
    expect(found.get("Camila Dunleavy is Gratuvo's co-founder and chief executive officer.")).toBe(false);
    // A sentence naming no role is no near miss of one.
    expect(found.get('Gratuvo pays out more than $90 million in tips every month across 2,600 restaurants.')).toBe(false);
  });

  it('reads a department as its chief: "who runs our finance team" is the CFO', () => {
    const found = otherRole('who is the CFO of Gratuvo');
    expect(found.get('Priya Lindqvist, who runs our finance team, joined from a restaurant technology company in 2024.')).toBe(false);
    expect(found.get("Camila Dunleavy is Gratuvo's co-founder and chief executive officer.")).toBe(true);
  });

  it('marks nothing when the topic asks for no role', () => {
    expect([...otherRole('Gratuvo team').values()].every((marked) => !marked)).toBe(true);
  });

  it('marks a sentence that names only another job title than the one asked about', () => {
    const JOB =
      'We are also hiring a Customer Success Manager for enterprise accounts at $95,000 to $110,000 plus bonus. ' +
      'Compensation is $165,000 to $195,000 base plus equity. ' +
      'Heedra is hiring a Senior Detection Engineer to build its risk signals.';
    const marked = (topic: string) => new Map(sentenceCandidates([passage(JOB)], topic, undefined).map((c) => [c.key, c.features.otherRole]));
    const found = marked('Heedra detection engineer salary');
    expect(found.get('We are also hiring a Customer Success Manager for enterprise accounts at $95,000 to $110,000 plus bonus.')).toBe(true);
    expect(found.get('Compensation is $165,000 to $195,000 base plus equity.')).toBe(false);
    expect(found.get('Heedra is hiring a Senior Detection Engineer to build its risk signals.')).toBe(false);
    // A topic naming no job title marks no title.
    expect([...marked('Heedra salaries').values()].every((other) => !other)).toBe(true);
  });

  it('reads job titles as whole words: "market", "account" and "engine" share a stem with a title and name no one', () => {
    expect([...jobTitlesIn('Tabbrook market share in restaurant payroll')]).toEqual([]);
    expect([...jobTitlesIn('enterprise accounts, the rules engine and international development')]).toEqual([]);
    expect([...jobTitlesIn('Sales Development Representatives and an Account Executive')]).toEqual(['representative', 'executive']);
    const SHARE =
      'In payroll, Tabbrook is the largest restaurant specialist with an estimated 14 percent share of restaurant payroll. ' +
      'Tabbrook is hiring a Payroll Implementation Specialist in Columbus.';
    const found = new Map(sentenceCandidates([passage(SHARE)], 'Tabbrook market share in restaurant payroll', undefined).map((c) => [c.key, c.features.otherRole]));
    expect([...found.values()]).toEqual([false, false]);
  });

  it('costs its weight as a log factor, and nothing under a weight of 0', () => {
    const marked = sentenceCandidates([passage(TEAM)], 'who runs Gratuvo', undefined).find((c) => c.features.otherRole)!.features;
    const base = relevanceOf(marked, { ...PRIOR_WEIGHTS, otherRole: 0 });
    expect(relevanceOf(marked, { ...PRIOR_WEIGHTS, otherRole: Math.log(0.5) })).toBeCloseTo(base / 2);
  });
});
