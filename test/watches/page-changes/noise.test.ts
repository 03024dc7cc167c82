import { describe, expect, it } from 'vitest';
import { comparable, isTestimonial, NOISE_RULES, testimonialRuns } from '../../../src/watches/page-changes/noise.ts';

const M = '\u2022';

function rule(name: string): (sentence: string) => string {
  const found = NOISE_RULES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no rule ${name}`);
  return (sentence) => found.mask(sentence);
}

/** Two readings differing only in noise compare equal; a real change beside the noise still shows. */
function expectNoise(mask: (sentence: string) => string, noisy: [string, string], changed: [string, string]): void {
  expect(mask(noisy[0])).toBe(mask(noisy[1]));
  expect(mask(changed[0])).not.toBe(mask(changed[1]));
}

describe('the noise rules', () => {
  it('dates: masks the usual written forms, not a bare year or a version', () => {
    const dates = rule('dates');
    for (const date of ['2026-11-27', '2026-11-27T10:32:05Z', '27/11/2026', '11/27/2026', '27.11.2026', 'November 27, 2026', 'Nov 27', 'Nov. 3rd, 2026', '27 Nov 2026', 'Friday, 27 November', 'November 2026']) {
      expect(dates(`Published ${date} by the team.`)).toBe(`Published ${M} by the team.`);
    }
    expectNoise(dates, ['Updated November 27, 2026: Pro is $49.', 'Updated December 1, 2026: Pro is $49.'], ['Updated November 27, 2026: Pro is $49.', 'Updated December 1, 2026: Pro is $59.']);
    expect(dates('Version 2.3.10 shipped in 2026.')).toBe('Version 2.3.10 shipped in 2026.');
  });

  it('times: masks 10:32, 10:32 AM, 10:32:05 UTC, 3pm', () => {
    const times = rule('times');
    expect(times('Open at 10:32, 10:32 AM, 10:32:05 UTC and 3pm.')).toBe(`Open at ${M}, ${M}, ${M} and ${M}.`);
    expectNoise(times, ['Synced at 10:32 AM for 12 seats.', 'Synced at 4:05 PM for 12 seats.'], ['Synced at 10:32 AM for 12 seats.', 'Synced at 10:32 AM for 15 seats.']);
  });

  it('relative times: masks "3 days ago", "an hour ago", "yesterday", "just now"', () => {
    const relative = rule('relative-times');
    expect(relative('Posted 3 days ago, an hour ago, 5m ago, a few minutes ago, yesterday and just now.')).toBe(`Posted ${M}, ${M}, ${M}, ${M}, ${M} and ${M}.`);
    expectNoise(relative, ['Jane joined as CTO 3 days ago.', 'Jane joined as CTO 4 days ago.'], ['Jane joined as CTO 3 days ago.', 'Jane joined as CFO 3 days ago.']);
  });

  it('copyright: masks the mark and its years, keeps the holder', () => {
    const copyright = rule('copyright');
    expect(copyright('\u00a9 2019-2026 Acme Inc. All rights reserved.')).toBe(`${M} Acme Inc. All rights reserved.`);
    expect(copyright('Copyright 2026 Acme')).toBe(`${M} Acme`);
    expectNoise(copyright, ['Copyright \u00a9 2020\u20132025 Acme Inc.', 'Copyright \u00a9 2020\u20132026 Acme Inc.'], ['\u00a9 2026 Acme Inc.', '\u00a9 2026 Globex Corp.']);
  });

  it('live counters: masks the number of viewers, views, downloads, stars, followers, subscribers, not of customers', () => {
    const counters = rule('live-counters');
    expect(counters('1,234 people are viewing this')).toBe(`${M} people are viewing this`);
    expect(counters('12k views and 37 users online now')).toBe(`${M} views and ${M} users online now`);
    expect(counters('Downloads: 1.2M, Stars 12k')).toBe(`Downloads: ${M}, Stars ${M}`);
    expectNoise(counters, ['Join 10,000+ subscribers on the Pro plan.', 'Join 10,400+ subscribers on the Pro plan.'], ['Join 10,000+ subscribers on the Pro plan.', 'Join 10,000+ subscribers on the Team plan.']);
    for (const count of ['Trusted by 4,000 teams', '4,000 online stores run on Acme', 'Acme employs 240 people']) expect(counters(count)).toBe(count);
  });

  it('random tokens: masks CSRF tokens, request ids, hashes and UUIDs, not slugs or SKUs of words', () => {
    const tokens = rule('random-tokens');
    expect(tokens('csrf kJ8sd9FhQ2xLm3Nn0pZr id 550e8400-e29b-41d4-a716-446655440000 md5 d41d8cd98f00b204e9800998ecf8427e req req_01HF3K9Z8Y7X6W5V4T')).toBe(`csrf ${M} id ${M} md5 ${M} req ${M}`);
    expect(tokens('Read top-10-analytics-tools-for-2026 now.')).toBe('Read top-10-analytics-tools-for-2026 now.');
    // A prefixed id whose hex part switches between letters and digits only twice (found by bench:watches).
    expect(tokens('Request ID: req_956affa250225933')).toBe(`Request ID: ${M}`);
    expectNoise(tokens, ['Request a1b2c3d4e5f6a7b8c9d0 failed on Pro.', 'Request 0f9e8d7c6b5a4f3e2d1c failed on Pro.'], ['Request a1b2c3d4e5f6a7b8c9d0 failed on Pro.', 'Request a1b2c3d4e5f6a7b8c9d0 failed on Team.']);
  });

  it('cache busters: masks the value of ?v=, ?_=, ?cb=, ?ts=, ?ver= in URLs written in text, not other parameters', () => {
    const busters = rule('cache-busters');
    expect(busters('Load /app.js?v=123 and /s.css?_=1699999999&ver=2.1, ?cb=abc, ?ts=17000, ?page=2')).toBe(`Load /app.js?v=${M} and /s.css?_=${M}&ver=${M}, ?cb=${M}, ?ts=${M}, ?page=2`);
    expectNoise(busters, ['Get /pricing.pdf?v=12 for Pro.', 'Get /pricing.pdf?v=13 for Pro.'], ['Get /pricing.pdf?v=12 for Pro.', 'Get /plans.pdf?v=12 for Pro.']);
  });

  it('last-updated stamps: masks the date or time after "last updated", "last modified", "generated at", keeps what follows', () => {
    const stamps = rule('last-updated');
    expect(stamps('Last updated: 2026-11-27 10:32 UTC')).toBe(`Last updated: ${M}`);
    expect(stamps('Last modified Fri, 27 Nov 2026 10:32:05 GMT')).toBe(`Last modified ${M}`);
    expect(stamps('Page generated at 1732712345 in 12ms.')).toBe(`Page generated at ${M} in 12ms.`);
    expect(stamps('Last updated pricing for the Pro plan.')).toBe('Last updated pricing for the Pro plan.');
    expectNoise(stamps, ['As of 27.11.2026, Pro costs $49.', 'As of 28.11.2026, Pro costs $49.'], ['As of 27.11.2026, Pro costs $49.', 'As of 27.11.2026, Pro costs $59.']);
  });

  it('every rule has a name and a description, and the names are distinct', () => {
    expect(NOISE_RULES.length).toBe(8);
    expect(new Set(NOISE_RULES.map((noise) => noise.name)).size).toBe(NOISE_RULES.length);
    for (const noise of NOISE_RULES) expect(noise.description.length).toBeGreaterThan(20);
  });
});

describe('what stays visible', () => {
  it('prices and currency amounts, plan limits, funding rounds, versions, product years and customer counts', () => {
    const changes: [string, string][] = [
      ['Pro costs $49 per month.', 'Pro costs $59 per month.'],
      ['Team is \u20ac1.200 a year.', 'Team is \u20ac1.300 a year.'],
      ['Pro is 49 USD.', 'Pro is 59 USD.'],
      ['Calls cost $0.02/min.', 'Calls cost $0.03/min.'],
      ['Team includes up to 10 seats.', 'Team includes up to 20 seats.'],
      ['Acme raised a Series B in 2024.', 'Acme raised a Series C in 2024.'],
      ['Acme v2.3.1 is out.', 'Acme v2.3.2 is out.'],
      ['Acme 2026 is here.', 'Acme 2027 is here.'],
      ['Trusted by 4,000 teams.', 'Trusted by 5,000 teams.'],
      ['Acme employs 240 people.', 'Acme employs 260 people.'],
    ];
    for (const [before, after] of changes) expect(comparable(before)).not.toBe(comparable(after));
  });
});

describe('comparable', () => {
  it('normalizes (NFKC), masks noise, collapses spacing and folds case', () => {
    expect(comparable('  Pro\u00a0plan:\n\uff14\uff19 USD,  updated 3 days ago ')).toBe(`pro plan: 49 usd, updated ${M}`);
    expect(comparable('Last updated November 27, 2026 at 10:32 AM.')).toBe(comparable('last updated  December 2, 2026 at 9:05 PM.'));
  });

  it("applies the watch's own ignore mask after the built-in rules", () => {
    const seen: string[] = [];
    const ignore = (sentence: string): string => {
      seen.push(sentence);
      return sentence.replace(/Order #\d+/g, M);
    };
    expect(comparable('Order #1234 shipped on Nov 27.', ignore)).toBe(comparable('Order #5678 shipped on Nov 28.', ignore));
    expect(seen[0]).toBe(`Order #1234 shipped on ${M}.`);
  });
});

