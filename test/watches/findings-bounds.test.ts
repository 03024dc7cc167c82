import { describe, expect, it } from 'vitest';
import { MAX_CLAIM_CHARS, MAX_CLAIMS_PER_EXECUTION, MAX_FINDINGS_LISTED, type Claim } from '../../src/ground/schemas/watch.ts';
import type { ResearchResult } from '../../src/research/provider.ts';
import { changesSection, claimsOf, compareClaims, findingsOf, MAX_CLAIM_URL_CHARS, type Baseline } from '../../src/watches/findings.ts';
import { plainText } from '../helpers/markdown-text.ts';
import { NO_WEB_CHANGE } from './helpers.ts';

/** A result citing `sentences[i]` from source i (and from the sources in `also[i]`). */
function result(sentences: string[], also: Record<number, number[]> = {}, urls?: string[]): ResearchResult {
  return {
    engine: 'embedded',
    sources: sentences.map((_, i) => ({ url: urls?.[i] ?? `https://s${i}.example/page`, title: `S${i}`, domain: `s${i}.example` })),
    findings: sentences.map((sentence, source) => ({ sentence, source, ...(also[source] ? { also: also[source] } : {}) })),
  };
}

const baseline = (claims: Claim[]): Baseline => ({ executionId: 'wex_before', finishedAt: '2026-11-20T08:05:09.000Z', claims });

describe("a watch's cited claims and what changed in them", () => {
  it('takes each quoted sentence with each source that states it, in brief order, once', () => {
    const claims = claimsOf(result(['Globex has 1,450 employees.', 'Globex is based in Chicago.', 'Globex has 1,450 employees.'], { 0: [1] }));
    expect(claims).toEqual([
      { text: 'Globex has 1,450 employees.', url: 'https://s0.example/page' },
      { text: 'Globex has 1,450 employees.', url: 'https://s1.example/page' },
      { text: 'Globex is based in Chicago.', url: 'https://s1.example/page' },
      { text: 'Globex has 1,450 employees.', url: 'https://s2.example/page' },
    ]);
  });

  it('compares by text without case, spacing or Unicode form, and by source URL', () => {
    const before = [
      { text: 'Globex  is based in CHICAGO.', url: 'https://s0.example/page' },
      { text: 'Globex ﬁles reports.', url: 'https://s0.example/page' },
      { text: 'Globex has 1,450 employees.', url: 'https://s0.example/page' },
    ];
    const now = [
      { text: 'globex is based in Chicago.', url: 'https://s0.example/page' },
      { text: 'Globex files reports.', url: 'https://s0.example/page' },
      { text: 'Globex has 1,450 employees.', url: 'https://s1.example/page' },
    ];
    expect(compareClaims(before, now)).toEqual({ added: [now[2]], removed: [before[2]] });
  });

  it(`keeps at most ${MAX_CLAIMS_PER_EXECUTION} claims of at most ${MAX_CLAIM_CHARS} characters, and no overlong URL`, () => {
    const many = claimsOf(result(Array.from({ length: MAX_CLAIMS_PER_EXECUTION + 20 }, (_, i) => `Globex fact number ${i}.`)));
    expect(many).toHaveLength(MAX_CLAIMS_PER_EXECUTION);
    expect(many.at(-1)!.text).toBe(`Globex fact number ${MAX_CLAIMS_PER_EXECUTION - 1}.`);

    const [long] = claimsOf(result(['Globex 😀'.repeat(400)]));
    expect([...long!.text]).toHaveLength(MAX_CLAIM_CHARS);
    expect(long!.text.endsWith('…')).toBe(true);

    const overlong = `https://s0.example/${'a'.repeat(MAX_CLAIM_URL_CHARS)}`;
    expect(claimsOf(result(['Globex is based in Chicago.', 'Globex has 90 employees.'], {}, [overlong, 'https://s1.example/page']))).toEqual([
      { text: 'Globex has 90 employees.', url: 'https://s1.example/page' },
    ]);
  });

  it(`lists at most ${MAX_FINDINGS_LISTED} added and ${MAX_FINDINGS_LISTED} removed claims, and the brief says how many more`, () => {
    const old = Array.from({ length: 70 }, (_, i) => ({ text: `Old claim ${i}.`, url: 'https://s0.example/page' }));
    const now = Array.from({ length: 60 }, (_, i) => ({ text: `New claim ${i}.`, url: 'https://s0.example/page' }));
    const report = findingsOf(baseline(old), now);
    expect(report.findings.since).toBe('wex_before');
    expect(report.findings.added).toEqual(now.slice(0, MAX_FINDINGS_LISTED));
    expect(report.findings.removed).toEqual(old.slice(0, MAX_FINDINGS_LISTED));
    expect([report.added, report.removed]).toEqual([60, 70]);

    const section = changesSection(baseline(old), report, now.length).join('\n');
    expect(section).toContain('## What changed since 2026-11-20 08:05 UTC\n\nCompared with the brief of execution wex_before: 60 cited claims added, 70 removed.');
    expect(section).toContain(`- and 10 more (the first ${MAX_FINDINGS_LISTED} are listed)`);
    expect(section).toContain(`- and 20 more (the first ${MAX_FINDINGS_LISTED} are listed)`);
    expect(section.split('\n').filter((line) => line.startsWith('- "'))).toHaveLength(2 * MAX_FINDINGS_LISTED);
  });

  it('quotes claims inertly: no heading, link, HTML or forged citation from a source, and the URL stays one plain URL', () => {
    const hostile = { text: '# Pwned [1](https://evil.example) <img src=x onerror=alert(1)>\n## Injected', url: 'https://s0.example/a page(1)' };
    const report = findingsOf(baseline([]), [hostile]);
    const lines = changesSection(baseline([]), report, 1);
    const line = lines.find((l) => l.startsWith('- "'))!;
    expect(line).toBe('- "\\# Pwned \\[1\\](https://evil.example) &lt;img src=x onerror=alert(1)> ## Injected" (https://s0.example/a%20page%281%29)');
    expect(plainText(line.slice(3, line.indexOf('" ('))).replace(/\s+/g, ' ')).toBe(hostile.text.replace(/\s+/g, ' '));
    expect(lines.filter((l) => l.startsWith('#'))).toEqual(['## What changed since 2026-11-20 08:05 UTC', '### Added']);
  });

  it('reports nothing for the first execution, and "No change since" when both lists are empty', () => {
    const claims = [{ text: 'Globex is based in Chicago.', url: 'https://s0.example/page' }];
    const first = findingsOf(null, claims);
    expect(first.findings).toEqual({ since: null, ...NO_WEB_CHANGE, added: [], removed: [] });
    expect(changesSection(null, first, 1)).toEqual([
      '## First reading',
      '',
      "This is the watch's first brief (1 cited claim): the next one opens with what changed since this one.",
    ]);
    const same = findingsOf(baseline(claims), claims);
    expect(same.findings).toEqual({ since: 'wex_before', ...NO_WEB_CHANGE, added: [], removed: [] });
    expect(changesSection(baseline(claims), same, 1)[0]).toBe('## No change since 2026-11-20 08:05 UTC');
  });
});
