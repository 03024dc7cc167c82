import { describe, expect, it } from 'vitest';
import { citedClaims, corpusContents, normalizeClaim, parseBrief, percent, scoreBrief, scoreLine, totalScore } from '../../scripts/lib/research-score.ts';

// scripts/lib/research-score.ts: `npm run score:research`'s port of the shared scorer. Each
// expectation below is also what ../shared/tools/score-research.py gives for the same brief.

const CORPUS = [
  JSON.stringify({ type: 'company', key: 'kelvra.com', properties: { name: 'Kelvra' } }),
  JSON.stringify({
    type: 'source',
    key: 'https://kelvra.com/pricing',
    properties: { title: 'Kelvra pricing', content: 'Kelvra Core is $9 per device monthly.\nA replacement probe is $35,   shipped within two days.' },
  }),
  JSON.stringify({ type: 'source', key: 'https://fleetreviews.net/kelvra', properties: { title: 'Kelvra review', content: 'Four stars: the "alerts arrive late at night" complaint is common.' } }),
  '',
].join('\n');

const BRIEF = `# Research brief: Kelvra prices

**Answer:** Kelvra lists one figure: “A replacement probe is $35, shipped within two days.” [1] (kelvra.com)

## Key findings

1. Kelvra Core is **$9 per device** monthly. [1] (kelvra.com, 2025-11-04)
2. Kelvra Core is $12 per device monthly. [1][2]
- The alerts arrive late at night [2]
3. Short one [2]

## Sources

[1] Kelvra pricing, kelvra.com, https://kelvra.com/pricing.
[2] Kelvra review, fleetreviews.net, https://fleetreviews.net/kelvra
`;

describe('the research scorer', () => {
  const corpus = corpusContents(CORPUS);

  it('reads the sources of a corpus, key to content, and the numbered Sources of a brief', () => {
    expect([...corpus.keys()]).toEqual(['https://kelvra.com/pricing', 'https://fleetreviews.net/kelvra']);
    const { body, refs } = parseBrief(BRIEF);
    expect(body.trimEnd().endsWith('3. Short one [2]')).toBe(true);
    expect([...refs]).toEqual([
      ['1', 'https://kelvra.com/pricing'],
      ['2', 'https://fleetreviews.net/kelvra'],
    ]);
  });

  it('takes a claim as the text before its marks, or the last quotation in it, normalized; shorter than 12 characters, none', () => {
    expect(citedClaims(parseBrief(BRIEF).body)).toEqual([
      { claim: 'A replacement probe is $35, shipped within two days', marks: ['1'] },
      { claim: 'Kelvra Core is $9 per device monthly', marks: ['1'] },
      { claim: 'Kelvra Core is $12 per device monthly', marks: ['1', '2'] },
      { claim: 'The alerts arrive late at night', marks: ['2'] },
    ]);
    expect(normalizeClaim('  “Quoted” *text*_,\u00a0 with   spaces ;: ')).toBe('Quoted" text, with spaces');
  });

  it('counts a claim faithful only when a source its marks name states it verbatim (after normalizing both)', () => {
    const score = scoreBrief(BRIEF, { topic: 'Kelvra prices', gold: ['https://kelvra.com/pricing'], facts: [] }, corpus);
    expect(score).toMatchObject({ claims: 4, faithful: 2 });
    // $12 is in no source; [2] has the alerts sentence only with another case and quotation marks.
    expect(score.unfaithful).toEqual([
      { claim: 'Kelvra Core is $12 per device monthly', marks: ['1', '2'] },
      { claim: 'The alerts arrive late at night', marks: ['2'] },
    ]);
  });

  it('counts a claim unfaithful when its mark names no listed source, or a source not in the corpus', () => {
    const brief = `1. Kelvra Core is $9 per device monthly. [3]\n2. A replacement probe is $35 [1]\n\n## Sources\n\n[1] https://kelvra.example/elsewhere\n`;
    expect(scoreBrief(brief, { topic: 't', gold: [] }, corpus)).toMatchObject({ claims: 2, faithful: 0 });
    expect(scoreBrief(brief.replace('## Sources', '## Références'), { topic: 't', gold: [] }, corpus)).toMatchObject({ claims: 2, faithful: 0 });
  });

  it('finds a gold source among the cited ones, and a fact by any of its phrasings, case-sensitive, anywhere in the brief', () => {
    const facts = [['$35 per probe', 'replacement probe is $35'], '$9 per device', 'Kelvra Core is $9 per device monthly', 'two days', 'Two days', ['$40', 'forty dollars']];
    const hit = scoreBrief(BRIEF, { topic: 'Kelvra prices', gold: ['https://example.com/x', 'https://fleetreviews.net/kelvra'], facts }, corpus);
    expect(hit).toMatchObject({ goldCited: true, facts: 6, factsStated: 3 });
    // '**$9 per device**' does not contain the plain phrase '$9 per device monthly'; the markdown is read as written.
    expect(hit.factsNotStated).toEqual(['Kelvra Core is $9 per device monthly', 'Two days', ['$40', 'forty dollars']]);
    expect(scoreBrief(BRIEF, { topic: 'Kelvra prices', gold: ['https://kelvra.com/pricing/'] }, corpus).goldCited).toBe(false);
  });

  it('says whether the Answer line itself states a fact, not only the brief', () => {
    expect(scoreBrief(BRIEF, { topic: 'a', gold: [], facts: ['replacement probe is $35'] }, corpus).answerStatesFact).toBe(true);
    // Stated in the brief (a finding), not in its Answer line.
    expect(scoreBrief(BRIEF, { topic: 'a', gold: [], facts: ['$12 per device'] }, corpus)).toMatchObject({ factsStated: 1, answerStatesFact: false });
    expect(scoreBrief('No answer line. [1]', { topic: 'a', gold: [], facts: ['No answer'] }, corpus).answerStatesFact).toBe(false);
  });

  it('sums a corpus and prints its line', () => {
    const scores = [
      scoreBrief(BRIEF, { topic: 'a', gold: ['https://kelvra.com/pricing'], facts: ['two days'] }, corpus),
      scoreBrief(BRIEF, { topic: 'b', gold: ['https://nowhere.example/'], facts: ['$99'] }, corpus),
    ];
    expect(scoreLine('kelvra', totalScore(scores))).toBe(
      'kelvra: faithful 4/8 claims (50%), gold cited 1/2 questions (50%), facts stated 1/2 (50%), answer line states a fact 1/2 (50%)',
    );
    expect([percent(217, 218), percent(218, 218), percent(1, 1000), percent(0, 0)]).toEqual(['99.5%', '100%', '0.1%', '-']);
    // Never rounded up past a target: 39 of 46 is under 85%.
    expect([percent(39, 46), percent(51, 60), percent(61, 69)]).toEqual(['84.8%', '85%', '88%']);
  });
});
