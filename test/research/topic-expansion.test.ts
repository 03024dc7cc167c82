import { describe, expect, it } from 'vitest';
import { topicExpansions } from '../../src/research/topic-expansion.ts';

describe('what a topic means without writing it', () => {
  it('reads a C-level title as the department a page names instead', () => {
    expect(topicExpansions("who is Initech's CFO")).toEqual(['finance', 'financial']);
    expect(topicExpansions('Initech CTO')).toEqual(['technology', 'engineering']);
  });

  it('reads "who runs" (leads, heads) a company as asking for its chief executive', () => {
    expect(topicExpansions('who runs Initech')).toEqual(['ceo', 'chief', 'executive', 'founder']);
    expect(topicExpansions('who leads Initech')).toEqual(['ceo', 'chief', 'executive', 'founder']);
    // "runs" without "who" names no role.
    expect(topicExpansions('Initech runs on Postgres')).toEqual([]);
  });

  it('reads a spelled-out term by its initials', () => {
    expect(topicExpansions('Initech annual recurring revenue')).toContain('arr');
    expect(topicExpansions('Initech average handle time')).toEqual(['aht']);
    // A run with a stopword, or of more than four words, has no initials worth searching.
    expect(topicExpansions('how long does a rollout take')).toEqual([]);
  });

  it('reads a hyphenated word by its parts too', () => {
    expect(topicExpansions('Initech discount for a two-year contract')).toEqual(['two', 'year']);
  });

  it('spells out an upper-case place abbreviation, not the pronoun', () => {
    expect(topicExpansions('when did Initech launch in the US')).toEqual(['united', 'states', 'american']);
    expect(topicExpansions('tell us about Initech')).toEqual([]);
  });

  it('adds nothing to a topic without a title or a run of lower-case words, nor a word it holds', () => {
    expect(topicExpansions('Initech Pro plan price')).toEqual([]);
    expect(topicExpansions('Initech pricing')).toEqual([]);
    expect(topicExpansions('cfo finance')).toEqual(['financial']);
  });
});
