/**
 * Facts for the demo knowledge base: a fictional product-analytics market around Acme Analytics.
 * Every company, person, customer and investor here is invented. generate.ts turns these facts into
 * source documents with varied sentence templates; keep facts consistent (a price quoted anywhere
 * comes from `plans`).
 *
 * Writing rules, checked by generate.ts: phrases are plain text without sentence-final punctuation
 * unless the field says "sentence"; no decimals or abbreviations with dots (so every "." ends a
 * sentence); no domains inside prose.
 */

export interface Plan {
  name: string;
  /** USD per seat per month billed annually; 0 = free; null = priced by quote. */
  price: number | null;
  /** Noun phrase: what the plan includes ("up to 3 seats and 1 million events a month"). */
  includes: string;
}

export interface Product {
  name: string;
  /** Verb phrase after the product name ("scores every customer account ..."). */
  what: string;
}

export interface Customer {
  name: string;
  /** Noun phrase ("HR software company"). */
  kind: string;
  employees: number;
  person: string;
  role: string;
  /** Verb phrase in the past tense ("cut weekly reporting time from six hours to one"). */
  result: string;
  /** Sentence. */
  detail: string;
  /** Quote without final punctuation; rendered as `"<quote>," said <person>, <role> at <name>.` */
  quote: string;
  /** Plan name, when the story depends on it; otherwise a paid plan is picked. */
  plan?: string;
}

export interface Funding {
  round: string;
  /** Millions of USD. */
  amount: number;
  lead: string;
  others: string[];
  date: string;
  /** Total raised to date, millions of USD. */
  total: number;
  /** Verb phrase ("expand into the Nordics and build ..."). */
  use: string;
  investor: string;
  investorRole: string;
  investorQuote: string;
  /** Sentence about traction. */
  traction: string;
}

export interface Launch {
  name: string;
  slug: string;
  date: string;
  /** Verb phrase after the launch name ("answers plain-language questions with charts"). */
  what: string;
  /** Sentences. */
  details: string[];
  /** Sentence: availability and price. */
  availability: string;
  quote: string;
  /** Who it is for, after "built <name> for" ("the Head of Product and the VP Product"); default: two personas. */
  audience?: string;
}

export interface Partnership {
  partner: string;
  /** Company key when the partner is in this market, so comparison templates can skip it. */
  partnerKey?: string;
  slug: string;
  date: string;
  /** Verb phrase after "<A> and <B> partner to". */
  what: string;
  /** Sentences. */
  details: string[];
}

export interface Job {
  title: string;
  slug: string;
  location: string;
  /** Region the role covers ("North America"). */
  region: string;
  team: string;
  /** Verb phrase ("open our first office in Berlin and win mid-market accounts in DACH"). */
  mission: string;
  /** Sentences. */
  duties: string[];
  /** Noun phrase ("five or more years selling SaaS to product and data leaders"). */
  requirement: string;
  /** Sentence. */
  pay: string;
  posted: string;
}

export interface SwitchStory {
  /** Key of the rival the customer left. */
  from: string;
  customer: string;
  kind: string;
  person: string;
  role: string;
  /** Sentences: why they left and what changed. */
  why: string[];
  outcome: string;
  date: string;
}

export interface Guide {
  slug: string;
  title: string;
  date: string;
  /** Sentences. */
  sentences: string[];
}

export interface Company {
  key: string;
  name: string;
  description: string;
  industry: string;
  headquarters: string;
  founded: number;
  employees: number;
  /** Noun phrase ("the product analytics platform for B2B SaaS teams"). */
  category: string;
  /** Short headline for the home page title. */
  headline: string;
  ceo: { name: string; title: string };
  exec: { name: string; title: string };
  products: Product[];
  /** Verb phrase after the company name. */
  differentiator: string;
  /** Verb phrase after the company name: the most cited limitation. */
  weakness: string;
  /** Noun phrase ("B2B SaaS teams that ..."). */
  bestFor: string;
  /** Clauses for reviews, each a full clause without final punctuation. */
  pros: string[];
  cons: string[];
  plans: Plan[];
  /** Sentences. */
  pricingNotes: string[];
  trialDays: number;
  customerCount: string;
  customers: Customer[];
  /** Sentences. */
  proof: string[];
  /** Sentence. */
  trust: string;
  integrations: string[];
  regions: string[];
  offices: string[];
  personas: string[];
  industries: string[];
  funding: Funding;
  launches: Launch[];
  partnership?: Partnership;
  jobs: Job[];
  guide: Guide;
  switchStory?: SwitchStory;
  /** Keys of the companies it competes with, closest first. */
  rivals: string[];
  /** Review scores out of 5 for the third-party reviews, one per review. */
  reviewScores: number[];
  /** Plausible employee counts of reviewers' companies. */
  reviewerSizes: number[];
}

