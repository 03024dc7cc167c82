import { describe, expect, it } from 'vitest';
import { EVIDENCE_FEATURES } from '../../src/research/ranking.ts';
import { redundancy, subjectStems, type RankedPassage, type SelectedSentence } from '../../src/research/select.ts';
import { selectSentences } from '../helpers/select-text.ts';

function passage(sourceKey: string, title: string, text: string, score = -1, publishedAt: string | null = '2026-01-01'): RankedPassage {
  return { sourceKey, title, text, score, domain: new URL(sourceKey).hostname, publishedAt };
}

const pick = (passages: RankedPassage[], topic: string, count = 5, perSource = 2) =>
  selectSentences(passages, topic, undefined, { count, perSource }).map((s) => s.sentence);

describe('selectSentences', () => {
  it('meets the forms of a word through the stemmer ("pricing" finds "prices" and "priced")', () => {
    const chosen = pick(
      [passage('https://initech.io/about', 'About Initech', 'Initech prices are set per warehouse every year. Initech was priced low at launch in spring. Initech has offices in Lyon and Porto.')],
      'Initech pricing',
    );
    expect(chosen).toEqual(expect.arrayContaining(['Initech prices are set per warehouse every year.', 'Initech was priced low at launch in spring.']));
  });

  it('admits a sentence that shares no word with the topic when it holds the answer type asked for', () => {
    const text = 'The role is based in our Porto office with the platform team. The on-target earnings for this role are 90,000 to 110,000 euros.';
    const chosen = pick([passage('https://initech.io/careers/sales', 'Account Executive at Initech', text)], 'Initech account executive salary');
    expect(chosen[0]).toBe('The on-target earnings for this role are 90,000 to 110,000 euros.');
  });

  it('counts the words of the source title for its sentences, at a discount', () => {
    const sentence = 'Annual contracts start at $60,000 for every customer.';
    const [onPricingPage] = selectSentences([passage('https://initech.io/pricing', 'Initech pricing', sentence)], 'Initech pricing', undefined, { count: 1, perSource: 1 });
    const [elsewhere] = selectSentences([passage('https://initech.io/blog', 'A note from the team', sentence)], 'Initech pricing', undefined, { count: 1, perSource: 1 });
    const [inWords] = selectSentences(
      [passage('https://initech.io/blog', 'A note from the team', 'Initech pricing: annual contracts start at $60,000 for every customer.')],
      'Initech pricing',
      undefined,
      { count: 1, perSource: 1 },
    );
    const coverage = (s: SelectedSentence) => [s.features.evidence.coverage, s.features.evidence.titleCoverage];
    expect(coverage(onPricingPage!)).toEqual([0, 1]); // both words, from the title
    expect(coverage(elsewhere!)).toEqual([0, 0]); // admitted by its answer type alone
    expect(coverage(inWords!)).toEqual([1, 0]);
    expect(inWords!.relevance).toBeGreaterThan(onPricingPage!.relevance);
    expect(onPricingPage!.relevance).toBeGreaterThan(elsewhere!.relevance);
  });

  it('prefers a sentence that holds the kind of answer asked for', () => {
    const text = 'Initech pricing is simple and fair for every team size. Initech pricing starts at $45 per seat per month.';
    expect(pick([passage('https://initech.io/pricing', 'Plans', text)], 'Initech pricing', 1, 1)).toEqual(['Initech pricing starts at $45 per seat per month.']);
  });

  it('keeps two sentences that differ only in their figures, and drops a repeat with the same figures', () => {
    const a = passage('https://reviews.example/1', 'Initech review', 'The reviewer rated Initech 4 out of 5 overall.');
    const b = passage('https://reviews.example/2', 'Initech review', 'The reviewer rated Initech 3 out of 5 overall.');
    const c = passage('https://reviews.example/3', 'Initech review', 'A reviewer rated Initech 4 out of 5 overall.');
    const chosen = pick([a, b, c], 'Initech ratings');
    expect(chosen).toContain('The reviewer rated Initech 4 out of 5 overall.');
    expect(chosen).toContain('The reviewer rated Initech 3 out of 5 overall.');
    expect(chosen).not.toContain('A reviewer rated Initech 4 out of 5 overall.');
  });

  it('measures redundancy with figures as tokens of their own, halved when the figures differ', () => {
    const tokens = (words: string[], figures: string[]) => ({ tokens: new Set([...words, ...figures]), figures });
    expect(redundancy(tokens(['plan', 'cost'], ['#$49']), tokens(['plan', 'cost'], ['#$49']))).toBe(1);
    expect(redundancy(tokens(['plan', 'cost'], ['#$49']), tokens(['plan', 'cost'], ['#$99']))).toBeCloseTo(0.25);
    expect(redundancy(tokens(['plan', 'cost'], []), tokens(['plan', 'cost'], ['#$99']))).toBeCloseTo(2 / 3);
  });

  it('makes a sentence stated by several sources one candidate citing them all', () => {
    const sentence = 'Initech usually takes ten weeks to implement for a new customer.';
    const selected = selectSentences(
      [passage('https://news.example/a', 'Initech news', sentence, -2), passage('https://blog.example/b', 'Initech notes', `${sentence} It needs an admin.`, -1)],
      'Initech implementation time',
      undefined,
      { count: 5, perSource: 2 },
    );
    expect(selected.filter((s) => s.sentence === sentence)).toEqual([expect.objectContaining({ sourceKey: 'https://news.example/a', alsoSourceKeys: ['https://blog.example/b'] })]);
  });

  it('counts a repeated sentence against a source that still has room', () => {
    const shared = 'Initech grew its customer base by 60 percent in 2024.';
    const full = passage('https://initech.io/press', 'Press release', `Initech funding: a $30 million Series B round. The round brings Initech funding to $44 million. ${shared}`, -2);
    const copy = passage('https://news.example/initech', 'News', shared, -1);
    const selected = selectSentences([full, copy], 'Initech funding', undefined, { count: 5, perSource: 2, floor: 0 });
    // The press release's own two best sentences fill its quota; the shared one is still chosen, counted against the copy.
    expect(selected.filter((s) => s.sourceKey === 'https://initech.io/press').map((s) => s.sentence)).toEqual([
      'Initech funding: a $30 million Series B round.',
      'The round brings Initech funding to $44 million.',
    ]);
    expect(selected.find((s) => s.sentence === shared)).toMatchObject({ sourceKey: 'https://news.example/initech', alsoSourceKeys: ['https://initech.io/press'] });
  });

  it('does not pad: sentences far below the best are left out even when fewer than asked', () => {
    const text =
      'Initech Enterprise costs $60,000 a year on annual contracts for every customer. ' +
      'Our office dog is called Pixel and loves the Enterprise team.';
    const chosen = pick([passage('https://initech.io/pricing', 'Initech Enterprise pricing', text)], 'Initech Enterprise price', 5, 5);
    expect(chosen).toEqual(['Initech Enterprise costs $60,000 a year on annual contracts for every customer.']);
  });

  it('weighs down a sentence that misses the subject the topic names', () => {
    const selected = selectSentences(
      [
        passage('https://initech.io/pricing', 'Initech pricing', 'Initech Pro costs $45 per seat per month for all teams.', -1),
        passage('https://hooli.example/pricing', 'Hooli pricing', 'Hooli Max costs $45 per seat per month for all teams.', -1),
      ],
      'Initech Pro price',
      undefined,
      { count: 5, perSource: 2, floor: 0 },
    );
    expect(selected.map((s) => [s.sourceKey, s.features.aboutness])).toEqual([
      ['https://initech.io/pricing', 'opensWithAsked'],
      ['https://hooli.example/pricing', 'missesAsked'],
    ]);
    expect(subjectStems('Initech Pro price')).toEqual(new Set(['initech', 'pro']));
    expect(subjectStems('initech pro price')).toEqual(new Set());
  });

  it('ranks a sentence about the company asked for above one naming it in passing, and one about a company not asked for last', () => {
    const review = passage(
      'https://reviews.example/compare',
      'Plan prices compared',
      'Initech charges $45 per seat per month on its Pro plan. Globex charges $60 per seat per month, more than Initech on its Pro plan. Globex charges $60 per seat per month on its Team plan.',
    );
    const chosen = selectSentences([review], 'Initech Pro plan price', undefined, { count: 3, perSource: 3, floor: 0, names: ['Globex'] });
    expect(chosen.map((s) => s.sentence)).toEqual([
      'Initech charges $45 per seat per month on its Pro plan.',
      'Globex charges $60 per seat per month, more than Initech on its Pro plan.',
      'Globex charges $60 per seat per month on its Team plan.',
    ]);
    expect(chosen.map((s) => [s.features.aboutness, s.features.foreign])).toEqual([
      ['opensWithAsked', null],
      ['namesAskedInPassing', 'opensWithForeignBeside'],
      ['missesAsked', 'opensWithForeign'],
    ]);
  });

  it('lets the only source worth citing give up to twice its share, and keeps the share while another has something to say', () => {
    const caseStudy = passage(
      'https://initech.io/customers/bluefin',
      'Bluefin closes payroll faster with Initech',
      'Bluefin moved its payroll to Initech in 2025. Payroll time at Bluefin fell from 11 hours to 3 hours. Bluefin payroll errors fell to zero within two quarters. Bluefin payroll now runs in 38 restaurants.',
    );
    const alone = pick([caseStudy], 'Bluefin payroll results with Initech', 5, 2);
    expect(alone.length).toBe(4);
    const review = passage('https://reviews.example/bluefin', 'Bluefin payroll review', 'Bluefin payroll results with Initech were praised by its controller in 2026.');
    const withAnother = selectSentences([caseStudy, review], 'Bluefin payroll results with Initech', undefined, { count: 5, perSource: 2 });
    expect(withAnother.filter((s) => s.sourceKey === review.sourceKey)).toHaveLength(1);
    expect(withAnother.filter((s) => s.sourceKey === caseStudy.sourceKey).length).toBeGreaterThanOrEqual(2);
  });

  it('is deterministic and explains each choice', () => {
    const passages = [
      passage('https://initech.io/pricing', 'Initech pricing', 'Initech Pro costs $45 per seat per month. Every Initech plan has a 14-day free trial.', -3),
      passage('https://news.example/initech', 'Initech news', 'Initech raised prices by 10 percent in 2025, analysts said.', -2),
    ];
    const first = selectSentences(passages, 'Initech pricing', undefined, { count: 5, perSource: 2 });
    expect(selectSentences(passages, 'Initech pricing', undefined, { count: 5, perSource: 2 })).toEqual(first);
    for (const s of first) {
      expect(Object.keys(s.features).sort()).toEqual(['aboutness', 'addOn', 'earlier', 'evidence', 'foreign', 'future', 'otherRole']);
      expect(Object.keys(s.features.evidence).sort()).toEqual([...EVIDENCE_FEATURES].sort());
      expect(s.relevance).toBeGreaterThan(0);
    }
  });
});
