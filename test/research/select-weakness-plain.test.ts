import { describe, expect, it } from 'vitest';
import { answerTypeMatch, sentenceAnswerTypes, statesWeaknessPlainly } from '../../src/research/answer-types.ts';
import { sentenceCandidates, type PassageFacts } from '../../src/research/select.ts';
import { analyzePassage, marksPlainWeakness } from '../../src/research/sentence-facts.ts';

const PLAIN = [
  'The main limitation of Lumetric is that it offers thin reporting on accounts and revenue.',
  '"Reporting is the weak spot: anything beyond one location means exporting to a spreadsheet," wrote an operations director.',
  'Reviewers most often criticize renewal pricing and the speed of the admin console.',
  'Pricey for what you get in training content, wrote one reviewer.',
  'Its main drawback is a clunky mobile app.',
];
/** A weakness word, but one with other senses: no judgment in so many words. */
const FAINT = [
  'Lumetric is the digital experience analytics platform that shows why users struggle.',
  'Shiftlark Payroll files federal, state and local payroll taxes and issues W-2 forms.',
  '"Independent restaurants run on thin margins," said the chief executive.',
  'Heedra measures each person\'s risk and nudges them in Slack or Teams.',
];

describe('a weakness stated plainly, and one read from a word with other senses', () => {
  it('tells a judgment from a word that only may be one; both still hold a weakness', () => {
    for (const sentence of PLAIN) expect(statesWeaknessPlainly(sentence), sentence).toBe(true);
    for (const sentence of FAINT) expect(statesWeaknessPlainly(sentence), sentence).toBe(false);
    for (const sentence of [...PLAIN, ...FAINT]) expect(sentenceAnswerTypes(sentence), sentence).toContain('weakness');
  });

  it('is stored as a mark of the sentence\'s facts', () => {
    const [plain, faint] = analyzePassage(`${PLAIN[0]} ${FAINT[0]}`);
    expect(marksPlainWeakness(plain!.answers)).toBe(true);
    expect(marksPlainWeakness(faint!.answers)).toBe(false);
  });

  it('halves the answer-type match of a sentence whose only weakness is faint', () => {
    expect(answerTypeMatch(['weakness'], ['weakness'], ['weakness'])).toBe(0.5);
    expect(answerTypeMatch(['weakness'], ['weakness'])).toBe(1);
    // A rating held beside a faint weakness is a full hit of its own.
    expect(answerTypeMatch(['weakness', 'rating'], ['weakness', 'rating'], ['weakness'])).toBe(1);
  });

  it('ranks the plain weakness above the faint one in selection, other features alike', () => {
    const text = `${PLAIN[0]} ${FAINT[0]}`;
    const passage: PassageFacts = { sourceKey: 'https://reviews.example/lumetric', title: 'Lumetric review', score: -1, publishedAt: null, text, sentences: analyzePassage(text, (s) => s) };
    const found = new Map(sentenceCandidates([passage], 'Lumetric weaknesses', undefined).map((c) => [c.key, c.features.evidence.answerType]));
    expect(found.get(PLAIN[0]!)).toBe(1);
    expect(found.get(FAINT[0]!)).toBe(0.5);
  });
});