export const COMPANIES: Company[] = [
  {
    key: 'acme.com',
    name: 'Acme Analytics',
    description:
      'Acme Analytics builds product analytics for B2B SaaS teams: event tracking, funnels, retention and account-level usage dashboards that product, growth and revenue teams share.',
    industry: 'Product analytics software',
    headquarters: 'Austin, Texas, United States',
    founded: 2016,
    employees: 240,
    category: 'the product analytics platform built for B2B SaaS teams',
    headline: 'Product analytics for B2B SaaS, down to the account',
    ceo: { name: 'Maya Lindqvist', title: 'co-founder and CEO' },
    exec: { name: 'Daniel Okafor', title: 'Chief Product Officer' },
    products: [
      { name: 'Acme Accounts', what: 'rolls every event up to the customer account and scores account health from seat activation, feature depth and usage trends' },
      { name: 'Acme Funnels', what: 'shows where trial users and new accounts drop off between signup, activation and the first paid invoice' },
      { name: 'Acme Boards', what: 'lets product managers build shared dashboards in minutes without writing SQL' },
      { name: 'Acme Signals', what: 'syncs product usage signals to Salesforce and HubSpot so account executives see expansion and churn risk inside the CRM' },
    ],
    differentiator:
      'rolls product usage up to the account, so customer success and sales teams see which accounts are expanding and which are drifting toward churn',
    weakness: 'has no built-in session replay, and its mobile SDKs still trail the web SDK in features',
    bestFor: 'B2B SaaS companies with 50 to 1,000 employees that want account-level analytics without a data team',
    pros: [
      'the account health view tells our customer success managers which renewals need attention',
      'we built our first dashboard in about fifteen minutes without writing SQL',
      'the Salesforce sync puts product usage next to every opportunity',
      'funnels and retention charts are fast even on a year of data',
    ],
    cons: [
      'there is no session replay, so we still pay for a separate tool',
      'the mobile SDK is behind the web SDK and misses some autocapture events',
      'the Business plan gets expensive once the whole company wants an editor seat',
    ],
    plans: [
      { name: 'Free', price: 0, includes: 'up to 3 seats, 1 million events a month and core funnels' },
      { name: 'Growth', price: 39, includes: '20 million events a month, unlimited dashboards and retention analysis' },
      { name: 'Business', price: 79, includes: 'account-level analytics, Acme Signals for Salesforce and HubSpot, and single sign-on' },
      { name: 'Enterprise', price: null, includes: 'EU data residency, audit logs, custom event volumes and a named customer success manager' },
    ],
    pricingNotes: [
      'Acme Analytics prices are per editor seat per month, billed annually, and monthly billing costs 20 percent more.',
      'Viewer seats are free on every Acme Analytics plan, so executives can read dashboards without a paid seat.',
      'Startups younger than two years get 50 percent off the Growth plan for the first year.',
    ],
    trialDays: 14,
    customerCount: '2,100',
    customers: [
      {
        name: 'Brightwave', kind: 'HR software company', employees: 320, person: 'Dana Ruiz', role: 'Head of Product',
        result: 'cut weekly product reporting time from six hours to one',
        detail: 'Brightwave replaced a set of hand-built spreadsheets with four shared Acme Boards that the product and customer success teams review every Monday.',
        quote: 'We stopped arguing about whose numbers were right and started talking about what to build next',
      },
      {
        name: 'Ledgerline', kind: 'fintech platform for small business accounting', employees: 180, person: 'Priya Natarajan', role: 'Head of Growth',
        result: 'raised trial-to-paid conversion from 14 percent to 21 percent in two quarters',
        detail: 'Ledgerline used Acme Funnels to find that trial accounts which connected a bank feed in the first three days converted at twice the average rate.',
        quote: 'Acme Funnels showed us the one onboarding step that mattered, and we rebuilt the trial around it',
      },
      {
        name: 'Copperleaf', kind: 'developer tools company', employees: 260, person: 'Marcus Hale', role: 'VP Customer Success',
        result: 'reduced gross revenue churn by 9 percent in a year',
        detail: 'Copperleaf routes Acme Signals alerts for accounts with falling seat activation to its customer success managers, who now reach at-risk accounts about six weeks earlier.',
        quote: 'The account health score gives my team a reason to call a customer before the renewal, not after it',
      },
    ],
    proof: [
      'Acme Analytics customers build their first dashboard in a median of 15 minutes.',
      'Acme Analytics processes more than 40 billion events a month for its customers.',
      'Teams that use Acme Signals report that account executives open product usage data on 3 out of 4 expansion opportunities.',
    ],
    trust: 'Acme Analytics is SOC 2 Type II certified, supports single sign-on on the Business plan and offers EU data residency in Frankfurt on the Enterprise plan.',
    integrations: ['Salesforce', 'HubSpot', 'Snowflake', 'BigQuery', 'Slack', 'Keelstone'],
    regions: ['North America', 'the UK and Ireland', 'DACH', 'the Nordics'],
    offices: ['Austin', 'Toronto', 'London', 'Berlin'],
    personas: ['VP Product', 'Head of Growth', 'Revenue Operations Lead', 'Head of Customer Success'],
    industries: ['B2B SaaS', 'developer tools', 'fintech'],
    funding: {
      round: 'Series C', amount: 62, lead: 'Northbeam Ventures', others: ['Tidewater Capital', 'Bluestem Ventures'], date: '2025-09-16', total: 104,
      use: 'expand its go-to-market teams in Europe and build AI features that explain why accounts grow or churn',
      investor: 'Helena Brandt', investorRole: 'partner at Northbeam Ventures',
      investorQuote: 'Acme Analytics has become the system of record for how B2B customers actually use software',
      traction: 'Acme Analytics more than doubled annual recurring revenue over the past eighteen months and now serves more than 2,100 customers.',
    },
    launches: [
      {
        name: 'Acme Signals', slug: 'introducing-acme-signals', date: '2026-03-10',
        what: 'sends product-qualified account alerts to Salesforce and HubSpot when usage crosses thresholds that a revenue team defines',
        details: [
          'Acme Signals watches seat activation, feature adoption and usage trends for every account and opens a CRM task when an account looks ready to expand.',
          'Revenue operations teams can set their own rules, such as ten active seats on a five-seat contract, without engineering help.',
          'During the beta, 60 customers created more than 4,000 expansion tasks from Acme Signals.',
        ],
        availability: 'Acme Signals is included in the Business plan at $79 per seat per month and in every Enterprise contract.',
        quote: 'Sales teams should not have to guess which accounts are ready to grow when the product already knows',
      },
      {
        name: 'Ask Acme', slug: 'ask-acme-plain-language-questions', date: '2026-06-02',
        what: 'answers plain-language questions about product usage with charts that link back to the underlying events',
        details: [
          'A Head of Product can ask which features the top 50 accounts adopted last quarter and get a chart in seconds.',
          'Ask Acme shows the query it ran, so analysts can check and reuse every answer.',
          'Ask Acme never sends raw event data outside the customer region that the workspace is hosted in.',
        ],
        availability: 'Ask Acme is available on the Growth, Business and Enterprise plans at no extra cost.',
        audience: 'the Head of Product and the VP Product',
        quote: 'The fastest dashboard is the one nobody had to build',
      },
    ],
    partnership: {
      partner: 'Keelstone', partnerKey: 'keelstone.com', slug: 'acme-analytics-and-keelstone-partnership', date: '2025-11-04',
      what: 'bring clean, consented event data into account-level analytics',
      details: [
        'Keelstone customers can now turn on Acme Analytics as a native destination in two clicks.',
        'Tracking plans defined in Keelstone are checked before events reach Acme Analytics, which keeps dashboards free of misspelled or duplicate events.',
        'The integration is available to joint customers on every paid plan of both products.',
      ],
    },
    jobs: [
      {
        title: 'Account Executive, Mid-Market (DACH)', slug: 'account-executive-mid-market-dach', location: 'Berlin', region: 'DACH', team: 'Sales',
        mission: 'win mid-market B2B SaaS accounts across Germany, Austria and Switzerland from the new Berlin office',
        duties: [
          'The Account Executive will run full sales cycles with VP Product and Head of Growth buyers at companies with 100 to 1,000 employees.',
          'The role carries an annual quota of about 700,000 euros in new business.',
          'The Account Executive works with a dedicated solutions engineer and a German-speaking customer success manager.',
        ],
        requirement: 'four or more years of SaaS sales experience and fluent German and English',
        pay: 'The on-target earnings for this role are 140,000 to 160,000 euros, split evenly between base and commission.',
        posted: '2026-02-09',
      },
      {
        title: 'Senior Data Engineer, Ingestion', slug: 'senior-data-engineer-ingestion', location: 'Toronto or remote in Canada', region: 'North America', team: 'Engineering',
        mission: 'scale the event ingestion pipeline from 40 billion to 150 billion events a month',
        duties: [
          'The Senior Data Engineer will own the streaming pipeline that validates, enriches and stores customer events.',
          'The team is moving account rollups from nightly batches to near real-time updates.',
        ],
        requirement: 'experience running high-volume streaming systems in production',
        pay: 'The base salary range is 165,000 to 195,000 Canadian dollars plus equity.',
        posted: '2026-07-20',
      },
    ],
    guide: {
      slug: 'how-to-measure-account-health-in-b2b-saas',
      title: 'How to measure account health in B2B SaaS',
      date: '2025-06-17',
      sentences: [
        'Account health in B2B SaaS is a forecast of whether a customer will renew and expand, not a vanity score.',
        'The three signals that predict renewal best in Acme Analytics data are seat activation, breadth of feature use and the trend in weekly active users.',
        'Seat activation compares active users with purchased seats, and accounts below 40 percent activation renew far less often.',
        'Breadth of feature use counts how many core workflows an account uses each month, because accounts that use one feature are easy to replace.',
        'Trend matters more than level, so a drop of 20 percent in weekly active users over a month deserves a call even from a large account.',
        'A Head of Customer Success should review health scores every week and agree with sales on which accounts get an expansion conversation.',
        'Acme Accounts calculates these signals automatically on the Business plan.',
      ],
    },
    switchStory: {
      from: 'globex.com', customer: 'Northfield Payroll', kind: 'payroll software company', person: 'Elena Voss', role: 'VP Product',
      why: [
        'Northfield Payroll switched from Globex to Acme Analytics after a Globex implementation took eleven weeks and still needed an analyst for every new report.',
        'The product team wanted account-level views that showed which payroll customers were adding employees and which were shrinking.',
        'Acme Analytics was live in nine days, and product managers built their own dashboards in the first week.',
      ],
      outcome: 'Northfield Payroll now spends about 35 percent less on analytics software than it did on Globex, because viewer seats are free on Acme Analytics.',
      date: '2026-04-14',
    },
    rivals: ['globex.com', 'funnelwise.io', 'lumetric.io', 'pulsegrid.io', 'quillmetrics.com', 'cohortly.io', 'meridianmetrics.io'],
    reviewScores: [5, 4, 4],
    reviewerSizes: [80, 120, 260, 600],
  },
  {
    key: 'globex.com',
    name: 'Globex',
    description:
      'Globex sells an enterprise analytics suite that combines product analytics, business intelligence and data governance for large organizations.',
    industry: 'Enterprise analytics and business intelligence software',
    headquarters: 'Chicago, Illinois, United States',
    founded: 2009,
    employees: 1450,
    category: 'the governed analytics suite for large enterprises',
    headline: 'One governed analytics suite for product, finance and operations',
    ceo: { name: 'Raymond Castellano', title: 'CEO' },
    exec: { name: 'Sunita Rao', title: 'Chief Technology Officer' },
    products: [
      { name: 'Globex Insight Suite', what: 'combines dashboards, scheduled reports and ad hoc analysis for finance, operations and product teams' },
      { name: 'Globex Product Analytics', what: 'tracks funnels, paths and retention for web and mobile products' },
      { name: 'Globex Governance', what: 'manages role-based access, certified metrics and audit trails across every dashboard' },
      { name: 'Globex Copilot', what: 'drafts reports and explains metric changes in plain language' },
    ],
    differentiator:
      'puts product analytics and business intelligence in one governed platform, with the role-based access and audit trails that large IT teams require',
    weakness: 'usually takes eight to twelve weeks to implement and needs a dedicated administrator',
    bestFor: 'enterprises with more than 2,000 employees that want one governed platform for every analytics team',
    pros: [
      'governance is excellent, and our auditors like the certified metrics',
      'one contract covers product analytics and the finance dashboards',
      'the enterprise support team answers within an hour',
    ],
    cons: [
      'implementation took us ten weeks and two consultants',
      'product managers still depend on analysts to build new reports',
      'the minimum of ten seats on the Team plan is steep for a small product team',
    ],
    plans: [
      { name: 'Team', price: 49, includes: 'a minimum of 10 seats, core dashboards and product analytics' },
      { name: 'Professional', price: 99, includes: 'Globex Governance, certified metrics, Globex Copilot and warehouse connectors' },
      { name: 'Enterprise', price: null, includes: 'private cloud deployment, premium support and unlimited viewers, with annual contracts starting at $60,000' },
    ],
    pricingNotes: [
      'Globex prices are per user per month on annual contracts, and every user who can open a dashboard needs a seat below the Enterprise plan.',
      'Implementation services for Globex start at $25,000 and are quoted separately.',
    ],
    trialDays: 30,
    customerCount: '3,400',
    customers: [
      {
        name: 'Crestmoor Bank', kind: 'regional bank', employees: 6200, person: 'Thomas Whitfield', role: 'Director of Business Intelligence',
        result: 'consolidated 14 reporting tools into one governed platform',
        detail: 'Crestmoor Bank moved 900 dashboards into Globex Insight Suite and retired four legacy reporting servers.',
        quote: 'Our auditors finally get one answer when they ask who can see customer data',
      },
      {
        name: 'Vellum Health', kind: 'healthcare provider network', employees: 12000, person: 'Grace Adeyemi', role: 'VP Data',
        result: 'cut monthly reporting close from ten days to four',
        detail: 'Vellum Health uses Globex Governance to certify 120 shared metrics across clinical, finance and digital teams.',
        quote: 'Certified metrics ended the spreadsheet wars between finance and operations',
      },
      {
        name: 'Stratacore Telecom', kind: 'telecom operator', employees: 8500, person: 'Luis Moreno', role: 'Head of Digital Products',
        result: 'lifted self-service plan upgrades in its mobile app by 18 percent',
        detail: 'Stratacore Telecom used Globex Product Analytics to find that customers abandoned plan upgrades on a slow address check.',
        quote: 'We found a problem in the upgrade path that had cost us for years',
      },
    ],
    proof: [
      'Globex serves more than 3,400 organizations, including 180 of the largest 1,000 companies in North America.',
      'Globex customers run more than 2 million scheduled reports every month.',
    ],
    trust: 'Globex holds SOC 2 Type II, ISO 27001 and HIPAA attestations and offers private cloud deployment on the Enterprise plan.',
    integrations: ['Salesforce', 'SAP', 'Snowflake', 'Databricks', 'Microsoft Teams', 'Tracelight'],
    regions: ['North America', 'EMEA', 'APAC'],
    offices: ['Chicago', 'New York', 'London', 'Amsterdam', 'Singapore', 'Sydney'],
    personas: ['CIO', 'VP Data', 'Director of Business Intelligence', 'VP Product'],
    industries: ['financial services', 'healthcare', 'telecom', 'retail'],
    funding: {
      round: 'Series E', amount: 140, lead: 'Eastgate Growth', others: ['Corvid Capital', 'Ironbridge Capital'], date: '2025-04-08', total: 410,
      use: 'fund acquisitions in product analytics and expand its data centers in APAC',
      investor: 'Victor Ames', investorRole: 'managing director at Eastgate Growth',
      investorQuote: 'Globex is the rare analytics vendor that CIOs trust with governance and product teams actually use',
      traction: 'Globex crossed $300 million in annual recurring revenue in 2024 and grew its enterprise customer base by 22 percent.',
    },
    launches: [
      {
        name: 'Globex Copilot', slug: 'globex-copilot', date: '2025-10-14',
        what: 'drafts reports and explains metric changes in plain language inside the governed Globex workspace',
        details: [
          'Globex Copilot only reads certified metrics, so its answers follow the same access rules as every dashboard.',
          'Early customers used Globex Copilot to draft about a third of their weekly executive reports.',
        ],
        availability: 'Globex Copilot is included in the Professional plan at $99 per user per month and in Enterprise contracts.',
        quote: 'Enterprises want AI in analytics, but only if it respects the governance they spent years building',
      },
      {
        name: 'Globex Replay', slug: 'globex-replay-after-tracelight', date: '2026-02-17',
        what: 'adds session replay to Globex Product Analytics after the acquisition of the Danish startup Tracelight',
        details: [
          'Globex acquired Tracelight, a 40-person session replay company based in Copenhagen, for an undisclosed sum.',
          'Tracelight customers will move to Globex Replay over the next twelve months.',
          'The acquisition puts Globex in direct competition with Lumetric for digital experience budgets.',
        ],
        availability: 'Globex Replay is an add-on for Professional and Enterprise customers, priced by session volume.',
        quote: 'Our customers asked to see the session behind every funnel drop, and now they can',
      },
    ],
    partnership: {
      partner: 'Cobaltline', slug: 'globex-and-cobaltline-partnership', date: '2026-05-27',
      what: 'bring governed product analytics into the Cobaltline CRM used by enterprise sales teams',
      details: [
        'Sales teams using Cobaltline will see certified Globex usage metrics on every account record.',
        'The partnership targets financial services and telecom customers that already use both products.',
      ],
    },
    jobs: [
      {
        title: 'Enterprise Account Director, APAC', slug: 'enterprise-account-director-apac', location: 'Singapore', region: 'APAC', team: 'Sales',
        mission: 'grow Globex revenue with banks, insurers and telecom operators across Southeast Asia',
        duties: [
          'The Account Director will manage a book of 25 strategic accounts and lead new business with CIO and Chief Data Officer buyers.',
          'The role works with partners in Singapore, Jakarta and Kuala Lumpur.',
        ],
        requirement: 'ten or more years of enterprise software sales in APAC financial services',
        pay: 'The on-target earnings for this role are 420,000 to 480,000 Singapore dollars.',
        posted: '2025-08-11',
      },
      {
        title: 'Product Manager, Product Analytics', slug: 'product-manager-product-analytics', location: 'Chicago or New York', region: 'North America', team: 'Product',
        mission: 'make Globex Product Analytics easy enough for product teams to use without analysts',
        duties: [
          'The Product Manager will own self-service report building and onboarding for new product teams.',
          'The role will work closely with the Tracelight team on replay and funnel integration.',
        ],
        requirement: 'five or more years of product management on analytics or data products',
        pay: 'The base salary range is $170,000 to $205,000 plus bonus and equity.',
        posted: '2026-03-23',
      },
    ],
    guide: {
      slug: 'governed-metrics-for-product-teams',
      title: 'Why product teams need governed metrics',
      date: '2025-07-08',
      sentences: [
        'Product teams in large enterprises often report three different numbers for active users, because each team defines the metric differently.',
        'A certified metric has one owner, one definition and one approved query, and every dashboard that uses it shows a badge.',
        'Globex customers typically certify between 50 and 150 metrics in their first year.',
        'The VP Data should own the certification process, while product leaders propose the metrics they need.',
        'Governed metrics slow down the first dashboard but save weeks of reconciliation every quarter.',
      ],
    },
    switchStory: {
      from: 'meridianmetrics.io', customer: 'Pinecrest Retail Group', kind: 'retail group', person: 'Olivia Grant', role: 'CIO',
      why: [
        'Pinecrest Retail Group switched from Meridian Metrics to Globex when it expanded from Europe into North America and Australia.',
        'Meridian Metrics could not host data in Australia, and the group wanted one contract across all three regions.',
      ],
      outcome: 'Pinecrest Retail Group now runs finance, store operations and e-commerce analytics on one Globex contract.',
      date: '2025-12-09',
    },
    rivals: ['acme.com', 'meridianmetrics.io', 'quillmetrics.com', 'lumetric.io'],
    reviewScores: [4, 3],
    reviewerSizes: [2600, 5400, 12000],
  },
  {
    key: 'funnelwise.io',
    name: 'Funnelwise',
    description:
      'Funnelwise is a self-serve funnel and conversion analytics tool for startups and small online businesses.',
    industry: 'Conversion analytics software',
    headquarters: 'Lisbon, Portugal',
    founded: 2019,
    employees: 85,
    category: 'the fastest way for startups to see where their funnel leaks',
    headline: 'Funnel analytics you can set up in an afternoon',
    ceo: { name: 'Inês Carvalho', title: 'co-founder and CEO' },
    exec: { name: 'Tomás Ferreira', title: 'co-founder and CTO' },
    products: [
      { name: 'Funnelwise Funnels', what: 'ships with ready-made templates for signup, onboarding and checkout funnels' },
      { name: 'Funnelwise Experiments', what: 'runs A/B tests on funnel steps and reports the lift with plain-language confidence notes' },
      { name: 'Funnelwise Journeys', what: 'maps the most common paths users take before they convert or leave' },
    ],
    differentiator: 'installs with one snippet and gives small teams working funnels on the first day, at a price early-stage startups can afford',
    weakness: 'lacks account-level rollups and slows down above about 50 million events a month',
    bestFor: 'startups and small online businesses with fewer than 50 employees',
    pros: [
      'we had working checkout funnels within an hour of adding the snippet',
      'the Pro plan is cheap enough that the whole team has a seat',
      'the funnel templates taught us what to measure',
    ],
    cons: [
      'there is no way to group users into companies, which hurts now that we sell to businesses',
      'reports slowed down after we passed 60 million events a month',
      'there is no single sign-on below the Scale plan',
    ],
    plans: [
      { name: 'Starter', price: 0, includes: 'up to 100,000 events a month, 2 seats and five funnels' },
      { name: 'Pro', price: 19, includes: '10 million events a month, unlimited funnels and Funnelwise Journeys' },
      { name: 'Scale', price: 45, includes: '50 million events a month, Funnelwise Experiments, single sign-on and priority support' },
    ],
    pricingNotes: [
      'Funnelwise bills per seat per month, and monthly and annual prices are the same.',
      'Funnelwise does not offer an enterprise plan or custom contracts.',
    ],
    trialDays: 7,
    customerCount: '5,800',
    customers: [
      {
        name: 'Parcelnest', kind: 'e-commerce shipping startup', employees: 35, person: 'Rafael Costa', role: 'Head of Growth',
        result: 'raised checkout completion from 61 percent to 72 percent',
        detail: 'Parcelnest used a Funnelwise checkout template to find that a surprise shipping fee on the last step drove most abandonment.',
        quote: 'Funnelwise paid for itself in the first week',
      },
      {
        name: 'Tinyfolio', kind: 'portfolio builder for creators', employees: 12, person: 'Amelia Scott', role: 'founder',
        result: 'doubled activation of new sign-ups in three months',
        detail: 'Tinyfolio ran eleven onboarding experiments in Funnelwise Experiments and kept the four that won.',
        quote: 'As a founder I need answers, not a data project',
      },
      {
        name: 'Mapleroot', kind: 'online tutoring marketplace', employees: 48, person: 'Chen Wei', role: 'Growth Marketing Manager',
        result: 'cut paid acquisition cost per booked lesson by 27 percent',
        detail: 'Mapleroot compared funnels by ad channel and moved budget away from two channels that produced sign-ups but no bookings.',
        quote: 'We finally see which channels bring learners who book, not just learners who sign up',
      },
    ],
    proof: [
      'Funnelwise customers create their first funnel in a median of eight minutes.',
      'More than 5,800 startups in 70 countries use Funnelwise.',
    ],
    trust: 'Funnelwise hosts all data in the European Union and is GDPR compliant, with cookieless tracking available on every plan.',
    integrations: ['Shopify', 'Stripe', 'Webflow', 'Slack', 'Google Ads'],
    regions: ['Western Europe', 'North America', 'Latin America'],
    offices: ['Lisbon', 'Barcelona', 'São Paulo'],
    personas: ['founder', 'Head of Growth', 'Growth Marketing Manager'],
    industries: ['e-commerce', 'consumer apps', 'early-stage SaaS'],
    funding: {
      round: 'Series A', amount: 14, lead: 'Lanternfish Ventures', others: ['Atlantico Seed Partners'], date: '2025-06-24', total: 19,
      use: 'open an office in São Paulo and build experimentation features',
      investor: 'Nadia Petrov', investorRole: 'general partner at Lanternfish Ventures',
      investorQuote: 'Funnelwise is how a generation of startups learns to measure growth',
      traction: 'Funnelwise grew from 2,000 to 5,800 paying customers in two years without an outbound sales team.',
    },
    launches: [
      {
        name: 'Funnelwise Experiments', slug: 'launching-funnelwise-experiments', date: '2026-01-20',
        what: 'runs A/B tests on any funnel step and explains the result in plain language',
        details: [
          'Funnelwise Experiments uses the same snippet as funnels, so there is no extra install.',
          'Each experiment report says how confident the result is and how many more visitors a clear answer would need.',
        ],
        availability: 'Funnelwise Experiments is included in the Scale plan at $45 per seat per month.',
        quote: 'Small teams deserve experimentation without a statistics degree',
      },
    ],
    jobs: [
      {
        title: 'Customer Success Manager, Latin America', slug: 'customer-success-manager-latam', location: 'São Paulo', region: 'Latin America', team: 'Customer Success',
        mission: 'help Funnelwise customers in Brazil, Mexico and Colombia grow from Pro to Scale',
        duties: [
          'The Customer Success Manager will run onboarding webinars in Portuguese and Spanish.',
          'The role covers about 400 Scale customers and the fastest-growing Pro accounts.',
        ],
        requirement: 'three or more years in customer success at a SaaS company and fluent Portuguese, Spanish and English',
        pay: 'The base salary range is 180,000 to 230,000 Brazilian reais per year plus stock options.',
        posted: '2025-10-06',
      },
      {
        title: 'Senior Backend Engineer, Query Engine', slug: 'senior-backend-engineer-query-engine', location: 'Lisbon or remote in Europe', region: 'Europe', team: 'Engineering',
        mission: 'make Funnelwise reports fast for customers above 50 million events a month',
        duties: [
          'The engineer will redesign how funnels are computed on large event tables.',
          'The first goal is to keep every report under two seconds at 200 million events a month.',
        ],
        requirement: 'deep experience with columnar databases and query performance',
        pay: 'The base salary range is 75,000 to 95,000 euros plus stock options.',
        posted: '2026-05-04',
      },
    ],
    guide: {
      slug: 'five-funnels-every-startup-should-track',
      title: 'Five funnels every startup should track',
      date: '2025-03-18',
      sentences: [
        'Every startup should track five funnels: visit to signup, signup to activation, activation to first payment, checkout, and referral.',
        'The activation funnel matters most in the first year, because most startups lose more than half of new sign-ups before they see value.',
        'A good activation event is specific, such as publishing a first page or sending a first invoice.',
        'Founders should review the five funnels every week with the whole team, not only the growth team.',
        'Funnelwise ships a template for each of these funnels on the free Starter plan.',
      ],
    },
    switchStory: {
      from: 'cohortly.io', customer: 'Quaykit', kind: 'developer tool startup', person: 'Jonas Berg', role: 'co-founder',
      why: [
        'Quaykit switched from Cohortly to Funnelwise because Cohortly was priced for mobile subscription apps and Quaykit only needed web funnels.',
        'The Funnelwise snippet took twenty minutes to install, compared with two days of SDK work on Cohortly.',
      ],
      outcome: 'Quaykit pays about 60 percent less for analytics on the Funnelwise Pro plan.',
      date: '2025-11-25',
    },
    rivals: ['acme.com', 'cohortly.io', 'tallyhawk.com'],
    reviewScores: [5, 4],
    reviewerSizes: [8, 15, 30, 45],
  },
  {
    key: 'lumetric.io',
    name: 'Lumetric',
    description:
      'Lumetric is a digital experience analytics platform that pairs session replay and heatmaps with product funnels.',
    industry: 'Digital experience analytics software',
    headquarters: 'Tel Aviv, Israel',
    founded: 2018,
    employees: 310,
    category: 'the digital experience analytics platform that shows why users struggle',
    headline: 'See why users struggle, not only where',
    ceo: { name: 'Noa Friedman', title: 'co-founder and CEO' },
    exec: { name: 'Ethan Brooks', title: 'President, Americas' },
    products: [
      { name: 'Lumetric Replay', what: 'records privacy-masked user sessions and links each one to the funnel step where the user stalled' },
      { name: 'Lumetric Heatmaps', what: 'shows clicks, scroll depth and rage clicks for every page template' },
      { name: 'Frustration Score', what: 'ranks pages and flows by rage clicks, dead clicks and error loops' },
    ],
    differentiator: 'pairs every funnel drop-off with the session replays behind it, so designers and product managers see why users stall',
    weakness: 'offers thin reporting on accounts and revenue, and replay storage costs climb quickly on high-traffic sites',
    bestFor: 'consumer-facing digital teams in e-commerce, travel and insurance that care about user experience',
    pros: [
      'watching the replays behind a funnel drop convinced our executives in one meeting',
      'Frustration Score finds broken pages before customers complain',
      'privacy masking is on by default, which made our legal review easy',
    ],
    cons: [
      'there are no account-level reports, which matters for our B2B portal',
      'replay volume limits forced us onto a bigger plan during the holiday season',
      'the funnel builder is less flexible than dedicated product analytics tools',
    ],
    plans: [
      { name: 'Basic', price: 29, includes: '5,000 recorded sessions a month, heatmaps and basic funnels' },
      { name: 'Plus', price: 69, includes: '50,000 recorded sessions a month, Frustration Score and journey analysis' },
      { name: 'Enterprise', price: null, includes: 'custom session volumes, data retention of up to 25 months and a dedicated success team' },
    ],
    pricingNotes: [
      'Lumetric prices are per seat per month billed annually, and extra sessions are sold in blocks of 10,000.',
      'Each block of 10,000 extra sessions on Lumetric costs $150 a month.',
    ],
    trialDays: 14,
    customerCount: '1,900',
    customers: [
      {
        name: 'Stayloft', kind: 'short-stay travel booking site', employees: 450, person: 'Hannah Cole', role: 'Head of UX',
        result: 'recovered an estimated $2 million in annual bookings',
        detail: 'Stayloft found through Lumetric Replay that a date picker failed on one popular Android browser.',
        quote: 'We would never have found that bug from a funnel chart alone',
      },
      {
        name: 'Brickyard Insurance', kind: 'digital insurer', employees: 700, person: 'Samuel Achebe', role: 'VP Digital',
        result: 'raised online quote completion by 23 percent',
        detail: 'Brickyard Insurance used Frustration Score to rank the five worst steps in its quote form and fixed them in one quarter.',
        quote: 'Frustration Score gave our designers a priority list backed by evidence',
      },
      {
        name: 'Fernway', kind: 'home and garden retailer', employees: 2300, person: 'Claire Dubois', role: 'Director of E-commerce',
        result: 'cut checkout errors by 40 percent before peak season',
        detail: 'Fernway reviewed 3,000 failed checkout sessions in Lumetric Replay and found two address validation bugs.',
        quote: 'Replay turned vague complaints into tickets our engineers could fix',
      },
    ],
    proof: [
      'Lumetric records more than 900 million sessions a month for its customers.',
      'Lumetric customers report a median 17 percent lift in conversion on the flows they fix first.',
    ],
    trust: 'Lumetric masks all text input by default, is SOC 2 Type II and ISO 27001 certified, and hosts data in the EU or the US.',
    integrations: ['Quillmetrics', 'Jira', 'Slack', 'Shopify', 'Zendesk'],
    regions: ['EMEA', 'North America'],
    offices: ['Tel Aviv', 'New York', 'London'],
    personas: ['Head of UX', 'VP Digital', 'Product Designer', 'Director of E-commerce'],
    industries: ['e-commerce', 'travel', 'insurance', 'consumer fintech'],
    funding: {
      round: 'Series C', amount: 55, lead: 'Graniteview Partners', others: ['Lanternfish Ventures'], date: '2025-11-18', total: 98,
      use: 'build mobile app replay and grow its North American sales team',
      investor: 'Owen Gallagher', investorRole: 'partner at Graniteview Partners',
      investorQuote: 'Lumetric turns user frustration into a number that executives act on',
      traction: 'Lumetric grew revenue 70 percent in the last twelve months and added 600 customers.',
    },
    launches: [
      {
        name: 'Frustration Score', slug: 'introducing-frustration-score', date: '2025-07-15',
        what: 'ranks every page and flow by rage clicks, dead clicks, error loops and quick exits',
        details: [
          'Frustration Score updates every hour and links each score to the sessions that caused it.',
          'Teams can send a Slack alert when a page score jumps after a release.',
        ],
        availability: 'Frustration Score is included in the Plus plan at $69 per seat per month.',
        quote: 'A single score helps designers win the argument for fixing what hurts users most',
      },
      {
        name: 'Lumetric Mobile Replay', slug: 'lumetric-mobile-replay', date: '2026-05-12',
        what: 'brings privacy-masked session replay to native iOS and Android apps',
        details: [
          'Lumetric Mobile Replay captures gestures, screen changes and crashes with less than 2 percent battery overhead in internal tests.',
          'Mobile sessions appear in the same funnels and Frustration Score views as web sessions.',
        ],
        availability: 'Lumetric Mobile Replay is available on the Plus and Enterprise plans.',
        quote: 'Half of our customers\' revenue now comes through apps, so replay had to follow',
      },
    ],
    partnership: {
      partner: 'Quillmetrics', partnerKey: 'quillmetrics.com', slug: 'lumetric-and-quillmetrics-partnership', date: '2026-08-18',
      what: 'bring session replay links into warehouse-native product analytics',
      details: [
        'Quillmetrics users can open the Lumetric replays behind any cohort or funnel step in one click.',
        'Lumetric frustration events can be exported to Snowflake and BigQuery, where Quillmetrics analyzes them with other product data.',
      ],
    },
    jobs: [
      {
        title: 'Enterprise Account Executive, Northeast US', slug: 'enterprise-account-executive-northeast', location: 'New York', region: 'North America', team: 'Sales',
        mission: 'win enterprise e-commerce, travel and insurance accounts in the northeastern United States',
        duties: [
          'The Account Executive will sell to VP Digital and Head of UX buyers at companies with more than 1,000 employees.',
          'The role carries an annual quota of $1,100,000 in new annual recurring revenue.',
        ],
        requirement: 'five or more years of enterprise SaaS sales to digital or e-commerce leaders',
        pay: 'The on-target earnings for this role are $250,000 to $290,000 with a 50 to 50 split.',
        posted: '2025-12-15',
      },
      {
        title: 'Mobile Engineer, Replay SDK', slug: 'mobile-engineer-replay-sdk', location: 'Tel Aviv', region: 'EMEA', team: 'Engineering',
        mission: 'make Lumetric Mobile Replay the lightest replay SDK on iOS and Android',
        duties: [
          'The engineer will own performance and privacy masking in the mobile SDK.',
          'The team ships SDK releases every two weeks.',
        ],
        requirement: 'experience building SDKs for native iOS or Android apps',
        pay: 'The salary range is 38,000 to 46,000 shekels a month plus equity.',
        posted: '2026-06-29',
      },
    ],
    guide: {
      slug: 'how-to-read-a-rage-click',
      title: 'How to read a rage click',
      date: '2025-09-23',
      sentences: [
        'A rage click is three or more clicks on the same element within a second, and it usually means the page did not respond as the user expected.',
        'Not every rage click is a bug, because some users click repeatedly on slow-loading buttons out of habit.',
        'The useful signal is a change: a page whose rage click rate doubles after a release almost always has a regression.',
        'A Head of UX should pair rage click data with replays before asking engineers for a fix.',
        'Lumetric groups rage clicks by element so teams can fix the worst button first.',
      ],
    },
    switchStory: {
      from: 'cohortly.io', customer: 'Coastline Credit Union', kind: 'credit union', person: 'Megan Park', role: 'Director of Digital Banking',
      why: [
        'Coastline Credit Union switched from Cohortly to Lumetric because its digital team needed to see why members abandoned loan applications, not only how many did.',
        'Cohortly showed the drop-off in the loan funnel, but only Lumetric Replay showed the confusing income field behind it.',
      ],
      outcome: 'Coastline Credit Union raised completed online loan applications by 19 percent in the first quarter after the switch.',
      date: '2026-02-03',
    },
    rivals: ['cohortly.io', 'acme.com', 'beaconly.io', 'globex.com'],
    reviewScores: [4, 5],
    reviewerSizes: [300, 800, 2300],
  },
  {
    key: 'tallyhawk.com',
    name: 'Tallyhawk',
    description:
      'Tallyhawk is open-source product analytics that teams can self-host or run in Tallyhawk Cloud.',
    industry: 'Open-source product analytics software',
    headquarters: 'Amsterdam, Netherlands',
    founded: 2020,
    employees: 120,
    category: 'open-source product analytics you can run in your own cloud',
    headline: 'Open-source product analytics, in your cloud or ours',
    ceo: { name: 'Pieter de Vries', title: 'co-founder and CEO' },
    exec: { name: 'Aisha Rahman', title: 'VP Engineering' },
    products: [
      { name: 'Tallyhawk Core', what: 'is the open-source analytics engine with events, funnels, paths and retention' },
      { name: 'Tallyhawk Cloud', what: 'runs Tallyhawk as a managed service in EU or US regions' },
      { name: 'Tallyhawk Flags', what: 'adds feature flags and gradual rollouts that share the same event data' },
    ],
    differentiator: 'is open-source under the MIT license, so engineering teams can self-host it, read the code and keep every event inside their own cloud account',
    weakness: 'needs ongoing engineering time when self-hosted, and its dashboards feel built for engineers rather than marketers',
    bestFor: 'engineering-led teams and privacy-sensitive organizations that want to own their analytics stack',
    pros: [
      'self-hosting let us keep all user data inside our own cloud account',
      'feature flags and analytics share one event stream, which removed a whole tool',
      'the community answers questions faster than most vendors',
    ],
    cons: [
      'upgrading our self-hosted cluster takes an engineer about two days each quarter',
      'our marketing team finds the interface too technical',
      'account-level reporting needs custom queries',
    ],
    plans: [
      { name: 'Community', price: 0, includes: 'the self-hosted open-source edition with unlimited events and community support' },
      { name: 'Cloud Team', price: 25, includes: 'the managed cloud service with 25 million events a month and email support' },
      { name: 'Cloud Enterprise', price: 60, includes: 'the managed cloud service with custom event volumes, single sign-on and audit logs' },
      { name: 'Self-Hosted Enterprise', price: null, includes: 'a commercial license, support for air-gapped clusters and a support SLA' },
    ],
    pricingNotes: [
      'Tallyhawk Cloud prices are per seat per month, and extra events cost $20 per million beyond the plan allowance.',
      'The Community edition of Tallyhawk is free forever under the MIT license.',
    ],
    trialDays: 30,
    customerCount: '1,300',
    customers: [
      {
        name: 'Nordvik Energy', kind: 'energy utility', employees: 5400, person: 'Ingrid Solberg', role: 'Head of Digital Channels',
        result: 'moved all customer-portal analytics inside its own cloud account',
        detail: 'Nordvik Energy runs self-hosted Tallyhawk on its private cloud to meet Norwegian rules on customer data.',
        quote: 'Self-hosting was the only way our security team would approve product analytics',
        plan: 'Self-Hosted Enterprise',
      },
      {
        name: 'Kestrel Security', kind: 'cybersecurity company', employees: 380, person: 'Ravi Menon', role: 'CTO',
        result: 'replaced two vendors with one self-hosted stack',
        detail: 'Kestrel Security uses Tallyhawk Flags to roll out detection features to 5 percent of customers before a full release.',
        quote: 'Security customers ask where their data goes, and now the answer is nowhere',
      },
      {
        name: 'Greyharbor Health', kind: 'digital health provider', employees: 900, person: 'Fiona Walsh', role: 'Data Protection Officer',
        result: 'passed a national health data audit with no findings on analytics',
        detail: 'Greyharbor Health keeps patient app analytics in a Tallyhawk cluster inside its own data center in Ireland.',
        quote: 'Open code made our audit simple because the auditors could read exactly what we collect',
        plan: 'Self-Hosted Enterprise',
      },
    ],
    proof: [
      'Tallyhawk has more than 21,000 stars on GitHub and 400 code contributors.',
      'More than 9,000 organizations run self-hosted Tallyhawk, and 1,300 pay for Tallyhawk Cloud or an enterprise license.',
      'The Tallyhawk team works remotely across 19 countries, with hubs in Amsterdam and Toronto.',
    ],
    trust: 'Tallyhawk Cloud is SOC 2 Type II certified and hosts EU customers in Frankfurt, while self-hosted customers keep data wherever they choose.',
    integrations: ['Kubernetes', 'PostgreSQL', 'Snowflake', 'Keelstone', 'Slack'],
    regions: ['Europe', 'North America'],
    offices: ['Amsterdam', 'Toronto'],
    personas: ['CTO', 'Head of Engineering', 'Data Engineer', 'Data Protection Officer'],
    industries: ['developer tools', 'government', 'healthcare', 'cybersecurity'],
    funding: {
      round: 'Series B', amount: 32, lead: 'Corvid Capital', others: ['Lanternfish Ventures', 'Polder Angels'], date: '2026-04-07', total: 47,
      use: 'grow Tallyhawk Cloud in North America and fund full-time maintainers for the open-source project',
      investor: 'Mei Tanaka', investorRole: 'partner at Corvid Capital',
      investorQuote: 'Open source is how developers now choose analytics, and Tallyhawk is the project they choose',
      traction: 'Tallyhawk Cloud revenue tripled in 2025.',
    },
    launches: [
      {
        name: 'Tallyhawk 3', slug: 'tallyhawk-3-release', date: '2025-09-09',
        what: 'replaces the storage layer with a columnar engine that runs funnels up to ten times faster',
        details: [
          'Tallyhawk 3 cuts the disk footprint of self-hosted clusters by about 60 percent.',
          'Existing clusters can upgrade in place with a migration tool that runs in the background.',
        ],
        availability: 'Tallyhawk 3 is free in the Community edition and already live for every Tallyhawk Cloud plan.',
        quote: 'Self-hosted analytics has to be cheap to run, or teams give up on it',
      },
      {
        name: 'Tallyhawk Flags', slug: 'tallyhawk-flags', date: '2026-07-14',
        what: 'adds feature flags and gradual rollouts on top of the same event stream as analytics',
        details: [
          'Teams can release a feature to 5 percent of users and watch its funnel impact in the same screen.',
          'Tallyhawk Flags evaluates flags locally in the SDK, so a flag check adds no network call.',
        ],
        availability: 'Tallyhawk Flags is open source and included in Cloud Team at $25 per seat per month.',
        quote: 'A flag without analytics is a guess, and analytics without flags is a report',
      },
    ],
    jobs: [
      {
        title: 'Developer Advocate, North America', slug: 'developer-advocate-north-america', location: 'Remote in the United States or Canada', region: 'North America', team: 'Marketing',
        mission: 'grow the Tallyhawk community in North America and help developers move from self-hosted to Tallyhawk Cloud',
        duties: [
          'The Developer Advocate will write tutorials, speak at conferences and run monthly community calls.',
          'The role measures success by active self-hosted installs and Cloud sign-ups in the region.',
        ],
        requirement: 'a public record of technical writing or talks about data or developer tools',
        pay: 'The base salary range is $135,000 to $160,000 plus equity.',
        posted: '2026-04-20',
      },
      {
        title: 'Solutions Engineer, Public Sector', slug: 'solutions-engineer-public-sector', location: 'Amsterdam or Brussels', region: 'Europe', team: 'Sales',
        mission: 'help European public sector bodies deploy self-hosted Tallyhawk',
        duties: [
          'The Solutions Engineer will run technical evaluations and security reviews with government IT teams.',
          'The role supports public tenders in the Netherlands, Belgium and Germany.',
        ],
        requirement: 'experience deploying software on Kubernetes in regulated environments',
        pay: 'The base salary range is 80,000 to 100,000 euros plus equity.',
        posted: '2025-05-12',
      },
    ],
    guide: {
      slug: 'self-hosted-analytics-total-cost',
      title: 'What self-hosted analytics really costs',
      date: '2025-10-28',
      sentences: [
        'A self-hosted analytics cluster for 100 million events a month costs about $900 a month in cloud infrastructure.',
        'The larger cost is people, because upgrades, backups and monitoring take about two engineer days a month.',
        'Self-hosting pays off when data residency rules or security reviews would otherwise block analytics entirely.',
        'Teams without those constraints usually spend less on Tallyhawk Cloud than on running their own cluster.',
        'A CTO should compare the full cost, including on-call time, before choosing to self-host.',
      ],
    },
    switchStory: {
      from: 'funnelwise.io', customer: 'Openleaf', kind: 'open-source documentation platform', person: 'Kai Müller', role: 'Head of Engineering',
      why: [
        'Openleaf switched from Funnelwise to Tallyhawk because its enterprise customers asked for analytics that never leave their own infrastructure.',
        'Funnelwise only runs as a hosted service, while Tallyhawk could ship inside the Openleaf self-hosted package.',
      ],
      outcome: 'Openleaf now bundles Tallyhawk with its enterprise edition and won three government contracts that required on-premise analytics.',
      date: '2026-01-13',
    },
    rivals: ['funnelwise.io', 'quillmetrics.com', 'keelstone.com', 'meridianmetrics.io'],
    reviewScores: [4, 4],
    reviewerSizes: [45, 120, 400, 1400],
  },
  {
    key: 'cohortly.io',
    name: 'Cohortly',
    description:
      'Cohortly is a retention and cohort analytics platform for mobile apps and subscription businesses.',
    industry: 'Mobile and subscription analytics software',
    headquarters: 'Seattle, Washington, United States',
    founded: 2017,
    employees: 160,
    category: 'retention analytics for mobile apps and subscription businesses',
    headline: 'Retention analytics for apps that live on subscriptions',
    ceo: { name: 'Jordan Pike', title: 'CEO' },
    exec: { name: 'Leila Haddad', title: 'VP Marketing' },
    products: [
      { name: 'Cohortly Retention', what: 'tracks retention curves by install date, plan, channel and country' },
      { name: 'Churn Forecast', what: 'predicts which subscribers are likely to cancel in the next 30 days' },
      { name: 'Cohortly Revenue', what: 'joins app store and billing data to show lifetime value by cohort' },
    ],
    differentiator: 'predicts churn risk by cohort and ties retention curves to subscription revenue from app stores and billing systems',
    weakness: 'is weaker for B2B account hierarchies and web-first SaaS products',
    bestFor: 'mobile apps and consumer subscription businesses that live or die on retention',
    pros: [
      'Churn Forecast is accurate enough that our lifecycle team builds campaigns on it',
      'app store revenue and product events finally live in one place',
      'retention charts by acquisition channel changed how we buy ads',
    ],
    cons: [
      'the web SDK feels like an afterthought next to the mobile SDKs',
      'there is no real support for business accounts with many users',
      'pricing by tracked users jumped when our free tier grew',
    ],
    plans: [
      { name: 'Launch', price: 0, includes: 'up to 10,000 monthly tracked users and core retention charts' },
      { name: 'Growth', price: 35, includes: 'up to 250,000 monthly tracked users, Cohortly Revenue and app store connectors' },
      { name: 'Pro', price: 75, includes: 'up to 2 million monthly tracked users, Churn Forecast and raw data export' },
      { name: 'Enterprise', price: null, includes: 'unlimited tracked users, data residency options and a named success manager' },
    ],
    pricingNotes: [
      'Cohortly prices are per seat per month billed annually, and each plan includes a monthly tracked user allowance.',
      'Extra monthly tracked users on Cohortly cost $4 per thousand.',
    ],
    trialDays: 14,
    customerCount: '2,600',
    customers: [
      {
        name: 'Fitloop', kind: 'home fitness app', employees: 140, person: 'Sophie Laurent', role: 'Head of Retention',
        result: 'lifted 90-day subscriber retention from 31 percent to 38 percent',
        detail: 'Fitloop used Churn Forecast to send a personal plan review to subscribers flagged as at risk in their third week.',
        quote: 'Churn Forecast tells us who to talk to while there is still time',
      },
      {
        name: 'Chimebank', kind: 'mobile-only neobank', employees: 420, person: 'Daniel Kim', role: 'Lifecycle Marketing Manager',
        result: 'grew card activation in the first week by 26 percent',
        detail: 'Chimebank compared cohorts by onboarding variant and found that showing the virtual card first doubled early spending.',
        quote: 'Cohorts by onboarding variant were the single most useful view we built this year',
      },
      {
        name: 'Tunefield', kind: 'music learning app', employees: 65, person: 'Ana Ribeiro', role: 'Product Manager',
        result: 'cut refund requests by a third',
        detail: 'Tunefield joined app store refunds to product events in Cohortly Revenue and found that most refunds followed a broken first lesson on tablets.',
        quote: 'Seeing refunds next to product events changed our roadmap',
      },
    ],
    proof: [
      'Cohortly analyzes more than 300 million monthly tracked users across its customers.',
      'Cohortly customers that use Churn Forecast report a median 12 percent drop in subscriber churn.',
    ],
    trust: 'Cohortly is SOC 2 Type II certified and offers data residency in the US, EU and Singapore on the Enterprise plan.',
    integrations: ['Apple App Store', 'Google Play', 'Stripe', 'Braze', 'Keelstone'],
    regions: ['North America', 'the UK', 'APAC'],
    offices: ['Seattle', 'London', 'Singapore'],
    personas: ['Head of Retention', 'Lifecycle Marketing Manager', 'Product Manager', 'Head of Growth'],
    industries: ['consumer subscription apps', 'mobile games', 'fintech apps', 'health and fitness'],
    funding: {
      round: 'Series B', amount: 40, lead: 'Bluestem Ventures', others: ['Graniteview Partners'], date: '2025-03-11', total: 58,
      use: 'expand into web SaaS analytics and open an engineering hub in Singapore',
      investor: 'Carlos Mendes', investorRole: 'general partner at Bluestem Ventures',
      investorQuote: 'Every subscription business needs to understand retention, and Cohortly makes it a daily habit',
      traction: 'Cohortly doubled its enterprise customer count in 2024 and now serves 2,600 apps.',
    },
    launches: [
      {
        name: 'Churn Forecast', slug: 'churn-forecast-launch', date: '2025-08-19',
        what: 'predicts which subscribers are likely to cancel in the next 30 days and explains the top reasons',
        details: [
          'Churn Forecast trains a model on each customer\'s own retention history and refreshes scores every night.',
          'Scores can be sent to Braze or any messaging tool through Cohortly audiences.',
        ],
        availability: 'Churn Forecast is included in the Pro plan at $75 per seat per month.',
        quote: 'Retention teams should spend their time saving subscribers, not building models',
      },
      {
        name: 'Cohortly for Web', slug: 'cohortly-for-web', date: '2026-02-24',
        what: 'brings Cohortly retention and revenue analysis to web apps and SaaS products',
        details: [
          'Cohortly for Web adds a lightweight browser SDK and account grouping for teams that sell to businesses.',
          'The launch moves Cohortly into web SaaS, where it now meets Acme Analytics and Funnelwise in more deals.',
        ],
        availability: 'Cohortly for Web is included in the Growth and Pro plans at no extra cost.',
        quote: 'Subscription businesses are not only mobile anymore, and neither are we',
      },
    ],
    jobs: [
      {
        title: 'Sales Development Representative, UK', slug: 'sales-development-representative-uk', location: 'London', region: 'the UK and Ireland', team: 'Sales',
        mission: 'build pipeline with subscription apps and fintech apps across the UK and Ireland',
        duties: [
          'The Sales Development Representative will research accounts and book meetings with Head of Growth and Head of Retention buyers.',
          'The target is 18 qualified meetings a month.',
        ],
        requirement: 'one or more years of outbound experience at a B2B software company',
        pay: 'The on-target earnings for this role are 52,000 to 60,000 pounds.',
        posted: '2025-09-15',
      },
      {
        title: 'Machine Learning Engineer, Churn Forecast', slug: 'machine-learning-engineer-churn-forecast', location: 'Singapore', region: 'APAC', team: 'Engineering',
        mission: 'improve Churn Forecast accuracy and explain predictions in plain language',
        duties: [
          'The engineer will own model training and evaluation for 2,600 customer apps.',
          'The role is one of the first five hires at the new Singapore engineering hub.',
        ],
        requirement: 'experience shipping machine learning models to production at scale',
        pay: 'The base salary range is 150,000 to 190,000 Singapore dollars plus equity.',
        posted: '2025-09-22',
      },
    ],
    guide: {
      slug: 'reading-retention-curves',
      title: 'Reading retention curves without fooling yourself',
      date: '2025-05-06',
      sentences: [
        'A retention curve that flattens is the clearest sign of product-market fit, because it shows a group of users who stay.',
        'Curves should be compared by cohort, since a blended curve hides whether newer users retain better or worse.',
        'Seasonal apps need year-over-year cohorts, because a January cohort of fitness users behaves differently from a June cohort.',
        'A Head of Retention should track the day 7, day 30 and day 90 points for every monthly cohort.',
        'Cohortly shows these points for every cohort on the free Launch plan.',
      ],
    },
    switchStory: {
      from: 'funnelwise.io', customer: 'Pagewise', kind: 'e-reading subscription app', person: 'Rosa Jimenez', role: 'Head of Growth',
      why: [
        'Pagewise switched from Funnelwise to Cohortly when it moved from one-time purchases to subscriptions.',
        'Funnelwise showed checkout conversion well, but it could not connect app store renewals to reading behavior.',
      ],
      outcome: 'Pagewise found that readers who finished a book in the first week renewed at twice the rate, and rebuilt onboarding around it.',
      date: '2025-10-21',
    },
    rivals: ['funnelwise.io', 'lumetric.io', 'acme.com', 'beaconly.io'],
    reviewScores: [4, 4],
    reviewerSizes: [30, 65, 140, 420],
  },
  {
    key: 'pulsegrid.io',
    name: 'Pulsegrid',
    description:
      'Pulsegrid is a product-led sales platform that turns product usage into scored leads and accounts for sales teams.',
    industry: 'Product-led sales software',
    headquarters: 'New York, New York, United States',
    founded: 2021,
    employees: 95,
    category: 'the product-led sales platform for revenue teams',
    headline: 'Turn product usage into pipeline',
    ceo: { name: 'Alicia Moreau', title: 'co-founder and CEO' },
    exec: { name: 'Ben Osei', title: 'co-founder and Chief Revenue Officer' },
    products: [
      { name: 'PQL Studio', what: 'scores product-qualified leads and accounts with rules or a model trained on past wins' },
      { name: 'Pulsegrid Routing', what: 'assigns hot accounts to the right account executive in Salesforce or HubSpot' },
      { name: 'Pulsegrid Agents', what: 'drafts account research and first emails for sales development teams' },
    ],
    differentiator: 'scores product-qualified leads and accounts and routes them to account executives inside Salesforce and HubSpot with the usage context attached',
    weakness: 'relies on another analytics tool or a data warehouse for event data and offers only basic product dashboards',
    bestFor: 'product-led B2B SaaS companies whose sales teams work free and trial users',
    pros: [
      'our account executives finally know which free workspaces to call',
      'routing rules replaced a spreadsheet our ops team updated by hand every morning',
      'Pulsegrid Agents cut research time per account from twenty minutes to five',
    ],
    cons: [
      'we still need a separate analytics tool for product dashboards',
      'the scoring model needed three months of data before it beat our rules',
      'the Growth plan is expensive for a team of only five account executives',
    ],
    plans: [
      { name: 'Starter', price: 49, includes: 'rule-based PQL scoring, HubSpot sync and up to 5,000 scored accounts' },
      { name: 'Growth', price: 99, includes: 'model-based scoring, Salesforce sync, Pulsegrid Routing and up to 50,000 scored accounts' },
      { name: 'Enterprise', price: null, includes: 'Pulsegrid Agents, custom objects, sandbox workspaces and unlimited scored accounts' },
    ],
    pricingNotes: [
      'Pulsegrid prices are per sales seat per month billed annually, and product and data team users are free.',
      'Pulsegrid requires an annual contract on every plan.',
    ],
    trialDays: 21,
    customerCount: '450',
    customers: [
      {
        name: 'Gridnote', kind: 'collaboration SaaS company', employees: 520, person: 'Rachel Dunn', role: 'VP Sales',
        result: 'grew self-serve to sales-assisted upgrades by 45 percent',
        detail: 'Gridnote routes workspaces that add ten members in a week to an account executive within an hour.',
        quote: 'Pulsegrid gave my team a list of accounts that already love the product',
      },
      {
        name: 'Shiftwise', kind: 'workforce management software company', employees: 310, person: 'Kevin Tran', role: 'Revenue Operations Lead',
        result: 'cut lead response time from two days to three hours',
        detail: 'Shiftwise replaced a nightly spreadsheet export with Pulsegrid Routing rules in Salesforce.',
        quote: 'Routing used to be my morning chore, and now it just happens',
      },
      {
        name: 'Clearpane', kind: 'cloud security startup', employees: 140, person: 'Nora Lind', role: 'Head of Sales Development',
        result: 'doubled meetings booked per sales development representative',
        detail: 'Clearpane sales development representatives use Pulsegrid Agents to prepare account research before every call.',
        quote: 'My team now opens every call knowing what the prospect already tried in the product',
      },
    ],
    proof: [
      'Pulsegrid customers convert product-qualified accounts to paid at three times the rate of marketing-qualified leads.',
      'Pulsegrid scores more than 12 million accounts every day.',
    ],
    trust: 'Pulsegrid is SOC 2 Type II certified and never stores raw event payloads, only the aggregates used for scoring.',
    integrations: ['Salesforce', 'HubSpot', 'Acme Analytics', 'Keelstone', 'Snowflake', 'Slack'],
    regions: ['North America', 'the UK'],
    offices: ['New York', 'London'],
    personas: ['VP Sales', 'Revenue Operations Lead', 'Head of Sales Development', 'Chief Revenue Officer'],
    industries: ['B2B SaaS', 'collaboration software', 'security software'],
    funding: {
      round: 'Series A', amount: 21, lead: 'Oakhollow Partners', others: ['Tidewater Capital'], date: '2025-07-29', total: 27,
      use: 'launch AI research agents for sales teams and open a London office',
      investor: 'Grace Whitman', investorRole: 'partner at Oakhollow Partners',
      investorQuote: 'Product-led companies need sales tools built around usage, not form fills',
      traction: 'Pulsegrid grew from 120 to 450 customers in eighteen months.',
    },
    launches: [
      {
        name: 'PQL Studio', slug: 'pql-studio', date: '2026-01-13',
        what: 'lets revenue operations teams build, test and compare lead scoring models on their own product data',
        details: [
          'PQL Studio backtests each scoring model against the last twelve months of closed deals.',
          'Revenue operations teams can compare a rule-based score with a trained model side by side before switching.',
        ],
        availability: 'PQL Studio is included in the Growth plan at $99 per seat per month.',
        quote: 'Lead scoring should be tested like a product, not set once and forgotten',
      },
      {
        name: 'Pulsegrid Agents', slug: 'pulsegrid-agents', date: '2026-06-23',
        what: 'researches product-qualified accounts and drafts first emails for sales development representatives',
        details: [
          'Pulsegrid Agents combines product usage, CRM history and public company news into a one-page brief per account.',
          'Every draft email cites the usage facts it relies on, so representatives can check them before sending.',
        ],
        availability: 'Pulsegrid Agents is included in Enterprise contracts and sold as an add-on for the Growth plan.',
        quote: 'The best first email mentions what the customer already did in the product',
      },
    ],
    partnership: {
      partner: 'Beaconly', partnerKey: 'beaconly.io', slug: 'pulsegrid-and-beaconly-partnership', date: '2026-02-10',
      what: 'add feature adoption data from in-app guides to product-qualified lead scores',
      details: [
        'Beaconly guide completions and checklist progress now flow into PQL Studio as scoring signals.',
        'Joint customers can trigger a Beaconly guide when Pulsegrid marks an account as ready for a sales conversation.',
      ],
    },
    jobs: [
      {
        title: 'Account Executive, Mid-Market (UK)', slug: 'account-executive-mid-market-uk', location: 'London', region: 'the UK and Ireland', team: 'Sales',
        mission: 'open the UK market for Pulsegrid from the new London office',
        duties: [
          'The Account Executive will sell to VP Sales and Revenue Operations Lead buyers at product-led SaaS companies.',
          'The role is the first quota-carrying hire in Europe and reports to the Chief Revenue Officer.',
        ],
        requirement: 'three or more years selling sales or revenue software in the UK',
        pay: 'The on-target earnings for this role are 120,000 to 140,000 pounds.',
        posted: '2025-10-27',
      },
      {
        title: 'Revenue Operations Manager', slug: 'revenue-operations-manager', location: 'New York', region: 'North America', team: 'Operations',
        mission: 'run Pulsegrid on Pulsegrid and build the revenue operations playbook customers copy',
        duties: [
          'The manager will own lead routing, forecasting and CRM hygiene for a sales team of 30.',
          'The role publishes the internal playbook as customer templates in PQL Studio.',
        ],
        requirement: 'four or more years in revenue operations at a product-led company',
        pay: 'The base salary range is $140,000 to $165,000 plus equity.',
        posted: '2026-08-31',
      },
    ],
    guide: {
      slug: 'what-makes-a-product-qualified-account',
      title: 'What makes a product-qualified account',
      date: '2025-08-26',
      sentences: [
        'A product-qualified account is a free or trial account whose usage looks like the usage of accounts that later bought.',
        'The strongest signals are team growth, use of a paid-only feature and repeated visits to the pricing page.',
        'Seat growth beats raw activity, because one power user rarely turns into a company-wide contract.',
        'A VP Sales should agree on the definition with revenue operations and product before anyone scores a single account.',
        'Pulsegrid customers usually start with three rules and move to a trained model after about three months.',
      ],
    },
    switchStory: {
      from: 'acme.com', customer: 'Docksmith', kind: 'developer tool company', person: 'Leo Fischer', role: 'Chief Revenue Officer',
      why: [
        'Docksmith switched from Acme Analytics to Pulsegrid for its sales team after account executives struggled to act on Acme Signals alerts without routing rules.',
        'Docksmith still uses Acme Analytics for product dashboards and feeds its events into Pulsegrid.',
      ],
      outcome: 'Docksmith now books 40 percent more meetings from free workspaces than it did a year ago.',
      date: '2026-05-19',
    },
    rivals: ['acme.com', 'keelstone.com', 'globex.com'],
    reviewScores: [4, 5],
    reviewerSizes: [120, 260, 520],
  },
  {
    key: 'quillmetrics.com',
    name: 'Quillmetrics',
    description:
      'Quillmetrics is warehouse-native product analytics that runs directly on Snowflake, BigQuery and Databricks.',
    industry: 'Warehouse-native analytics software',
    headquarters: 'Boston, Massachusetts, United States',
    founded: 2019,
    employees: 140,
    category: 'warehouse-native product analytics for data teams',
    headline: 'Product analytics on the warehouse you already have',
    ceo: { name: 'Samira Haddad', title: 'co-founder and CEO' },
    exec: { name: 'Patrick Nolan', title: 'Head of Data Partnerships' },
    products: [
      { name: 'Quillmetrics Explore', what: 'builds funnels, retention and paths as SQL that runs in the customer warehouse' },
      { name: 'Quillmetrics Semantic Layer', what: 'defines users, accounts and metrics once so every chart uses the same logic' },
      { name: 'Quill Notebooks', what: 'mixes charts, SQL and notes for analysts who need to go deeper' },
    ],
    differentiator: 'runs queries directly in the customer\'s Snowflake, BigQuery or Databricks warehouse, so there is no second copy of the data and no per-event billing',
    weakness: 'needs a well-modeled warehouse and a data team before product managers get value',
    bestFor: 'companies with a modern data warehouse and at least one analytics engineer',
    pros: [
      'we stopped paying to store the same events twice',
      'analysts and product managers finally use the same metric definitions',
      'we can join product events with billing and support data without exports',
    ],
    cons: [
      'product managers needed our analytics engineers for the first two months',
      'heavy dashboards raised our warehouse compute bill',
      'there is no session replay or in-app tooling',
    ],
    plans: [
      { name: 'Explorer', price: 0, includes: 'up to 3 seats and one warehouse connection' },
      { name: 'Team', price: 59, includes: 'unlimited warehouse connections, Quillmetrics Semantic Layer and scheduled reports' },
      { name: 'Enterprise', price: null, includes: 'Quill Notebooks, fine-grained permissions, audit logs and a solutions architect' },
    ],
    pricingNotes: [
      'Quillmetrics prices are per seat per month, and there are no event or data volume fees because data stays in the customer warehouse.',
      'Warehouse compute costs are paid to the warehouse provider, not to Quillmetrics.',
    ],
    trialDays: 14,
    customerCount: '800',
    customers: [
      {
        name: 'Tollgate Freight', kind: 'freight logistics platform', employees: 1100, person: 'Victor Lang', role: 'Head of Data',
        result: 'cut analytics software spend by 40 percent',
        detail: 'Tollgate Freight dropped a second event store and now runs all product analytics on its existing Snowflake account.',
        quote: 'Our events already lived in Snowflake, so paying to copy them made no sense',
      },
      {
        name: 'Brightpath Learning', kind: 'edtech company', employees: 600, person: 'Isabel Cruz', role: 'VP Product',
        result: 'linked course engagement to school renewals for the first time',
        detail: 'Brightpath Learning joined product events with contract data in BigQuery to show which features schools used before renewing.',
        quote: 'The renewal analysis took a day instead of a quarter',
      },
      {
        name: 'Sablewood Insurance', kind: 'commercial insurer', employees: 3000, person: 'Arjun Mehta', role: 'Analytics Engineer',
        result: 'defined 80 governed metrics in the semantic layer in six weeks',
        detail: 'Sablewood Insurance uses the Quillmetrics Semantic Layer so broker portal metrics match the numbers finance reports.',
        quote: 'Product analytics finally agrees with finance',
      },
    ],
    proof: [
      'Quillmetrics customers query more than 2 trillion warehouse rows each month without copying any data.',
      'Most Quillmetrics customers go live within two weeks when their event tables are already in the warehouse.',
    ],
    trust: 'Quillmetrics never stores customer event data, connects to warehouses with read-only roles and is SOC 2 Type II certified.',
    integrations: ['Snowflake', 'BigQuery', 'Databricks', 'dbt', 'Lumetric', 'Keelstone'],
    regions: ['North America', 'Western Europe'],
    offices: ['Boston', 'Dublin'],
    personas: ['Head of Data', 'Analytics Engineer', 'VP Product', 'Chief Data Officer'],
    industries: ['logistics', 'insurance', 'edtech', 'B2B SaaS'],
    funding: {
      round: 'Series B', amount: 36, lead: 'Tidewater Capital', others: ['Bluestem Ventures', 'Oakhollow Partners'], date: '2025-10-21', total: 52,
      use: 'build a semantic layer for product metrics and open a European hub in Dublin',
      investor: 'Marcus Feld', investorRole: 'partner at Tidewater Capital',
      investorQuote: 'The warehouse is where data teams want analytics to live, and Quillmetrics is built for that world',
      traction: 'Quillmetrics grew annual recurring revenue by 150 percent in the past year.',
    },
    launches: [
      {
        name: 'Quillmetrics Semantic Layer', slug: 'quillmetrics-semantic-layer', date: '2025-06-10',
        what: 'defines users, accounts, events and metrics once so every product chart uses the same logic',
        details: [
          'The semantic layer can import existing dbt models, so analytics engineers do not redefine their work.',
          'Each metric shows its owner and its SQL, which makes reviews with finance straightforward.',
        ],
        availability: 'The Quillmetrics Semantic Layer is included in the Team plan at $59 per seat per month.',
        quote: 'Product metrics deserve the same rigor as revenue metrics',
      },
      {
        name: 'Quill Notebooks', slug: 'quill-notebooks', date: '2026-04-28',
        what: 'mixes charts, SQL and written notes in one shareable document for deep product analysis',
        details: [
          'Quill Notebooks can start from any chart and open its SQL for editing.',
          'Notebooks refresh on a schedule and can be shared with viewers for free.',
        ],
        availability: 'Quill Notebooks is available on the Enterprise plan.',
        quote: 'Analysts should not have to leave the product analytics tool to answer the hard questions',
      },
    ],
    jobs: [
      {
        title: 'Solutions Architect, EMEA', slug: 'solutions-architect-emea', location: 'Dublin', region: 'EMEA', team: 'Sales',
        mission: 'lead technical evaluations with data teams across the UK, Ireland and the Nordics',
        duties: [
          'The Solutions Architect will run proofs of concept on customer Snowflake, BigQuery and Databricks accounts.',
          'The role is the first technical hire at the Dublin hub.',
        ],
        requirement: 'strong SQL, dbt experience and three or more years in a customer-facing data role',
        pay: 'The base salary range is 95,000 to 115,000 euros plus equity.',
        posted: '2026-01-26',
      },
      {
        title: 'Partner Manager, Data Platforms', slug: 'partner-manager-data-platforms', location: 'Boston', region: 'North America', team: 'Partnerships',
        mission: 'grow co-selling with data warehouse vendors and consultancies',
        duties: [
          'The Partner Manager will run joint pipeline programs with warehouse vendors and data consultancies.',
          'The target is 30 percent of new business sourced through partners by the end of 2026.',
        ],
        requirement: 'four or more years managing technology or consulting partnerships in data',
        pay: 'The on-target earnings for this role are $190,000 to $220,000.',
        posted: '2025-06-16',
      },
    ],
    guide: {
      slug: 'warehouse-native-analytics-explained',
      title: 'Warehouse-native analytics, explained',
      date: '2025-04-15',
      sentences: [
        'Warehouse-native analytics means the analytics tool sends queries to your warehouse instead of storing its own copy of your events.',
        'The main benefit is one source of truth, because product, finance and support data can be joined without exports.',
        'The main cost is warehouse compute, which grows with dashboard use and needs monitoring.',
        'Warehouse-native tools work best when event tables are already clean and modeled by an analytics engineer.',
        'A Head of Data should estimate compute costs on a month of real queries before a full rollout.',
      ],
    },
    switchStory: {
      from: 'globex.com', customer: 'Harlow Logistics', kind: 'logistics software company', person: 'Yusuf Demir', role: 'Head of Data',
      why: [
        'Harlow Logistics switched from Globex to Quillmetrics because Globex kept a second copy of its event data and charged for the storage.',
        'Harlow Logistics already had clean event tables in Snowflake, so Quillmetrics was live in eight days.',
      ],
      outcome: 'Harlow Logistics saved about $180,000 a year and cut the time to answer a product question from days to hours.',
      date: '2026-03-17',
    },
    rivals: ['globex.com', 'tallyhawk.com', 'acme.com', 'keelstone.com'],
    reviewScores: [4, 4],
    reviewerSizes: [260, 600, 1100, 3000],
  },
  {
    key: 'beaconly.io',
    name: 'Beaconly',
    description:
      'Beaconly is a digital adoption platform for in-app guides, onboarding checklists and feature adoption analytics.',
    industry: 'Digital adoption software',
    headquarters: 'Raleigh, North Carolina, United States',
    founded: 2018,
    employees: 200,
    category: 'the digital adoption platform for product and customer success teams',
    headline: 'In-app guides that lift feature adoption',
    ceo: { name: 'Laura Bennett', title: 'CEO' },
    exec: { name: 'Kwame Asante', title: 'VP Product' },
    products: [
      { name: 'Beaconly Guides', what: 'builds tooltips, modals and walkthroughs without code' },
      { name: 'Beaconly Checklists', what: 'gives new users an onboarding checklist that tracks completion' },
      { name: 'Adoption Goals', what: 'measures whether a guide actually raised use of the feature it promotes' },
    ],
    differentiator: 'lets product and customer success teams ship in-app guides without code and measure which guides lift feature adoption',
    weakness: 'offers only basic analytics beyond guide and checklist performance',
    bestFor: 'B2B SaaS teams that need to onboard users and drive feature adoption without engineering time',
    pros: [
      'our customer success team ships onboarding guides without waiting for engineers',
      'Adoption Goals proved which guides actually changed behavior',
      'checklists cut our time to first value for new accounts',
    ],
    cons: [
      'the analytics are limited to guides, so we still need a product analytics tool',
      'guides occasionally flicker on our single-page app after releases',
      'the Growth plan is a big jump from Essentials',
    ],
    plans: [
      { name: 'Essentials', price: 29, includes: 'in-app guides, checklists and up to 2,000 monthly active users' },
      { name: 'Growth', price: 69, includes: 'Adoption Goals, segmentation, the resource center and up to 25,000 monthly active users' },
      { name: 'Enterprise', price: null, includes: 'unlimited monthly active users, multiple apps, sandbox environments and single sign-on' },
    ],
    pricingNotes: [
      'Beaconly prices are per editor seat per month billed annually, and each plan includes a monthly active user allowance.',
      'Beaconly charges $60 a month for every extra 1,000 monthly active users.',
    ],
    trialDays: 14,
    customerCount: '1,200',
    customers: [
      {
        name: 'Clinicflow', kind: 'clinic scheduling software company', employees: 230, person: 'Monica Reyes', role: 'Head of Customer Success',
        result: 'cut onboarding support tickets by 35 percent',
        detail: 'Clinicflow replaced a 40-page setup guide with a seven-step Beaconly checklist inside the product.',
        quote: 'Clinics now set themselves up, and my team spends time on expansion instead',
      },
      {
        name: 'Ledgerbird', kind: 'accounting SaaS company', employees: 410, person: 'Ahmed Farouk', role: 'Product Manager',
        result: 'raised adoption of its reporting feature from 18 percent to 41 percent of accounts',
        detail: 'Ledgerbird used Adoption Goals to compare three guide designs and kept the one that doubled feature use.',
        quote: 'For the first time we knew which guide worked instead of guessing',
      },
      {
        name: 'Talentgrove', kind: 'HR software company', employees: 750, person: 'Jessica Moore', role: 'VP Customer Experience',
        result: 'shortened time to first value for new customers from 21 days to 9',
        detail: 'Talentgrove shows each new administrator a role-specific checklist built in Beaconly Checklists.',
        quote: 'Checklists turned onboarding into something customers finish',
      },
    ],
    proof: [
      'Beaconly guides are shown more than 500 million times a month.',
      'Beaconly customers that use Adoption Goals report a median 22 percent lift in adoption of promoted features.',
    ],
    trust: 'Beaconly is SOC 2 Type II certified and supports single sign-on and data hosting in the US, EU or Australia.',
    integrations: ['Salesforce', 'HubSpot', 'Pulsegrid', 'Zendesk', 'Slack'],
    regions: ['North America', 'the UK', 'Australia and New Zealand'],
    offices: ['Raleigh', 'London', 'Sydney'],
    personas: ['Head of Customer Success', 'Product Manager', 'VP Customer Experience', 'Head of Onboarding'],
    industries: ['B2B SaaS', 'healthtech', 'HR software', 'property management software'],
    funding: {
      round: 'Series B', amount: 30, lead: 'Harborlight Capital', others: ['Oakhollow Partners'], date: '2025-02-18', total: 44,
      use: 'open a Sydney office and build analytics that tie guides to retention',
      investor: 'Simone Clarke', investorRole: 'partner at Harborlight Capital',
      investorQuote: 'Beaconly helps software companies make sure customers actually use what they bought',
      traction: 'Beaconly grew its customer base by 60 percent in 2024.',
    },
    launches: [
      {
        name: 'Adoption Goals', slug: 'adoption-goals', date: '2026-03-31',
        what: 'measures whether a guide or checklist raised use of the feature it promotes',
        details: [
          'Adoption Goals compares users who saw a guide with a holdout group that did not.',
          'Product managers can set a target, such as 30 percent of accounts using reports within a month, and track progress daily.',
        ],
        availability: 'Adoption Goals is included in the Growth plan at $69 per seat per month.',
        quote: 'A guide that does not change behavior is just decoration',
      },
    ],
    partnership: {
      partner: 'Pulsegrid', partnerKey: 'pulsegrid.io', slug: 'beaconly-and-pulsegrid-partnership', date: '2026-02-10',
      what: 'connect in-app guidance with product-led sales',
      details: [
        'Beaconly checklist progress now appears in Pulsegrid account scores.',
        'Customer success teams can see which accounts a Pulsegrid representative is working before they launch a guide.',
      ],
    },
    jobs: [
      {
        title: 'Customer Success Manager, ANZ', slug: 'customer-success-manager-anz', location: 'Sydney', region: 'Australia and New Zealand', team: 'Customer Success',
        mission: 'support and grow Beaconly customers across Australia and New Zealand from the new Sydney office',
        duties: [
          'The Customer Success Manager will own about 60 Growth and Enterprise accounts.',
          'The role runs quarterly business reviews with VP Customer Experience buyers.',
        ],
        requirement: 'three or more years in customer success for B2B SaaS',
        pay: 'The base salary range is 120,000 to 140,000 Australian dollars plus bonus.',
        posted: '2025-04-14',
      },
      {
        title: 'Product Marketing Manager, Analytics', slug: 'product-marketing-manager-analytics', location: 'Raleigh or remote in the United States', region: 'North America', team: 'Marketing',
        mission: 'position Adoption Goals against product analytics tools',
        duties: [
          'The Product Marketing Manager will own messaging, competitive battlecards and launch plans for Beaconly analytics.',
          'The role will build comparison content for deals where buyers also evaluate Lumetric and Acme Analytics.',
        ],
        requirement: 'four or more years of product marketing for B2B software',
        pay: 'The base salary range is $125,000 to $150,000 plus equity.',
        posted: '2026-09-14',
      },
    ],
    guide: {
      slug: 'onboarding-checklists-that-get-finished',
      title: 'Onboarding checklists that customers actually finish',
      date: '2025-11-11',
      sentences: [
        'Onboarding checklists with five to seven steps are completed about twice as often as checklists with ten or more.',
        'The first step should be something a user can finish in under a minute, because early progress keeps people going.',
        'Each step should lead to the product\'s first moment of value, not to settings pages.',
        'A Head of Onboarding should review completion by step every month and remove steps that most users skip.',
        'Beaconly Checklists reports completion for each step on every plan.',
      ],
    },
    switchStory: {
      from: 'lumetric.io', customer: 'Wharfside', kind: 'property management software company', person: 'Greg Holloway', role: 'VP Product',
      why: [
        'Wharfside switched from Lumetric to Beaconly because the team had plenty of replays showing confused users but no way to guide them inside the product.',
        'Beaconly let the customer success team add walkthroughs to the three pages where Lumetric replays showed the most confusion.',
      ],
      outcome: 'Wharfside cut how-to support tickets by 30 percent in two months.',
      date: '2026-06-16',
    },
    rivals: ['lumetric.io', 'cohortly.io'],
    reviewScores: [4, 3],
    reviewerSizes: [120, 260, 600],
  },
  {
    key: 'keelstone.com',
    name: 'Keelstone',
    description:
      'Keelstone is a customer data platform that collects events once and routes them to analytics, marketing and sales tools.',
    industry: 'Customer data platform software',
    headquarters: 'Denver, Colorado, United States',
    founded: 2017,
    employees: 280,
    category: 'the customer data platform for clean, consented event data',
    headline: 'Collect events once, send them everywhere',
    ceo: { name: 'Martin Alvarez', title: 'CEO' },
    exec: { name: 'Hye-jin Park', title: 'Chief Product Officer' },
    products: [
      { name: 'Keelstone Collect', what: 'gathers events through open SDKs for web, mobile and servers' },
      { name: 'Keelstone Tracking Plans', what: 'checks every event against an agreed schema and blocks bad data before it spreads' },
      { name: 'Keelstone Reverse Sync', what: 'sends warehouse audiences and traits back to CRM and marketing tools' },
      { name: 'Consent Hub', what: 'records user consent and applies it to every destination automatically' },
    ],
    differentiator: 'collects events once through open SDKs and routes them to more than 300 destinations, with schema checks that block bad data before it spreads',
    weakness: 'does not include analysis dashboards, so teams still buy a separate analytics tool',
    bestFor: 'data and marketing operations teams that feed many tools from one event stream',
    pros: [
      'tracking plans stopped the flood of misspelled events in our analytics',
      'adding a new destination takes minutes instead of a sprint',
      'Consent Hub made our GDPR review much shorter',
    ],
    cons: [
      'we still needed an analytics tool on top of Keelstone',
      'pricing jumped when we added server-side events',
      'the reverse sync scheduler only runs every fifteen minutes on the Team plan',
    ],
    plans: [
      { name: 'Free', price: 0, includes: 'up to 5,000 tracked users a month and two destinations' },
      { name: 'Team', price: 45, includes: 'up to 100,000 tracked users, unlimited destinations and tracking plans' },
      { name: 'Business', price: 95, includes: 'Keelstone Reverse Sync, Consent Hub and up to 1 million tracked users' },
      { name: 'Enterprise', price: null, includes: 'custom volumes, data residency, private networking and a support SLA' },
    ],
    pricingNotes: [
      'Keelstone prices are per seat per month billed annually, and each plan includes a tracked user allowance.',
      'Keelstone charges $10 per thousand tracked users above the plan allowance.',
    ],
    trialDays: 14,
    customerCount: '3,100',
    customers: [
      {
        name: 'Harborline Shipping', kind: 'shipping software company', employees: 900, person: 'Erik Johansson', role: 'Head of Data',
        result: 'cut the number of tracking bugs reaching analytics by 90 percent',
        detail: 'Harborline Shipping blocks events that break its tracking plan before they reach any of its eleven destinations.',
        quote: 'Our dashboards are finally built on data we trust',
      },
      {
        name: 'Vantaro Travel', kind: 'online travel agency', employees: 1600, person: 'Lucia Romano', role: 'Marketing Operations Manager',
        result: 'launched personalized email campaigns in three weeks instead of three months',
        detail: 'Vantaro Travel uses Keelstone Reverse Sync to send warehouse audiences of likely bookers to its email tool every hour.',
        quote: 'Reverse sync turned our warehouse into a marketing engine',
      },
      {
        name: 'Mosswood Media', kind: 'digital publisher', employees: 350, person: 'Oliver Grant', role: 'CTO',
        result: 'removed six tracking scripts from its sites',
        detail: 'Mosswood Media now sends one event stream from Keelstone Collect to analytics, advertising and subscription tools.',
        quote: 'One SDK instead of six made our pages faster and our data cleaner',
      },
    ],
    proof: [
      'Keelstone routes more than 600 billion events a year to over 300 destinations.',
      'Keelstone customers that use tracking plans report 70 percent fewer data quality incidents.',
    ],
    trust: 'Keelstone is SOC 2 Type II and ISO 27001 certified, and Consent Hub applies GDPR and CCPA consent rules to every destination.',
    integrations: ['Acme Analytics', 'Tallyhawk', 'Cohortly', 'Quillmetrics', 'Snowflake', 'Salesforce'],
    regions: ['North America', 'EMEA', 'APAC'],
    offices: ['Denver', 'Dublin', 'Singapore'],
    personas: ['Data Engineer', 'Head of Data', 'Marketing Operations Manager', 'CTO'],
    industries: ['e-commerce', 'media', 'travel', 'B2B SaaS'],
    funding: {
      round: 'Series C', amount: 75, lead: 'Ironbridge Capital', others: ['Eastgate Growth', 'Bluestem Ventures'], date: '2025-12-02', total: 131,
      use: 'launch a consent management product and grow its enterprise teams in EMEA and APAC',
      investor: 'Daniel Reyes', investorRole: 'managing partner at Ironbridge Capital',
      investorQuote: 'Clean, consented data is the foundation every AI and analytics project now depends on',
      traction: 'Keelstone passed $90 million in annual recurring revenue and serves 3,100 customers.',
    },
    launches: [
      {
        name: 'Keelstone Reverse Sync', slug: 'keelstone-reverse-sync', date: '2025-08-05',
        what: 'sends audiences and traits from the warehouse back into CRM, marketing and support tools',
        details: [
          'Reverse Sync supports Snowflake, BigQuery and Databricks as sources and more than 80 destinations.',
          'Every sync respects the consent recorded for each user.',
        ],
        availability: 'Keelstone Reverse Sync is included in the Business plan at $95 per seat per month.',
        quote: 'Data teams should not need a second vendor to get warehouse data back into the tools people use',
      },
      {
        name: 'Consent Hub', slug: 'consent-hub', date: '2026-05-19',
        what: 'records user consent once and enforces it across every destination automatically',
        details: [
          'Consent Hub blocks events for a destination the moment a user withdraws consent.',
          'Privacy teams get an audit log of every consent change and every blocked event.',
        ],
        availability: 'Consent Hub is included in the Business and Enterprise plans.',
        quote: 'Consent should travel with the data, not live in a spreadsheet',
      },
    ],
    jobs: [
      {
        title: 'Enterprise Account Executive, Benelux', slug: 'enterprise-account-executive-benelux', location: 'Amsterdam', region: 'EMEA', team: 'Sales',
        mission: 'win enterprise retail, travel and media accounts in the Netherlands, Belgium and Luxembourg',
        duties: [
          'The Account Executive will sell to Chief Data Officer and CTO buyers at companies with more than 2,000 employees.',
          'The role carries an annual quota of 900,000 euros in new annual recurring revenue.',
        ],
        requirement: 'six or more years of enterprise data or marketing technology sales in Benelux',
        pay: 'The on-target earnings for this role are 190,000 to 220,000 euros.',
        posted: '2026-02-23',
      },
      {
        title: 'Staff Engineer, Consent Hub', slug: 'staff-engineer-consent-hub', location: 'Denver or remote in the United States', region: 'North America', team: 'Engineering',
        mission: 'make consent enforcement instant across 300 destinations',
        duties: [
          'The Staff Engineer will design how consent changes propagate through the routing pipeline.',
          'The role works with the privacy team on GDPR and CCPA requirements.',
        ],
        requirement: 'ten or more years building distributed data systems',
        pay: 'The base salary range is $210,000 to $245,000 plus equity.',
        posted: '2026-06-08',
      },
    ],
    guide: {
      slug: 'why-tracking-plans-matter',
      title: 'Why every analytics team needs a tracking plan',
      date: '2025-02-25',
      sentences: [
        'A tracking plan is a shared list of the events a product sends, with their names, properties and owners.',
        'Without a tracking plan, analytics tools fill up with duplicate events such as signup, sign_up and Signed Up.',
        'Teams with an enforced tracking plan spend far less time cleaning data before every analysis.',
        'A Head of Data should review new events in the tracking plan the same way engineers review code.',
        'Keelstone Tracking Plans can block or quarantine events that do not match the plan.',
      ],
    },
    switchStory: {
      from: 'tallyhawk.com', customer: 'Plinth Commerce', kind: 'e-commerce platform', person: 'Hannah Weiss', role: 'Data Engineer',
      why: [
        'Plinth Commerce switched from Tallyhawk to Keelstone for event collection when it needed to send the same events to seven marketing tools, not only to analytics.',
        'Plinth Commerce still analyzes events in its warehouse, but Keelstone now feeds every tool from one stream.',
      ],
      outcome: 'Plinth Commerce retired five tracking scripts and cut page load time by 300 milliseconds.',
      date: '2025-09-30',
    },
    rivals: ['tallyhawk.com', 'pulsegrid.io', 'quillmetrics.com'],
    reviewScores: [4, 4],
    reviewerSizes: [350, 900, 1600],
  },
  {
    key: 'meridianmetrics.io',
    name: 'Meridian Metrics',
    description:
      'Meridian Metrics provides product and digital analytics for regulated industries, with EU data residency and private cloud deployment.',
    industry: 'Analytics software for regulated industries',
    headquarters: 'Munich, Germany',
    founded: 2015,
    employees: 210,
    category: 'privacy-first digital analytics for banks, insurers and healthcare',
    headline: 'Digital analytics that passes the audit',
    ceo: { name: 'Katharina Weber', title: 'CEO' },
    exec: { name: 'Lars Eriksen', title: 'Chief Commercial Officer' },
    products: [
      { name: 'Meridian Analytics', what: 'tracks funnels, journeys and retention with consent-aware data collection' },
      { name: 'Meridian Sovereign Cloud', what: 'runs a dedicated instance in a German or Nordic data center chosen by the customer' },
      { name: 'Consent-aware Funnels', what: 'report conversion separately for consented and anonymous users' },
    ],
    differentiator: 'keeps every event in EU data centers the customer chooses, with ISO 27001 and SOC 2 Type II certification and a private cloud option for banks and insurers',
    weakness: 'has a smaller integration catalog and a slower release cadence than its US rivals',
    bestFor: 'European banks, insurers, healthcare providers and public bodies with strict data rules',
    pros: [
      'our data protection officer approved Meridian in two weeks',
      'the Sovereign Cloud option satisfied our banking regulator',
      'support is available in German, French and Swedish',
    ],
    cons: [
      'the integration catalog is small, so we built two connectors ourselves',
      'new features arrive slowly compared with US tools',
      'the interface feels dated next to newer products',
    ],
    plans: [
      { name: 'Professional', price: 65, includes: 'hosted analytics in Frankfurt, consent-aware tracking and standard support' },
      { name: 'Regulated', price: 110, includes: 'Consent-aware Funnels, audit exports, customer-managed encryption keys and a choice of EU region' },
      { name: 'Sovereign', price: null, includes: 'a dedicated Meridian Sovereign Cloud instance and on-site security reviews' },
    ],
    pricingNotes: [
      'Meridian Metrics prices are per seat per month billed annually in euros or US dollars at the same nominal amount.',
      'Meridian Metrics includes a data processing agreement reviewed for EU banking and insurance rules on every plan.',
    ],
    trialDays: 30,
    customerCount: '650',
    customers: [
      {
        name: 'Albrecht Versicherung', kind: 'German insurer', employees: 4800, person: 'Stefan Braun', role: 'Head of Digital',
        result: 'moved all web and app analytics into a German data center',
        detail: 'Albrecht Versicherung replaced a US analytics tool after its data protection officer ruled out transfers outside the EU.',
        quote: 'Meridian was the only vendor our data protection team approved without conditions',
      },
      {
        name: 'Norrland Sparbank', kind: 'Swedish savings bank', employees: 2100, person: 'Karin Lund', role: 'CIO',
        result: 'launched its first product analytics program under banking supervision',
        detail: 'Norrland Sparbank runs Meridian Sovereign Cloud in a Stockholm data center with customer-managed keys.',
        quote: 'We needed analytics that our regulator would accept on the first review',
        plan: 'Sovereign',
      },
      {
        name: 'Santé Claire', kind: 'French healthcare network', employees: 7000, person: 'Julien Moreau', role: 'Chief Digital Officer',
        result: 'raised online appointment completion by 15 percent',
        detail: 'Santé Claire used Consent-aware Funnels to improve its booking flow without tracking patients who declined consent.',
        quote: 'We improved the patient journey without compromising patient privacy',
      },
    ],
    proof: [
      'Meridian Metrics serves 650 organizations, including 40 banks and 55 insurers in Europe.',
      'Meridian Metrics has passed more than 120 customer security audits since 2023.',
    ],
    trust: 'Meridian Metrics is ISO 27001 and SOC 2 Type II certified, hosts data only in the EU and offers customer-managed encryption keys on the Regulated plan.',
    integrations: ['SAP', 'Adobe Experience Manager', 'Keelstone', 'Microsoft Teams'],
    regions: ['DACH', 'the Nordics', 'France', 'Benelux'],
    offices: ['Munich', 'Stockholm', 'Paris'],
    personas: ['CIO', 'Data Protection Officer', 'Head of Digital', 'VP Product'],
    industries: ['banking', 'insurance', 'healthcare', 'government'],
    funding: {
      round: 'growth round', amount: 48, lead: 'Alpenrose Capital', others: ['Nordfjord Invest'], date: '2026-06-09', total: 81,
      use: 'expand into France and Benelux and speed up its product roadmap',
      investor: 'Johanna Keller', investorRole: 'partner at Alpenrose Capital',
      investorQuote: 'European regulated industries want analytics that never leaves Europe, and Meridian Metrics was built for them',
      traction: 'Meridian Metrics grew revenue 45 percent in 2025 and signed 12 new banks.',
    },
    launches: [
      {
        name: 'Meridian Sovereign Cloud', slug: 'meridian-sovereign-cloud', date: '2025-10-07',
        what: 'gives each customer a dedicated analytics instance in a German or Nordic data center of its choice',
        details: [
          'Meridian Sovereign Cloud is operated only by EU-based staff under German law.',
          'Customers hold their own encryption keys and can revoke access at any time.',
        ],
        availability: 'Meridian Sovereign Cloud is available on the Sovereign plan with pricing by quote.',
        quote: 'Sovereignty is no longer a niche request from banks, it is a board-level requirement',
      },
      {
        name: 'Consent-aware Funnels', slug: 'consent-aware-funnels', date: '2026-02-26',
        what: 'report conversion separately for consented and anonymous users and estimate the full funnel',
        details: [
          'Consent-aware Funnels uses only aggregated counts for users who decline tracking.',
          'Teams can see how consent rates change by page and by campaign.',
        ],
        availability: 'Consent-aware Funnels is included in the Regulated plan at $110 per seat per month.',
        quote: 'Privacy and good analytics are not a trade-off when the product is designed for both',
      },
    ],
    jobs: [
      {
        title: 'Account Executive, France', slug: 'account-executive-france', location: 'Paris', region: 'France', team: 'Sales',
        mission: 'open the French market with banks, insurers and healthcare networks',
        duties: [
          'The Account Executive will sell to CIO and Data Protection Officer buyers at regulated organizations.',
          'The role is the first sales hire at the new Paris office.',
        ],
        requirement: 'five or more years of software sales to French financial services or healthcare',
        pay: 'The on-target earnings for this role are 130,000 to 150,000 euros.',
        posted: '2026-07-06',
      },
      {
        title: 'Security Compliance Manager', slug: 'security-compliance-manager', location: 'Munich', region: 'DACH', team: 'Security',
        mission: 'run customer security audits and keep Meridian certifications current',
        duties: [
          'The Security Compliance Manager will lead about 40 customer audits a year for banks and insurers.',
          'The role owns the ISO 27001 and SOC 2 programs.',
        ],
        requirement: 'experience with ISO 27001 audits in financial services',
        pay: 'The base salary range is 85,000 to 105,000 euros.',
        posted: '2025-03-24',
      },
    ],
    guide: {
      slug: 'analytics-under-gdpr',
      title: 'Product analytics under GDPR: a practical checklist',
      date: '2025-01-21',
      sentences: [
        'Product analytics under GDPR starts with a clear legal basis for every event a product collects.',
        'Consent banners should offer a real choice, and analytics must respect a refusal immediately.',
        'Data should stay in the EU unless the organization has a documented transfer mechanism that its data protection officer accepts.',
        'A Data Protection Officer should review the tracking plan, the retention period and the list of processors at least once a year.',
        'Meridian Metrics provides a prefilled records-of-processing template for each plan.',
      ],
    },
    switchStory: {
      from: 'acme.com', customer: 'Kastell Telecom', kind: 'Austrian telecom operator', person: 'Markus Huber', role: 'Head of Digital',
      why: [
        'Kastell Telecom switched from Acme Analytics to Meridian Metrics after its regulator asked for analytics operated only by EU-based staff.',
        'Acme Analytics offered EU data residency, but support and operations still ran partly from the United States.',
      ],
      outcome: 'Kastell Telecom completed its regulatory review in six weeks on Meridian Sovereign Cloud.',
      date: '2026-08-04',
    },
    rivals: ['globex.com', 'acme.com', 'tallyhawk.com'],
    reviewScores: [4, 3],
    reviewerSizes: [900, 2100, 4800],
  },
];

/** Third-party sites that publish reviews, comparisons, news and analyst notes about the market. */
export const MEDIA = {
  reviews: { domain: 'saasreviewhub.com', name: 'SaaS Review Hub' },
  comparisons: { domain: 'stackverdict.com', name: 'StackVerdict' },
  news: { domain: 'saasdispatch.com', name: 'SaaS Dispatch' },
  analyst: { domain: 'halvorsenresearch.com', name: 'Halvorsen Research' },
} as const;

/** Known rivalries that are also recorded as `competitors` links (the rest are only in the text). */
export const LINKED_RIVALRIES: [string, string][] = [
  ['acme.com', 'globex.com'],
  ['acme.com', 'funnelwise.io'],
  ['globex.com', 'meridianmetrics.io'],
  ['lumetric.io', 'cohortly.io'],
  ['tallyhawk.com', 'quillmetrics.com'],
  ['keelstone.com', 'tallyhawk.com'],
  ['pulsegrid.io', 'acme.com'],
];
