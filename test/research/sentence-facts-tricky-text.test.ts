import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzePassage, encodeFacts } from '../../src/research/sentence-facts.ts';
import { splitSentences, terms, wordCount } from '../../src/research/text.ts';

/**
 * The facts and terms of text that the fast paths of analyzePassage treat specially (whitespace of
 * every kind, quotes, apostrophes, hyphens, currencies, percentages, NFKC forms, cue words), pinned
 * as the code answered them before those paths existed (checked then against that code, on every
 * demo passage and 1,500 random texts). The demo market's facts are pinned per FACTS_VERSION in
 * sentence-facts.test.ts.
 */

/** Pieces that the fast paths treat specially: whitespace, quotes, apostrophes, hyphens, currencies, percentages, NFKC forms, cue words. */
const PIECES = [
  ' ', '  ', '\n', '\n\n', '\t', '\u00a0', '\u2009', '\u202f', '\u3000', '\u2028', '\ufeff', '\u180e', '.', '!', '?', '. ', '."', '.’ ', '.”)', '.] ', ',', ';',
  "'", "'s", '’', '’s', '"', '“', '”', '(', ')', '[', ']', '-', '--', '-- ', ' - ', '–', '—', '•', '*', '$', '€', '£', '¥', '₹', '%', '＄', '％', '#', '|',
  '0', '1', '7', '19', '2024', '20', '24', '2019-04-01', '1,200.50', '4.5', '/5', '/10', '+', 'k', 'm', 'bn', '１２', '𝟓', '½', '²', 'ﬁ', 'Ⅻ', 'K', 'İ', 'ß', 'é', 'e\u0301', '😀',
  'a', 'A', 'an', 'the', 'of', 'no', 'to', 'y', 'ys', 'sses', 'ational', 'iveness', 'ing', 'eed', 'bly', 'Acme', 'Jane Doe', 'Doe-Smith', 'CEO', 'said', 'Co-founder',
  'USD', 'usd', 'euros', 'dollars', 'free', 'fee', 'fees', 'charges', 'cost', 'costs', 'at no extra cost', 'for free', 'free tier', 'half', 'a third', 'quarter', 'doubled',
  'percent', 'per cent', 'pct', 'percentage points', 'day', 'days', 'Days', 'overnight', 'same day', 'a few', 'a couple of', 'weeks', 'months', 'years', 'business', 'to',
  'Jan', 'March', 'Q3', 'in', 'since', 'mid-', 'people', 'staff', 'employees', 'FTEs', 'team members', 'dozens of', 'hundreds', 'thousands of', 'rated', 'rating',
  'stars', 'out of', 'five', 'weak', 'slow', "doesn't", 'does not', "can't", 'cannot', 'only supports', 'no longer', 'struggling', 'issues', 'e.g.', 'Inc.', 'U.S.',
];
const texts = fc.array(fc.oneof({ arbitrary: fc.constantFrom(...PIECES), weight: 6 }, { arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }), weight: 1 }, { arbitrary: fc.string({ unit: 'binary', maxLength: 4 }), weight: 1 }), { maxLength: 60 }).map((parts) => parts.join(''));

