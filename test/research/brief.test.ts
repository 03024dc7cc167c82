import { describe, expect, it } from 'vitest';
import { renderBrief, type BriefInput } from '../../src/research/brief.ts';
import type { ResearchResult } from '../../src/research/provider.ts';
import { renderMarkdown } from '../../src/dashboard/markdown.ts';
import { FINISHED_PROFILE } from '../helpers/fixtures.ts';

const SOURCES: ResearchResult['sources'] = [
  { url: 'https://initech.io/pricing', title: 'Initech pricing', domain: 'initech.io', publishedAt: '2026-04-07' },
  { url: 'https://reviews.example/initech-1', title: 'Initech review', domain: 'reviews.example', publishedAt: '2025-10-01' },
  { url: 'https://reviews.example/initech-2', title: 'Initech review', domain: 'reviews.example', publishedAt: '2026-02-11' },
  { url: 'https://hooli.example/compare', title: 'Hooli vs Initech', domain: 'hooli.example', publishedAt: '2026-01-20' },
];

function brief(topic: string, findings: ResearchResult['findings'], extra: Partial<BriefInput> = {}): string {
  return renderBrief({
    topic,
    tier: 'lite',
    date: '2026-11-23',
    result: { engine: 'embedded', sources: SOURCES, findings },
    profile: FINISHED_PROFILE,
    sourcePolicy: { include: [], exclude: [] },
    speakers: { subjects: [{ domain: 'initech.io', name: 'Initech' }], vendors: ['hooli.example'] },
    ...extra,
  });
}

const PRICE = 'Initech Pro costs $45 per seat per month, billed yearly.';
const TRIAL = 'Every Initech plan comes with a free trial for new teams.';
const REVIEW_A = 'The reviewer rated Initech 4 out of 5 after a year.';
const REVIEW_B = 'The reviewer rated Initech 3 out of 5 after a year.';
const HOOLI = 'Hooli is easier to set up than Initech for small teams.';
const SAAS_DISPATCH = 'Initech told SaaS Dispatch that it plans to grow in Europe.';
const SAAS = 'Initech serves SaaS companies with 51-200 employees across Europe.';

