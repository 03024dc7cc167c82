import { describe, expect, it } from 'vitest';
import type { ChangeKind } from '../../../src/ground/schemas/changes.ts';
import { kindOfSentence, pageTypeKind, type PageRef } from '../../../src/watches/page-changes/kinds.ts';

const BLOG: PageRef = { url: 'https://acme.example/blog/notes-from-the-road', title: 'Notes from the road' };

describe('pageTypeKind', () => {
  it('reads the type from the last path segment that names one, whole', () => {
    const cases: [string, ChangeKind | undefined][] = [
      ['https://acme.example/pricing', 'pricing'],
      ['https://acme.example/en/plans/', 'pricing'],
      ['https://acme.example/careers/senior-data-engineer', 'hiring'],
      ['https://acme.example/company/careers', 'hiring'],
      ['https://acme.example/changelog', 'product'],
      ['https://acme.example/release-notes.html', 'product'],
      ['https://acme.example/whats-new', 'product'],
      ['https://acme.example/docs/api', 'product'],
      ['https://acme.example/about-us', 'people'],
      ['https://acme.example/company/leadership', 'people'],
      ['https://acme.example/newsroom/acme-raises-series-b', 'funding-news'],
      ['https://acme.example/investors', 'funding-news'],
      ['https://acme.example/case-studies/initech', 'customers'],
      // A word inside a slug says nothing: this is a customer story, not a product page.
      ['https://acme.example/customers/how-initech-cut-product-costs', 'customers'],
      ['https://acme.example/blog/our-pricing-philosophy', undefined],
      ['https://acme.example/', undefined],
    ];
    for (const [url, kind] of cases) expect(pageTypeKind({ url, title: '' }), url).toBe(kind);
  });

  it('reads job boards and typed subdomains from the host', () => {
    expect(pageTypeKind({ url: 'https://boards.greenhouse.io/acme/4012', title: '' })).toBe('hiring');
    expect(pageTypeKind({ url: 'https://careers.acme.example/', title: '' })).toBe('hiring');
    expect(pageTypeKind({ url: 'https://docs.acme.example/start', title: '' })).toBe('product');
  });

  it('falls back on the title when its part starts or ends with a type word', () => {
    const url = 'https://acme.example/p/4821';
    expect(pageTypeKind({ url, title: 'Plans & Pricing | Acme' })).toBe('pricing');
    expect(pageTypeKind({ url, title: 'Careers at Acme' })).toBe('hiring');
    expect(pageTypeKind({ url, title: 'Acme changelog' })).toBe('product');
    expect(pageTypeKind({ url, title: 'The Acme team' })).toBe('people');
    expect(pageTypeKind({ url, title: 'Acme \u2014 Newsroom' })).toBe('funding-news');
    expect(pageTypeKind({ url, title: 'Customer stories' })).toBe('customers');
    // Type words in the middle of a title, or "your team", say what it compares, not what it is.
    expect(pageTypeKind({ url, title: 'Acme vs Globex: features, pricing and fit' })).toBeUndefined();
    expect(pageTypeKind({ url, title: 'Acme vs Globex: which is right for your team' })).toBeUndefined();
  });
});

describe('kindOfSentence: the sentence first', () => {
  it('reads each kind from its own words, whatever the page', () => {
    const cases: [string, ChangeKind][] = [
      ['Pro is now $59 per seat per month.', 'pricing'],
      ['Annual billing saves 15 percent on every plan.', 'pricing'],
      ['A one-time onboarding fee of $1,500 covers data migration.', 'pricing'],
      ['Acme closed a Series B led by Northbeam Ventures.', 'funding-news'],
      ['Acme raised $40 million from existing investors.', 'funding-news'],
      ['Acme acquired Tracelight, a session replay company.', 'funding-news'],
      ['Jane Doe joins as Chief Revenue Officer.', 'people'],
      ['Acme appointed Sam Lee as VP of Engineering.', 'people'],
      ["We're hiring engineers in Berlin and Lisbon.", 'hiring'],
      ['See our open positions in sales.', 'hiring'],
      ['Trusted by more than 4,000 teams.', 'customers'],
      ['Initech switched to Acme in April.', 'customers'],
      ['Introducing Acme Signals, now available on every workspace.', 'product'],
      ['The legacy API is deprecated and will stop on March 1.', 'product'],
      ['Acme v2.3 adds SAML single sign-on.', 'product'],
      ['Acme Replay is GA.', 'product'],
    ];
    for (const [sentence, kind] of cases) expect(kindOfSentence(sentence, BLOG), sentence).toBe(kind);
  });

  it('orders signals pricing > funding-news > people > hiring > customers > product', () => {
    expect(kindOfSentence('Customers of the Pro plan get 20 percent off the new release.', BLOG)).toBe('pricing');
    expect(kindOfSentence('Our CEO announced the Series C today.', BLOG)).toBe('funding-news');
    expect(kindOfSentence('We are hiring a Head of Sales.', BLOG)).toBe('people');
    expect(kindOfSentence("We're hiring to support our customers.", BLOG)).toBe('hiring');
    expect(kindOfSentence('Customers can now try the beta.', BLOG)).toBe('customers');
  });

  it('matches whole words, case-insensitively, and case where case is the signal', () => {
    expect(kindOfSentence('WE ARE HIRING.', BLOG)).toBe('hiring');
    expect(kindOfSentence('Our rehiring process is simple.', BLOG)).toBe('other');
    expect(kindOfSentence('A series of short videos explains funnels.', BLOG)).toBe('other');
    expect(kindOfSentence('Our office is at 1 Main St, Atlanta, GA.', BLOG)).toBe('other');
  });

  it('keeps money where it belongs: pay is hiring, a round is funding, money saved is not a price', () => {
    expect(kindOfSentence('The base salary is $78,000 to $92,000 per year.', BLOG)).toBe('hiring');
    expect(kindOfSentence('Acme raised a $38 million Series B.', BLOG)).toBe('funding-news');
    expect(kindOfSentence('Initech saved $2 million a year.', BLOG)).toBe('other');
    expect(kindOfSentence('Ledgerline raised trial-to-paid conversion from 14 percent to 21 percent.', BLOG)).toBe('other');
    expect(kindOfSentence('Paid acquisition cost per lesson fell by 27 percent.', BLOG)).toBe('other');
  });

  it("falls back on the page's type, else other", () => {
    const sentence = 'The team meets every Monday to review the week.';
    expect(kindOfSentence(sentence, { url: 'https://acme.example/careers', title: 'Careers' })).toBe('hiring');
    expect(kindOfSentence(sentence, { url: 'https://acme.example/about', title: 'About' })).toBe('people');
    expect(kindOfSentence(sentence, BLOG)).toBe('other');
    expect(kindOfSentence(sentence, { url: 'https://acme.example/', title: 'Acme' })).toBe('other');
  });
});