describe('testimonials', () => {
  it('are sentences inside quotation marks, in any of the usual marks', () => {
    for (const quote of ['\u201cBest tool we bought this year.\u201d', '"Acme saved us hours every week."', '\u00abUn outil formidable.\u00bb', '\u201eSehr gut.\u201c']) expect(isTestimonial(quote)).toBe(true);
  });

  it('are quotes followed by an attribution, or a sentence followed by one', () => {
    expect(isTestimonial('"Acme saved us hours," said Jane Doe, VP Sales at Initech.')).toBe(true);
    expect(isTestimonial('\u201cAcme saved us hours.\u201d \u2014 Jane Doe, VP Sales at Initech')).toBe(true);
    expect(isTestimonial('Best tool ever. \u2014 Jane Doe, VP Sales at Initech')).toBe(true);
    expect(isTestimonial('\u2014 Jane Doe, VP Sales at Initech')).toBe(true);
  });

  it('are the first and last sentences of a quotation that runs over several; testimonialRuns finds the ones between', () => {
    expect(isTestimonial('\u201cWe love it.')).toBe(true);
    expect(isTestimonial('It pays for itself.\u201d \u2014 Jane')).toBe(true);
    const sentences = ['\u201cWe love it.', 'Setup took an afternoon.', 'It pays for itself.\u201d \u2014 Jane Doe', 'Pro costs $49 per month.'];
    expect(testimonialRuns(sentences)).toEqual([true, true, true, false]);
  });

  it('are not sentences that only quote a name, use an apostrophe, or pair a name with a dash', () => {
    for (const sentence of ['The \u201cPro\u201d plan costs $49.', '"Pro" is our most popular plan.', 'Our customers\u2019 data stays in the EU.', 'Acme \u2014 Product analytics for B2B SaaS', 'Team \u2014 $99/month', 'Pro costs $49 per month.']) {
      expect(isTestimonial(sentence)).toBe(false);
    }
  });

  it('leave a quote never closed within eight sentences to its first sentence', () => {
    const sentences = ['"An opening quote that never closes.', ...Array.from({ length: 9 }, (_, n) => `Plain sentence ${n}.`)];
    expect(testimonialRuns(sentences)).toEqual([true, ...Array.from({ length: 9 }, () => false)]);
  });
});