/** Inputs and what the code answered for them before its fast paths: the facts of the text, and the terms of each sentence. */
const ANSWERED: { text: string; facts: string; terms: string[] }[] = [
  {
    text: 'Acme’s “Pro” plan costs $1,200.50 per year — about 15% less than Globex’s. It’s free of charge for non-profits.',
    facts: '0;74;1xp1rbsvmgj;acm pro plan cost 200 50 per year 15 less globex;1027;1;#$1,200.50 #15%less|75;111;1k2qwnxso9v;free charg non-profits;1;0;',
    terms: ['acme pro plan costs 200 50 per year 15 less globex', 'free charge non-profits'],
  },
  {
    text: 'The ﬁrm’s Ｐｒｏ plan costs ＄４５ per seat; it grew ５０％ in 2024. Ｈｅａｄｃｏｕｎｔ rose to 1,200 employees in Q3 2025.',
    facts: '0;105;1ujub85w7kw;firm pro plan cost 45 per seat grew 50 2024 headcount rose 200 employe q3 2025;1076;1;#2024 #1,200employees #3 #2025',
    terms: ['firm pro plan costs 45 per seat grew 50 2024 headcount rose 200 employees q3 2025'],
  },
  {
    text: 'Co-founder Jane Doe-Smith said the on-target earnings are €85k -- well above the mid-2023 figure. --- Re-run the state-of-the-art 14-day trial, twice.',
    facts: '0;150;28rd3f4sr5o;co-founder jane doe-smith said on-target earn 85k well abov mid-2023 figur re-run state-of-the-art 14-day trial twice;16777481;1;#€85k #2023 #14',
    terms: ['co-founder jane doe-smith said on-target earnings 85k well above mid-2023 figure re-run state-of-the-art 14-day trial twice'],
  },
  {
    text: 'Acme\'s CEO\'s team didn\'t say; the users\' complaints can\'t be ignored. O\'Brien\'s rating is 4.5/5 stars.',
    facts: '0;69;1fb7scd6vhb;acm ceo team didn\'t sai users\' complaint can\'t ignor;134348928;0.25;|70;102;1nq0wiwj37;o\'brien rate star;80;0.5;#4.5 #5stars',
    terms: ['acme ceo team didn\'t say users\' complaints can\'t ignored', 'o\'brien rating stars'],
  },
  {
    text: 'İstanbul office: 30 staff, 2 K engineers (a Kelvin K) and the café’s naïve résumé. Straße costs £3 million over three years.',
    facts: '0;82;z30osvhwbk;stanbul offic 30 staff engin kelvin café naïve résumé;48;1;#30staff #2kengineers|83;124;p1mlsiud5b;straße cost million three year;9;0.5;#£3million',
    terms: ['stanbul office 30 staff engineers kelvin café naïve résumé', 'straße costs million three years'],
  },
  {
    text: 'Pricing:\u00a0$99\u2009per\u202fmonth, billed yearly.\n\nThe plan\tlaunched in March 2025 with 3 tiers.\u3000Approx. 40 percent of users churned within two weeks!',
    facts: '0;38;1q42es9ol8l;price 99 per month bill yearli;1;0.5;#$99|40;85;1eg779wtay8;plan launch march 2025 tier;20;0.75;#2025 #3tiers|86;139;7s1vjiidpt;approx 40 percent user churn within two week;26;0.75;#40percent',
    terms: ['pricing 99 per month billed yearly', 'plan launched march 2025 tiers', 'approx 40 percent users churned within two weeks'],
  },
  {
    text: 'Revenue doubled to ¥500m, up 12.5 per cent, since 2019-04-01 alone. ₹2,000 crore? Half the 250+ staff left. Rated 9/10 by 1,400 reviewers.',
    facts: '0;81;tgyvvjys0n;revenu doubl 500m up 12 per cent sinc 2019-04-01 alon 000 crore;1031;1;#¥500m #12.5 #2019 #04 #01 #2,000|82;107;1fgmanflcwm;half 250 staff left;50;0.5;#250|108;138;rfr7bvpwy5;rate 10 400 review;80;0.5;#9 #10 #1,400reviewers',
    terms: ['revenue doubled 500m up 12 per cent since 2019-04-01 alone 000 crore', 'half 250 staff left', 'rated 10 400 reviewers'],
  },
  {
    text: 'He said "it costs $5." Then (after 3 months) it was free.) And that\'s all there is to it.’',
    facts: '0;22;15fbcpgdpks;said cost;1;0.5;#$5|23;58;1fnlmchnz1r;after month free;24;0.5;#3months|59;90;109wtl9pa3p;;0;0;',
    terms: ['said costs', 'after months free', ''],
  },
  {
    // "Acme Inc" is a firm's name, no person's (answer-types.ts NOT_A_PERSON, FACTS_VERSION 3): no person bit.
    // "2021 as" is no count: "as" only ends in s (FACTS_VERSION 5).
    text: 'Dr. Smith joined Acme Inc. in Jan. 2021 as CFO of the firm. The U.S. team has 45 people, e.g. engineers, across 3 offices.',
    facts: '0;34;1mf4uexj5sz;dr smith join acm inc jan;0;0;|35;59;1slgpq2zxb7;2021 cfo firm;262144;0.5;#2021as|60;122;11nh2vger6z;team 45 peopl engin across offic;48;0.75;#45people #3offices',
    terms: ['dr smith joined acme inc jan', '2021 cfo firm', 'team 45 people engineers across offices'],
  },
  {
    text: 'Customers love it 😀 — 5 stars from many! The 𝟓𝟎 seats cost $𝟗𝟗 a month each.',
    facts: '0;41;1xrfqpdg99h;custom love star mani;80;0.75;#5stars|42;81;2b7z1p9hbva;50 seat cost 99 month;8;0.75;',
    terms: ['customers love stars many', '50 seats cost 99 month'],
  },
  {
    text: '- Setup takes a couple of days to finish.\n- No setup fees or hidden charges at all here.\n• 24/7 support is included for dozens of teams.',
    facts: '0;41;21m485fopzs;setup take coupl dai finish;8;0.25;|42;88;1sn4cwwtfxo;setup fee hidden charg here;1;0.25;|89;136;1f24ygoq69x;24 support includ dozen team;16;0.75;#24 #7',
    terms: ['setup takes couple days finish', 'setup fees hidden charges here', '24 support included dozens teams'],
  },
  {
    text: 'ÀÉÎÕÜ ÇÃO résumé naïve coöperate façade — Ǆemal Ǳ ǅ. The team is weak on reporting and slow to respond, users complain.',
    facts: '0;52;1j7xt4x5vqp;àéîõü ção résumé naïve coöperate façade džemal dz dž;0;0.25;|53;119;9rsggum3p5;team weak report slow respond user complain;134217856;0.5;',
    terms: ['àéîõü ção résumé naïve coöperate façade džemal dz dž', 'team weak reporting slow respond users complain'],
  },
];

describe('analyzePassage on tricky text', () => {
  it('answers the inputs below as the code before its fast paths did', () => {
    for (const { text, facts, terms: expected } of ANSWERED) {
      expect(encodeFacts(analyzePassage(text)), text).toBe(facts);
      expect(splitSentences(text).map((s) => terms(s).join(' ')), text).toEqual(expected);
    }
  });

  it('count words as split(/\s+/) does, for every UTF-16 code unit', () => {
    const wrong: string[] = [];
    for (let code = 0; code < 0x10000; code++) {
      const c = String.fromCharCode(code);
      for (const text of [c, `a${c}b`, `a${c}${c} b`, ` ${c}`]) if (wordCount(text) !== text.split(/\s+/).length) wrong.push(JSON.stringify(text));
    }
    expect(wrong).toEqual([]);
    fc.assert(
      fc.property(texts, (text) => {
        expect(wordCount(text)).toBe(text.split(/\s+/).length);
      }),
      { numRuns: 500 },
    );
  });
});