/**
 * Pages of the two research corpora (copied here, as tests run inside workerd): the demo market of
 * scripts/seed/knowledge-base/demo.ndjson (product analytics) and the restaurant-workforce market of
 * bench/research-corpora/restaurant-workforce/corpus.ndjson, each page with a few of its sentences
 * and the kind each must get.
 */
const CORPUS_PAGES: { page: PageRef; type: ChangeKind | undefined; sentences: [string, ChangeKind][] }[] = [
  // Demo market.
  {
    page: { url: 'https://acme.com/pricing', title: 'Acme Analytics pricing: Free, Growth, Business and Enterprise plans' },
    type: 'pricing',
    sentences: [
      ['Business is $79 per seat per month, with account-level analytics, Acme Signals for Salesforce and HubSpot, and single sign-on.', 'pricing'],
      ['Startups younger than two years get 50 percent off the Growth plan for the first year.', 'pricing'],
      ['Viewer seats are free on every Acme Analytics plan, so executives can read dashboards without a paid seat.', 'pricing'],
    ],
  },
  {
    page: { url: 'https://acme.com/careers/senior-data-engineer-ingestion', title: 'Senior Data Engineer, Ingestion at Acme Analytics' },
    type: 'hiring',
    sentences: [
      ['Acme Analytics is hiring a Senior Data Engineer, Ingestion based in Toronto or remote in Canada.', 'hiring'],
      ['The base salary range is 165,000 to 195,000 Canadian dollars plus equity.', 'hiring'],
      ['Candidates need experience running high-volume streaming systems in production.', 'hiring'],
    ],
  },
  {
    page: { url: 'https://acme.com/blog/introducing-acme-signals', title: 'Meet Acme Signals' },
    type: undefined,
    sentences: [
      ['Acme Signals is now available in Acme Analytics, and it sends product-qualified account alerts to Salesforce and HubSpot when usage crosses thresholds that a revenue team defines.', 'product'],
      ['Revenue operations teams can set their own rules, such as ten active seats on a five-seat contract, without engineering help.', 'other'],
    ],
  },
  {
    page: { url: 'https://globex.com/blog/globex-replay-after-tracelight', title: 'Globex Replay is here' },
    type: undefined,
    sentences: [['Globex acquired Tracelight, a 40-person session replay company based in Copenhagen, for an undisclosed sum.', 'funding-news']],
  },
  {
    page: { url: 'https://acme.com/press/acme-analytics-raises-62-million-series-c', title: 'Acme Analytics raises $62 million Series C led by Northbeam Ventures' },
    type: 'funding-news',
    sentences: [
      ['The round brings total funding for Acme Analytics to $104 million.', 'funding-news'],
      ['Acme Analytics will use the new capital to expand its go-to-market teams in Europe and build AI features that explain why accounts grow or churn.', 'funding-news'],
    ],
  },
  {
    page: { url: 'https://acme.com/press/acme-analytics-launches-ask-acme', title: 'Acme Analytics launches Ask Acme' },
    type: 'funding-news',
    sentences: [['Acme Analytics today launched Ask Acme, which answers plain-language questions about product usage with charts that link back to the underlying events.', 'product']],
  },
  {
    page: { url: 'https://acme.com/press/acme-analytics-and-keelstone-partnership', title: 'Acme Analytics and Keelstone partner to bring clean, consented event data into account-level analytics' },
    type: 'funding-news',
    sentences: [['Acme Analytics and Keelstone today announced a partnership to bring clean, consented event data into account-level analytics.', 'customers']],
  },
  {
    page: { url: 'https://acme.com/customers/northfield-payroll-switched-from-globex', title: 'Why Northfield Payroll switched from Globex to Acme Analytics' },
    type: 'customers',
    sentences: [
      ['Northfield Payroll switched from Globex to Acme Analytics after a Globex implementation took eleven weeks and still needed an analyst for every new report.', 'customers'],
      ['Acme Analytics was live in nine days, and product managers built their own dashboards in the first week.', 'customers'],
    ],
  },
  {
    page: { url: 'https://acme.com/', title: 'Acme Analytics: Product analytics for B2B SaaS, down to the account' },
    type: undefined,
    sentences: [
      ['Acme Analytics is the product analytics platform built for B2B SaaS teams, trusted by more than 2,100 companies.', 'customers'],
      ['Acme Boards lets product managers build shared dashboards in minutes without writing SQL.', 'other'],
    ],
  },
  // Restaurant-workforce market.
  {
    page: { url: 'https://shiftlark.com/pricing', title: 'Shiftlark pricing: Starter, Essentials, Plus and Premium' },
    type: 'pricing',
    sentences: [
      ['Essentials costs $49 per location per month and adds the time clock, overtime alerts and labor cost tracking.', 'pricing'],
      ['Groups with more than 30 locations get volume pricing from our sales team.', 'pricing'],
    ],
  },
  {
    page: { url: 'https://toqueboard.com/jobs/shiftlark-account-executive-portland', title: 'Account Executive, Mid-Market - Shiftlark - Portland, OR' },
    type: 'hiring',
    sentences: [
      ['The base salary is $78,000 to $92,000, with on-target earnings of $150,000 to $170,000 and equity.', 'hiring'],
      ['This role is hybrid, three days a week in our Portland, Oregon office.', 'hiring'],
    ],
  },
  {
    page: { url: 'https://shiftlark.com/changelog', title: 'Shiftlark changelog' },
    type: 'product',
    sentences: [
      ['April 14, 2026: Shiftlark Payroll is generally available in 41 states; it files federal, state and local payroll taxes and issues W-2 forms.', 'product'],
      ["March 3, 2026: The schedule builder can copy last year's schedule for the same week, for holidays and patio season.", 'product'],
    ],
  },
  {
    page: { url: 'https://shiftlark.com/about', title: 'About Shiftlark: our story and leadership team' },
    type: 'people',
    sentences: [
      ['Joelle Stroud joined as chief financial officer in January 2025 after six years at a payments company.', 'people'],
      ['We are about 180 people, most of us in Portland, Oregon, with a second office in Denver, Colorado.', 'people'],
      ['Shiftlark has raised $61 million in total from Halberd Ventures, Copperpine Capital and a group of restaurant owners.', 'funding-news'],
    ],
  },
  {
    page: { url: 'https://tabbrook.com/company/leadership', title: 'Tabbrook leadership' },
    type: 'people',
    sentences: [['Renata Quintero, President and Chief Operating Officer.', 'people']],
  },
  {
    page: { url: 'https://gratuvo.io/team', title: 'The Gratuvo team' },
    type: 'people',
    sentences: [['Lucia Ferreira-Banks joined in 2025 as head of engineering from a consumer banking app.', 'people']],
  },
  {
    page: { url: 'https://mizeledger.com/newsroom/series-c', title: 'Mizeledger raises $45 million Series C' },
    type: 'funding-news',
    sentences: [
      ['TORONTO, May 14, 2024 -- Mizeledger today announced a US$45 million Series C led by Northquay Growth, with participation from Bramblewood Partners and existing investors.', 'funding-news'],
      ["Mizeledger's annual recurring revenue passed US$30 million in early 2024.", 'funding-news'],
    ],
  },
  {
    page: { url: 'https://mizeledger.com/case-studies/harbourline-restaurant-group', title: 'Harbourline Restaurant Group lowers labor cost by 3.3 points' },
    type: 'customers',
    sentences: [
      ['Harbourline Restaurant Group runs 26 casual dining restaurants in Ontario and Nova Scotia.', 'customers'],
      ["In the first six months, the group's wage bill went from 34.1 percent of sales to 30.8 percent of sales, worth about CAD $2.2 million a year.", 'customers'],
    ],
  },
  {
    page: { url: 'https://galleyscore.com/compare/tabbrook-vs-mizeledger', title: 'Tabbrook vs Mizeledger for restaurant payroll' },
    type: undefined,
    sentences: [['Tabbrook is a payroll specialist; Mizeledger is a back office suite where payroll is one module.', 'other']],
  },
];

describe('kindOfSentence on the research corpora', () => {
  it.each(CORPUS_PAGES.map((entry) => [entry.page.url, entry] as const))('%s', (_, { page, type, sentences }) => {
    expect(pageTypeKind(page)).toBe(type);
    for (const [sentence, kind] of sentences) expect(kindOfSentence(sentence, page), sentence).toBe(kind);
  });
});