describe('renderBrief', () => {
  it('opens with an Answer line: the best finding holding the asked-for type, quoted, cited, with domain and date', () => {
    const markdown = brief('Initech Pro price', [
      { sentence: TRIAL, source: 0 },
      { sentence: PRICE, source: 0 },
    ]);
    const afterMeta = markdown.split('\n').slice(4);
    expect(afterMeta[0]).toBe(`**Answer:** "${PRICE}" [1] (initech.io, 2026-04-07)`);
    // The answer is not repeated as a finding.
    expect(markdown.split(PRICE)).toHaveLength(2);
  });

  it('takes the most relevant finding as the answer when the topic asks for no type', () => {
    const markdown = brief('Initech', [{ sentence: HOOLI, source: 3 }, { sentence: PRICE, source: 0 }]);
    expect(markdown).toContain(`**Answer:** "${HOOLI}" [4] (hooli.example, 2026-01-20)`);
  });

  it('groups findings by who says them: the company itself, other vendors, third parties', () => {
    const markdown = brief('What people say about Initech', [
      { sentence: TRIAL, source: 0 },
      { sentence: 'Reviewers like the Initech mobile app and its alerts.', source: 1 },
      { sentence: HOOLI, source: 3 },
      { sentence: 'Initech support answers within a day, reviewers say.', source: 2 },
      { sentence: PRICE, source: 0 },
    ]);
    const body = markdown.slice(markdown.indexOf('## Key findings'), markdown.indexOf('## Sources'));
    expect(body).toMatch(
      /### From Initech itself \(initech\.io\)\n\n1\. Initech Pro costs .* \[1\] \(initech\.io, 2026-04-07\)\n\n### From other vendors\n\n2\. Hooli is easier .* \[4\] \(hooli\.example, 2026-01-20\)\n\n### From third parties\n\n3\. Reviewers like .* \[2\] \(reviews\.example, 2025-10-01\)\n4\. Initech support .* \[3\] \(reviews\.example, 2026-02-11\)\n/,
    );
    expect(markdown).toContain('By who says it: 2 from Initech itself (initech.io), 1 from other vendors, 2 from third parties.');
  });

  it('merges a repeated statement into one finding cited by all its sources', () => {
    const same = 'Initech usually takes ten weeks to implement for new teams.';
    const markdown = brief('Initech Pro price', [
      { sentence: PRICE, source: 0 },
      { sentence: same, source: 1 },
      { sentence: same, source: 2 },
    ]);
    expect(markdown).toContain(`${same} [2][3] (reviews.example, 2025-10-01; reviews.example, 2026-02-11)`);
    expect(markdown.split(same)).toHaveLength(2);
    expect(markdown).toContain('One finding is stated word for word by several sources.');
  });

  it('shows differing figures for the same thing side by side with their dates, newest first', () => {
    const markdown = brief('Initech pricing', [
      { sentence: PRICE, source: 0 },
      { sentence: REVIEW_A, source: 1 },
      { sentence: TRIAL, source: 0 },
      { sentence: REVIEW_B, source: 2 },
    ]);
    expect(markdown).toContain(
      [
        '### Where sources differ',
        '',
        '2. Different figures for the same thing, newest first:',
        `   - "${REVIEW_B}" [3] (reviews.example, 2026-02-11)`,
        `   - "${REVIEW_A}" [2] (reviews.example, 2025-10-01)`,
      ].join('\n'),
    );
    expect(markdown).toContain('Sources give different figures for one point, shown side by side, newest first.');
  });

  it('numbers each group of differing figures as one finding', () => {
    const markdown = brief('Initech Pro price', [
      { sentence: PRICE, source: 0 },
      { sentence: REVIEW_A, source: 1 },
      { sentence: REVIEW_B, source: 2 },
      { sentence: 'Initech support answered 90 percent of tickets within a day.', source: 1 },
      { sentence: 'Initech support answered 75 percent of tickets within a day.', source: 2 },
    ]);
    expect(markdown).toMatch(/^1\. Different figures for the same thing, newest first:\n {3}- "The reviewer rated Initech 3 .*\n {3}- "The reviewer rated Initech 4 /m);
    expect(markdown).toMatch(/^2\. Different figures for the same thing, newest first:\n {3}- "Initech support answered 75 .*\n {3}- "Initech support answered 90 /m);
  });

  it('writes a summary that counts and dates but never repeats a finding', () => {
    const markdown = brief('Initech Pro price', [{ sentence: PRICE, source: 0 }, { sentence: HOOLI, source: 1 }], {
      result: { engine: 'embedded', sources: [SOURCES[0]!, SOURCES[3]!], findings: [{ sentence: PRICE, source: 0 }, { sentence: HOOLI, source: 1 }] },
    });
    const summary = markdown.slice(markdown.indexOf('## Summary'), markdown.indexOf('## Key findings'));
    // Counted as the brief shows them: the Answer line, then one finding listed below it.
    expect(summary).toContain('The answer and 1 more finding from 2 sources on 2 domains (initech.io, hooli.example), published between 2026-01-20 and 2026-04-07.');
    expect(markdown.split('\n').filter((line) => /^\d+\. /.test(line))).toHaveLength(1);
    expect(summary).not.toContain(PRICE);
    expect(summary).not.toContain(HOOLI);
  });

  it('lists its sources one per line in a CommonMark renderer, each still a `[n] ...` line', () => {
    const markdown = brief('Initech Pro price', [
      { sentence: PRICE, source: 0 },
      { sentence: HOOLI, source: 3 },
      { sentence: REVIEW_A, source: 1 },
    ]);
    const sources = markdown.slice(markdown.indexOf('## Sources'));
    expect(sources.split('\n').filter((line) => /^\[\d+\] /.test(line))).toHaveLength(4);
    const html = renderMarkdown(sources);
    expect(html.match(/<p>\[\d+\] /g)).toHaveLength(4);
  });

  it('names a sales-profile tag only where a finding supports it, and says which', () => {
    const markdown = brief('Initech customers', [
      { sentence: SAAS, source: 0 },
      { sentence: SAAS_DISPATCH, source: 1 },
      { sentence: 'Initech lost two deals to Globex last quarter, reviewers say.', source: 2 },
    ]);
    const section = markdown.slice(markdown.indexOf('## How this relates'), markdown.indexOf('## Sources'));
    expect(section).toContain('- **SaaS** (an industry you sell to): the answer.');
    expect(section).toContain('- **51-200** (a company size you sell to): the answer.');
    expect(section).toContain('- **globex.com** (a competitor you named): finding 2.');
    // "SaaS Dispatch" is a name, not the SaaS industry: that finding supports no tag.
    expect(section).not.toContain('finding 1');
    expect(section.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(3);
  });

  it('lists findings without groups when it does not know who speaks', () => {
    const markdown = brief('Initech Pro price', [{ sentence: PRICE, source: 0 }, { sentence: HOOLI, source: 3 }], { speakers: undefined });
    expect(markdown).not.toContain('### ');
    expect(markdown).toContain(`1. ${HOOLI} [4] (hooli.example, 2026-01-20)`);
  });
});
