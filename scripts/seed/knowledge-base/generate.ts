/**
 * Writes the demo knowledge base (demo.ndjson beside this file) from the facts in companies.ts.
 *
 *   node scripts/seed/knowledge-base/generate.ts           # writes demo.ndjson
 *   node scripts/seed/knowledge-base/generate.ts --check   # fails if demo.ndjson is out of date
 *
 * Deterministic: every choice comes from a small PRNG seeded by the source's URL, so the same facts
 * always give the same bytes. Output follows the bulk-load format in shared/spec/decisions.md (OMS):
 * company lines, then source lines, then `competitors` link lines, one JSON object per line.
 * Every source is checked before writing: 4 to 15 sentences, each ending with . ! or ?, and no
 * dots inside a sentence (no decimals, abbreviations or domains), so sentence splitting is exact.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPANIES, LINKED_RIVALRIES, MEDIA, type Company, type Launch, type Plan } from './companies.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUTPUT = path.join(HERE, 'demo.ndjson');

// ---------------------------------------------------------------------------------------------
// Deterministic choices
// ---------------------------------------------------------------------------------------------

/** FNV-1a, 32 bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: a tiny seeded PRNG; one stream per source, seeded by its URL. */
interface Rng {
  next(): number;
  pick<T>(items: readonly T[]): T;
  int(min: number, max: number): number;
  chance(p: number): boolean;
  shuffle<T>(items: readonly T[]): T[];
}

function rng(seed: string): Rng {
  let a = hash(seed);
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

function dayNumber(iso: string): number {
  return Math.round(Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / 86_400_000);
}
function isoOf(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}
function addDays(iso: string, days: number): string {
  return isoOf(dayNumber(iso) + days);
}
/** A date between from and to (inclusive), chosen by r. */
function dateBetween(r: Rng, from: string, to: string): string {
  return isoOf(r.int(dayNumber(from), dayNumber(to)));
}
function longDate(iso: string): string {
  return `${MONTHS[+iso.slice(5, 7) - 1]} ${+iso.slice(8, 10)}, ${iso.slice(0, 4)}`;
}
function monthYear(iso: string): string {
  return `${MONTHS[+iso.slice(5, 7) - 1]} ${iso.slice(0, 4)}`;
}
function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
function money(n: number): string {
  return `$${thousands(n)}`;
}
function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
/** "a" or "an" for the phrase that follows. */
function article(phrase: string): string {
  const word = phrase.split(/[\s,-]/)[0]!;
  if (/^[A-Z]{2,}$/.test(word)) return 'AEFHILMNORSX'.includes(word[0]!) ? 'an' : 'a';
  if (/^(one|uni|use|eu)/i.test(word)) return 'a';
  if (/^\$?(8\d*|11|18)$/.test(word)) return 'an';
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
function withArticle(phrase: string): string {
  return `${article(phrase)} ${phrase}`;
}
function quote(text: string, who: string, role: string, org: string, verb = 'said'): string {
  return `"${text}," ${verb} ${who}, ${role} at ${org}.`;
}
function count(n: number): string {
  return NUMBER_WORDS[n] ?? String(n);
}

// ---------------------------------------------------------------------------------------------
// Facts derived from the companies
// ---------------------------------------------------------------------------------------------

const BY_KEY = new Map(COMPANIES.map((c) => [c.key, c]));
function company(key: string): Company {
  const c = BY_KEY.get(key);
  if (!c) throw new Error(`unknown company ${key}`);
  return c;
}
const paidPlans = (c: Company) => c.plans.filter((p): p is Plan & { price: number } => p.price !== null && p.price > 0);
const freePlan = (c: Company) => c.plans.find((p) => p.price === 0);
const quotePlans = (c: Company) => c.plans.filter((p) => p.price === null);
const entryPrice = (c: Company) => paidPlans(c)[0]!.price;
const seatMonth = (n: number) => `${money(n)} per seat per month`;
/** "Austin, Texas" or "Lisbon, Portugal" ("New York, New York" becomes "New York"). */
const city = (c: Company) => {
  const [town, region] = c.headquarters.replace(/, United States$/, '').split(', ');
  return region && region !== town ? `${town}, ${region}` : town!;
};
const town = (c: Company) => c.headquarters.split(', ')[0]!;

/** Companies that sit next to an analytics tool rather than replace it: what they add. */
const COMPLEMENTS: Record<string, string> = {
  'pulsegrid.io': 'product-led sales',
  'beaconly.io': 'in-app guidance',
  'keelstone.com': 'event collection and routing',
};

/** Predicate after "<Name> pricing": "starts with the free ... plan, and paid plans begin at ...". */
function pricingStart(c: Company): string {
  const free = freePlan(c);
  const first = paidPlans(c)[0]!;
  const paid = `${seatMonth(first.price)} on the ${first.name} plan`;
  if (!free) return `starts at ${paid}`;
  const freeName = free.name === 'Free' ? 'a free plan' : `the free ${free.name} plan`;
  return `starts with ${freeName}, and paid plans begin at ${paid}`;
}

/** Predicate after "<Name> pricing": the whole paid range. */
function pricingRange(c: Company): string {
  const paid = paidPlans(c);
  const first = paid[0]!;
  const last = paid[paid.length - 1]!;
  let text =
    paid.length === 1
      ? `is ${seatMonth(first.price)} on the ${first.name} plan`
      : `runs from ${seatMonth(first.price)} on the ${first.name} plan to ${money(last.price)} on the ${last.name} plan`;
  const custom = quotePlans(c).map((p) => p.name);
  if (custom.length) text += `, with ${list(custom)} priced by quote`;
  return text;
}

const MEDIAN_ENTRY = (() => {
  const prices = COMPANIES.map(entryPrice).sort((a, b) => a - b);
  return prices[Math.floor(prices.length / 2)]!;
})();

function marketPosition(c: Company): string {
  const p = entryPrice(c);
  if (p === MEDIAN_ENTRY) return `exactly at the market median entry price of ${seatMonth(MEDIAN_ENTRY)}`;
  return p < MEDIAN_ENTRY
    ? `below the market median entry price of ${seatMonth(MEDIAN_ENTRY)}`
    : `above the market median entry price of ${seatMonth(MEDIAN_ENTRY)}`;
}

/** Rivals of c: its own list first, then companies that list c as a rival. */
function rivalsOf(c: Company): Company[] {
  const keys = [...c.rivals];
  for (const other of COMPANIES) if (other.rivals.includes(c.key) && !keys.includes(other.key)) keys.push(other.key);
  return keys.map(company);
}

/** Where a market segment label is needed (landscape notes). */
const SEGMENTS: Record<string, string> = {
  'acme.com': 'account-level product analytics for B2B SaaS',
  'globex.com': 'enterprise analytics suites',
  'funnelwise.io': 'self-serve funnel analytics for startups',
  'lumetric.io': 'digital experience analytics and session replay',
  'tallyhawk.com': 'open-source and self-hosted product analytics',
  'cohortly.io': 'retention analytics for mobile and subscription apps',
  'pulsegrid.io': 'product-led sales and lead scoring',
  'quillmetrics.com': 'warehouse-native product analytics',
  'beaconly.io': 'digital adoption and in-app guidance',
  'keelstone.com': 'customer data platforms and event pipelines',
  'meridianmetrics.io': 'privacy-first analytics for regulated industries',
};

// ---------------------------------------------------------------------------------------------
// Sources
// ---------------------------------------------------------------------------------------------

type Kind =
  | 'home page'
  | 'pricing page'
  | 'blog post'
  | 'customer story'
  | 'press release'
  | 'news article'
  | 'customer review'
  | 'comparison page'
  | 'job post'
  | 'analyst note';

interface Source {
  kind: Kind;
  url: string;
  title: string;
  publishedAt: string;
  sentences: string[];
  /** The date was picked at random, so settleDates may move it later. */
  flexible?: boolean;
  /** A fact the source reports happened on this date (a funding round, say). */
  notBefore?: string;
}

const sources: Source[] = [];
function add(source: Source): void {
  sources.push(source);
}

const own = (c: Company, p: string) => `https://${c.key}${p}`;
const media = (site: keyof typeof MEDIA, p: string) => `https://${MEDIA[site].domain}${p}`;

function homePage(c: Company): void {
  const url = own(c, '/');
  const r = rng(url);
  const customerNames = c.customers.map((x) => x.name);
  const star = r.pick(c.customers);
  const free = freePlan(c);
  const nextPlan = paidPlans(c)[0]!;
  const middle = r.shuffle([
    ...c.products.slice(0, 3).map((p) => `${p.name} ${p.what}.`),
    r.pick([`${c.name} integrates with ${list(c.integrations)}.`, `${c.name} connects to ${list(c.integrations)} out of the box.`]),
    c.trust,
  ]);
  add({
    kind: 'home page',
    url,
    title: `${c.name}: ${c.headline}`,
    publishedAt: dateBetween(r, '2026-01-05', '2026-10-20'),
    flexible: true,
    sentences: [
      r.pick([`${c.name} is ${c.category}.`, `${c.name} is ${c.category}, trusted by more than ${c.customerCount} companies.`]),
      `${c.name} ${c.differentiator}.`,
      ...middle,
      r.pick([
        `${c.name} customers include ${list(customerNames)}.`,
        `Teams at ${list(customerNames)} use ${c.name} every day.`,
      ]),
      `${star.name}, ${withArticle(star.kind)}, ${star.result} with ${c.name}.`,
      r.pick([
        `${c.name} is built for the ${list(c.personas)} in ${list(c.industries)}.`,
        `Typical ${c.name} users include the ${list(c.personas)}, mostly in ${list(c.industries)}.`,
      ]),
      r.pick(c.proof),
      `${c.name} serves customers in ${list(c.regions)} from offices in ${list(c.offices)}.`,
      free
        ? `Teams can start on ${free.name === 'Free' ? 'the Free plan at no cost' : `the free ${free.name} plan`} and move to ${nextPlan.name} at ${seatMonth(nextPlan.price)} when they need ${nextPlan.includes}.`
        : `Every ${c.name} plan starts with a ${c.trialDays}-day free trial, and the ${nextPlan.name} plan costs ${seatMonth(nextPlan.price)}.`,
    ],
  });
}

function pricingPage(c: Company): void {
  const url = own(c, '/pricing');
  const r = rng(url);
  const planSentences = c.plans.map((p) => {
    if (p.price === 0)
      return r.pick([
        `The ${p.name} plan is free and includes ${p.includes}.`,
        `${c.name} ${p.name} costs nothing and covers ${p.includes}.`,
      ]);
    if (p.price === null)
      return r.pick([
        `The ${p.name} plan is priced by quote and includes ${p.includes}.`,
        `${p.name} pricing is custom and covers ${p.includes}.`,
      ]);
    return r.pick([
      `The ${p.name} plan costs ${seatMonth(p.price)} and includes ${p.includes}.`,
      `${p.name} is ${seatMonth(p.price)}, with ${p.includes}.`,
      `At ${seatMonth(p.price)}, the ${p.name} plan adds ${p.includes}.`,
    ]);
  });
  const mid = paidPlans(c)[Math.min(1, paidPlans(c).length - 1)]!;
  const seats = r.pick([10, 12, 15, 20]);
  const rival = rivalsOf(c)[0]!;
  const sentences = [
    r.pick([
      `${c.name} pricing has ${count(c.plans.length)} plans: ${list(c.plans.map((p) => p.name))}.`,
      `${c.name} pricing comes in ${count(c.plans.length)} plans, ${list(c.plans.map((p) => p.name))}, so teams pay for what they use.`,
    ]),
    ...planSentences,
    ...c.pricingNotes,
    `A team of ${seats} on the ${mid.name} plan pays ${money(mid.price * seats * 12)} a year.`,
    `Every paid ${c.name} plan comes with a ${c.trialDays}-day free trial, and no credit card is required to start.`,
  ];
  if (r.chance(0.6)) {
    sentences.push(`Teams switching from ${rival.name} get their first three months on the ${mid.name} plan at half price.`);
  }
  add({
    kind: 'pricing page',
    url,
    title: `${c.name} pricing: ${list(c.plans.map((p) => p.name))} plans`,
    publishedAt: dateBetween(r, '2026-01-05', '2026-10-20'),
    flexible: true,
    sentences,
  });
}

function launchPost(c: Company, l: Launch): void {
  const url = own(c, `/blog/${l.slug}`);
  const r = rng(url);
  const speaker = r.pick([c.ceo, c.exec]);
  const [p1, p2] = r.shuffle(c.personas);
  add({
    kind: 'blog post',
    url,
    title: r.pick([`Introducing ${l.name}`, `Meet ${l.name}`, `${l.name} is here`]),
    publishedAt: l.date,
    sentences: [
      r.pick([`Today ${c.name} is launching ${l.name}, which ${l.what}.`, `${l.name} is now available in ${c.name}, and it ${l.what}.`]),
      ...l.details,
      `${c.name} built ${l.name} for ${l.audience ?? `the ${p1} and the ${p2}`}.`,
      quote(l.quote, speaker.name, speaker.title, c.name),
      l.availability,
      r.pick([
        `Customers can turn on ${l.name} from the settings page of their ${c.name} workspace.`,
        `${l.name} is live for all eligible ${c.name} workspaces today.`,
      ]),
    ],
  });
}

function guidePost(c: Company): void {
  const url = own(c, `/blog/${c.guide.slug}`);
  add({ kind: 'blog post', url, title: c.guide.title, publishedAt: c.guide.date, sentences: c.guide.sentences });
}

function customerStory(c: Company, index: number): void {
  const cu = c.customers[index]!;
  const url = own(c, `/customers/${slug(cu.name)}`);
  const r = rng(url);
  const product = c.products[index % c.products.length]!;
  const plan = cu.plan ? c.plans.find((p) => p.name === cu.plan)! : r.pick(c.plans.filter((p) => p.price !== 0));
  add({
    kind: 'customer story',
    url,
    title: `How ${cu.name} ${cu.result}`,
    publishedAt: dateBetween(r, '2025-01-15', '2026-10-15'),
    flexible: true,
    sentences: [
      `${cu.name} is ${withArticle(cu.kind)} with about ${thousands(cu.employees)} employees.`,
      r.pick([
        `Before ${c.name}, the ${cu.name} team pieced together reports from spreadsheets and ad hoc queries.`,
        `Before choosing ${c.name}, ${cu.name} relied on a mix of spreadsheets and a tool nobody trusted.`,
        `${cu.name} chose ${c.name} after a four-week evaluation led by its ${cu.role}.`,
      ]),
      `${cu.name} ${cu.result} ${r.pick(['with', 'after rolling out', 'using'])} ${c.name}.`,
      cu.detail,
      `The team relies most on ${product.name}, which ${product.what}.`,
      quote(cu.quote, cu.person, cu.role, cu.name),
      `${cu.name} uses the ${c.name} ${plan.name} plan${r.chance(0.5) ? ` and rolled it out to ${r.int(3, 9)} teams` : ''}.`,
    ],
  });
}

function switchStory(c: Company): void {
  const s = c.switchStory;
  if (!s) return;
  const rival = company(s.from);
  const url = own(c, `/customers/${slug(s.customer)}-switched-from-${slug(rival.name)}`);
  const r = rng(url);
  add({
    kind: 'customer story',
    url,
    title: `Why ${s.customer} switched from ${rival.name} to ${c.name}`,
    publishedAt: s.date,
    sentences: [
      `${s.customer} is ${withArticle(s.kind)}, and its ${s.role}, ${s.person}, led the move to ${c.name}.`,
      ...s.why,
      `${s.customer} evaluated ${c.name} as an alternative to ${rival.name} over ${count(r.int(3, 6))} weeks.`,
      s.outcome,
      quote(
        r.pick([
          `Moving to ${c.name} was the easiest tooling decision we made this year`,
          `We should have switched from ${rival.name} a year earlier`,
          `The switch paid for itself within one quarter`,
        ]),
        s.person,
        s.role,
        s.customer,
      ),
    ],
  });
}

function fundingRelease(c: Company): void {
  const f = c.funding;
  const url = own(c, `/press/${slug(c.name)}-raises-${f.amount}-million-${slug(f.round)}`);
  const r = rng(url);
  add({
    kind: 'press release',
    url,
    title: `${c.name} raises ${money(f.amount)} million ${f.round} led by ${f.lead}`,
    publishedAt: f.date,
    sentences: [
      `${c.name}, ${c.category}, today announced ${withArticle(`${money(f.amount)} million ${f.round}`)} led by ${f.lead}, with participation from ${list(f.others)}.`,
      `The round brings total funding for ${c.name} to ${money(f.total)} million.`,
      `${c.name} will use the new capital to ${f.use}.`,
      f.traction,
      quote(
        r.pick([
          `Our customers in ${list(c.regions.slice(0, 2))} asked us to move faster, and this round lets us do exactly that`,
          `We built ${c.name} for the ${c.personas[0]}, and this funding lets us serve far more of them`,
          `This round is a vote of confidence from our customers as much as from our investors`,
        ]),
        c.ceo.name,
        c.ceo.title,
        c.name,
      ),
      quote(f.investorQuote, f.investor, f.investorRole.replace(/ at .*/, ''), f.investorRole.replace(/^.* at /, '')),
      `${c.name} was founded in ${c.founded}, is headquartered in ${city(c)} and employs about ${thousands(c.employees)} people.`,
      c.description,
    ],
  });
}

function launchRelease(c: Company): void {
  const l = c.launches[c.launches.length - 1]!;
  const url = own(c, `/press/${slug(c.name)}-launches-${slug(l.name)}`);
  const r = rng(url);
  const cu = r.pick(c.customers);
  add({
    kind: 'press release',
    url,
    title: `${c.name} launches ${l.name}`,
    publishedAt: l.date,
    sentences: [
      `${c.name} today launched ${l.name}, which ${l.what}.`,
      l.details[0]!,
      l.availability,
      quote(l.quote, c.ceo.name, c.ceo.title, c.name),
      `${c.name} customers such as ${cu.name} helped shape ${l.name} during a private beta.`,
      `${c.name} serves more than ${c.customerCount} customers in ${list(c.regions)}.`,
      c.description,
    ],
  });
}

function partnershipRelease(c: Company): void {
  const p = c.partnership;
  if (!p) return;
  const url = own(c, `/press/${p.slug}`);
  const r = rng(url);
  add({
    kind: 'press release',
    url,
    title: `${c.name} and ${p.partner} partner to ${p.what}`,
    publishedAt: p.date,
    sentences: [
      `${c.name} and ${p.partner} today announced a partnership to ${p.what}.`,
      ...p.details,
      quote(
        r.pick([
          `Our customers already use ${p.partner}, and this partnership removes the glue code between us`,
          `Customers get more value when ${c.name} and ${p.partner} work as one`,
        ]),
        c.exec.name,
        c.exec.title,
        c.name,
      ),
      c.description,
    ],
  });
}

function fundingNews(c: Company): void {
  const f = c.funding;
  const date = addDays(f.date, 1);
  const url = media('news', `/${date.slice(0, 4)}/${date.slice(5, 7)}/${slug(c.name)}-raises-${f.amount}-million`);
  const r = rng(url);
  const [r1, r2] = rivalsOf(c);
  add({
    kind: 'news article',
    url,
    title: r.pick([
      `${c.name} lands ${money(f.amount)} million to ${f.use.split(' and ')[0]}`,
      `${c.name} raises ${money(f.amount)} million as competition with ${r1!.name} heats up`,
    ]),
    publishedAt: date,
    sentences: [
      `${c.name} has raised ${money(f.amount)} million in a ${f.round} led by ${f.lead}.`,
      c.description,
      `The ${town(c)} company plans to ${f.use}.`,
      f.traction,
      `The round comes as ${c.name} competes with ${r1!.name} and ${r2!.name} for customers in ${c.industries[0]}.`,
      r.pick([
        `Buyers often evaluate ${c.name} as an alternative to ${r1!.name}, which ${r1!.weakness}.`,
        `Compared with ${r1!.name}, ${c.name} ${c.differentiator}.`,
      ]),
      quote(f.investorQuote, f.investor, f.investorRole.replace(/ at .*/, ''), f.investorRole.replace(/^.* at /, ''), 'said'),
      `${c.name} has raised ${money(f.total)} million to date and employs about ${thousands(c.employees)} people.`,
    ],
  });
}

function launchNews(c: Company): void {
  const l = c.launches[0]!;
  const rival = rivalsOf(c).find((x) => x.key !== c.partnership?.partnerKey)!;
  const date = addDays(l.date, 2);
  const url = media('news', `/${date.slice(0, 4)}/${date.slice(5, 7)}/${slug(c.name)}-${slug(l.name)}`);
  const r = rng(url);
  add({
    kind: 'news article',
    url,
    title: r.pick([`${c.name} launches ${l.name}, taking aim at ${rival.name}`, `With ${l.name}, ${c.name} moves closer to ${rival.name}`]),
    publishedAt: date,
    sentences: [
      `${c.name} has launched ${l.name}, which ${l.what}.`,
      l.details[l.details.length - 1]!,
      l.availability,
      `The launch sharpens the competition between ${c.name} and ${rival.name}, which ${rival.differentiator}.`,
      r.pick([
        `Buyers who see ${c.name} as an alternative to ${rival.name} now have ${l.name} as another point of comparison.`,
        `${c.name} hopes ${l.name} gives buyers one more reason to choose it over ${rival.name}.`,
      ]),
      `${c.name} pricing ${pricingStart(c)}.`,
      `"${l.quote}," ${c.ceo.name}, ${c.ceo.title} of ${c.name}, told ${MEDIA.news.name}.`,
      `${c.name} employs about ${thousands(c.employees)} people across ${list(c.offices)}.`,
    ],
  });
}

const REVIEW_HEADLINES: Record<number, string[]> = {
  5: ['exactly what our team needed', 'the best tool we bought this year', 'fast to adopt and easy to love'],
  4: ['a strong product with a few gaps', 'great value once it is set up', 'solid, with room to grow'],
  3: ['powerful but hard to roll out', 'good features at a high price', 'useful, but not for everyone'],
};

function reviews(c: Company): void {
  const rivals = rivalsOf(c);
  c.reviewScores.forEach((score, i) => {
    const role = c.personas[i % c.personas.length]!;
    const industry = c.industries[(i + 1) % c.industries.length]!;
    const url = media('reviews', `/reviews/${slug(c.name)}/${slug(role)}-${slug(industry)}-${i + 1}`);
    const r = rng(url);
    const size = r.pick(c.reviewerSizes);
    const months = r.pick([6, 9, 14, 18, 26]);
    const paid = paidPlans(c);
    const plan = paid[Math.min(i, paid.length - 1)]!;
    const seats = r.pick([5, 8, 12, 18, 25, 40].filter((n) => n >= 5 && (n <= size / 3 || n === 5)));
    const rival = rivals[i % rivals.length]!;
    const [pro1, pro2] = r.shuffle(c.pros);
    const con = c.cons[i % c.cons.length]!;
    const feeling = score >= 5 ? 'fair' : score === 4 ? 'reasonable' : 'high';
    const competition = [
      `We switched from ${rival.name} to ${c.name} because ${c.name} ${c.differentiator}.`,
      `We also evaluated ${rival.name} as an alternative to ${c.name}, but ${c.name} was the better match for our team.`,
      `Compared with ${rival.name}, ${c.name} fit our workflow better.`,
    ][i % 3]!;
    add({
      kind: 'customer review',
      url,
      title: `${c.name} review: ${r.pick(REVIEW_HEADLINES[score] ?? REVIEW_HEADLINES[4]!)}`,
      publishedAt: dateBetween(r, '2025-02-01', '2026-10-25'),
      flexible: true,
      sentences: [
        `This ${c.name} review comes from ${withArticle(role)} at ${withArticle(`${thousands(size)}-person`)} company in ${industry} that has used the product for ${months} months.`,
        `The reviewer rated ${c.name} ${score} out of 5.`,
        r.pick([`The best part is that ${pro1}.`, `What we like most is that ${pro1}.`, `On the plus side, ${pro1}.`]),
        cap(`${pro2}.`),
        r.pick([`The main drawback is that ${con}.`, `On the downside, ${con}.`, `One frustration is that ${con}.`]),
        `We pay ${seatMonth(plan.price)} for ${seats} seats on the ${plan.name} plan, and ${c.name} pricing felt ${feeling} for what we get.`,
        competition,
        `I would recommend ${c.name} to ${c.bestFor}.`,
      ],
    });
  });
}

function ownComparison(c: Company, rival: Company): void {
  const url = own(c, `/compare/${slug(c.name)}-vs-${slug(rival.name)}`);
  const r = rng(url);
  const story = c.switchStory?.from === rival.key ? c.switchStory : undefined;
  const sentences = [
    r.pick([
      `Teams that compare ${c.name} vs ${rival.name} usually want to know which product fits their stage, their data and their budget.`,
      `${c.name} vs ${rival.name} is a comparison we hear often from the ${c.personas[0]} and the ${c.personas[1]}.`,
    ]),
    `${c.name} ${c.differentiator}.`,
    `${rival.name} ${rival.differentiator}.`,
    `The most common reason teams look for an alternative to ${rival.name} is that it ${rival.weakness}.`,
    `${c.name} pricing ${pricingStart(c)}, compared with ${seatMonth(entryPrice(rival))} on the ${paidPlans(rival)[0]!.name} plan of ${rival.name}.`,
    `${c.name} is the better fit for ${c.bestFor}, while ${rival.name} suits ${rival.bestFor}.`,
  ];
  if (story) {
    sentences.push(`${story.customer}, ${withArticle(story.kind)}, switched from ${rival.name} to ${c.name} in ${monthYear(story.date)}.`);
    sentences.push(story.outcome);
  }
  const complement = COMPLEMENTS[c.key];
  sentences.push(
    complement
      ? `Many teams keep ${rival.name} and add ${c.name} for ${complement}, so the choice is not always one or the other.`
      : r.pick([
          `${c.name} offers a free migration of ${rival.name} dashboards and event definitions for teams on annual plans.`,
          `Teams moving from ${rival.name} can import their event history into ${c.name} with a guided migration.`,
        ]),
  );
  add({
    kind: 'comparison page',
    url,
    title: `${c.name} vs ${rival.name}: ${r.pick(['which is right for your team', 'a side-by-side comparison', 'features, pricing and fit'])}`,
    publishedAt: dateBetween(r, '2025-09-01', '2026-10-20'),
    flexible: true,
    sentences,
  });
}

function alternativesPage(c: Company): void {
  const url = media('comparisons', `/alternatives/${slug(c.name)}`);
  const r = rng(url);
  const rivals = rivalsOf(c).slice(0, 4);
  const perRival = rivals.flatMap((x) => [
    r.pick([
      `${x.name} is an alternative to ${c.name} for ${x.bestFor}.`,
      `${x.name} is the best ${c.name} alternative for ${x.bestFor}.`,
    ]),
    r.pick([
      `Compared with ${c.name}, ${x.name} ${x.differentiator}.`,
      `${x.name} pricing ${pricingStart(x)}.`,
    ]),
  ]);
  add({
    kind: 'comparison page',
    url,
    title: `Best ${c.name} alternatives in 2026`,
    publishedAt: dateBetween(r, '2026-01-10', '2026-10-20'),
    flexible: true,
    sentences: [
      `Teams look for an alternative to ${c.name} when it no longer fits, most often because ${c.name} ${c.weakness}.`,
      `${c.name} remains a strong choice for ${c.bestFor}, and ${c.name} pricing ${pricingRange(c)}.`,
      ...perRival,
      `${MEDIA.comparisons.name} scored each ${c.name} alternative on setup time, pricing, integrations and fit for ${list(c.industries.slice(0, 2))}.`,
    ],
  });
}

function headToHead(a: Company, b: Company): void {
  const url = media('comparisons', `/compare/${slug(a.name)}-vs-${slug(b.name)}`);
  const r = rng(url);
  add({
    kind: 'comparison page',
    url,
    title: `${a.name} vs ${b.name}: ${r.pick(['an honest comparison for 2026', 'which tool fits your team', 'features, pricing and fit compared'])}`,
    publishedAt: dateBetween(r, '2025-06-01', '2026-10-20'),
    flexible: true,
    sentences: [
      `${MEDIA.comparisons.name} compared ${a.name} vs ${b.name} on setup, features, pricing and fit.`,
      `${a.name} ${a.differentiator}.`,
      `${b.name} ${b.differentiator}.`,
      `The main limitation of ${a.name} is that it ${a.weakness}.`,
      `The main limitation of ${b.name} is that it ${b.weakness}.`,
      `${a.name} pricing ${pricingRange(a)}.`,
      `${b.name} pricing ${pricingRange(b)}.`,
      `${a.name} is the better choice for ${a.bestFor}, and ${b.name} is the better choice for ${b.bestFor}.`,
      r.pick([
        `One reviewer who switched from ${b.name} to ${a.name} wrote that ${a.pros[0]}.`,
        `Most teams that shortlist both products run a two-week trial of each before deciding.`,
      ]),
    ],
  });
}

function jobPost(c: Company, jobIndex: number): void {
  const j = c.jobs[jobIndex]!;
  const url = own(c, `/careers/${j.slug}`);
  const r = rng(url);
  const rival = rivalsOf(c)[jobIndex % 2]!;
  add({
    kind: 'job post',
    url,
    title: `${j.title} at ${c.name}`,
    publishedAt: j.posted,
    sentences: [
      /^remote /i.test(j.location)
        ? `${c.name} is hiring ${withArticle(j.title)} who can work remotely ${j.location.replace(/^remote /i, '')}.`
        : `${c.name} is hiring ${withArticle(j.title)} based in ${j.location}.`,
      `The role will ${j.mission}.`,
      `The ${j.title.replace(/,.*$/, '')} joins the ${j.team} team and covers ${j.region}.`,
      ...j.duties,
      `Candidates need ${j.requirement}.`,
      j.pay,
      r.pick([
        `The opening is part of the ${c.name} plan to grow in ${j.region}, where it competes most often with ${rival.name}.`,
        `${c.name} is growing in ${j.region} and meets ${rival.name} in many of its deals there.`,
      ]),
      `${c.name} has about ${thousands(c.employees)} employees and offices in ${list(c.offices)}.`,
    ],
  });
}

function analystNote(c: Company): void {
  const url = media('analyst', `/notes/${slug(c.name)}-vendor-profile-2026`);
  const r = rng(url);
  const [r1, r2] = rivalsOf(c);
  const f = c.funding;
  add({
    kind: 'analyst note',
    url,
    title: `Vendor profile: ${c.name}, 2026`,
    publishedAt: dateBetween(r, '2026-01-12', '2026-10-25'),
    flexible: true,
    notBefore: f.date,
    sentences: [
      `${MEDIA.analyst.name} places ${c.name} in the market for ${SEGMENTS[c.key]}.`,
      `${c.name} was founded in ${c.founded}, is based in ${city(c)} and has about ${thousands(c.employees)} employees.`,
      `The main strength of ${c.name} is that it ${c.differentiator}.`,
      `The main caution is that ${c.name} ${c.weakness}.`,
      `${c.name} pricing ${pricingRange(c)}, which puts its entry price ${marketPosition(c)}.`,
      `In ${c.industries[0]} deals, ${c.name} is most often compared with ${r1!.name} and ${r2!.name}.`,
      r.pick([
        `${c.name} wins most often against ${r1!.name} when the buyer is the ${c.personas[0]}.`,
        `Buyers who switched from ${r1!.name} to ${c.name} tell ${MEDIA.analyst.name} that the deciding factor was fit for their team.`,
      ]),
      `${c.name} raised ${withArticle(`${money(f.amount)} million ${f.round}`)} in ${monthYear(f.date)}, bringing total funding to ${money(f.total)} million.`,
      `${c.name} sells mainly in ${list(c.regions)} and is hiring in ${list(c.jobs.map((j) => (/^remote/i.test(j.location) ? j.region : j.location.replace(/ or .*/, ''))))}.`,
      `${MEDIA.analyst.name} recommends ${c.name} for ${c.bestFor}.`,
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Market-wide sources: written from the same facts so prices and rounds always agree
// ---------------------------------------------------------------------------------------------

function marketSources(): void {
  const acme = company('acme.com');
  const globex = company('globex.com');
  const growth = acme.plans.find((p) => p.name === 'Growth')!;
  const business = acme.plans.find((p) => p.name === 'Business')!;
  const globexPro = globex.plans.find((p) => p.name === 'Professional')!;
  const globexTeam = globex.plans.find((p) => p.name === 'Team')!;

  add({
    kind: 'blog post',
    url: own(acme, '/blog/acme-analytics-pricing-2026'),
    title: 'What changes in Acme Analytics pricing for 2026',
    publishedAt: '2026-01-08',
    sentences: [
      'Acme Analytics pricing changes on February 1, 2026, and most customers will pay the same or less.',
      'Viewer seats become free on every plan, so only people who create or edit dashboards need a paid seat.',
      `The Growth plan stays at ${seatMonth(growth.price!)} and its event allowance doubles from 10 million to 20 million events a month.`,
      `The Business plan stays at ${seatMonth(business.price!)} and will include Acme Signals for Salesforce and HubSpot when it launches this spring.`,
      'Customers on annual contracts keep their current price until renewal.',
      'Startups younger than two years get 50 percent off the Growth plan for the first year.',
      'The Acme Analytics pricing change follows a year of customer interviews in which the most common request was a cheaper way to share dashboards with executives.',
      quote('We want every person in a customer company to see product data, not only the people who pay for a seat', acme.ceo.name, acme.ceo.title, acme.name),
    ],
  });

  add({
    kind: 'news article',
    url: media('news', '/2026/01/acme-analytics-free-viewer-seats'),
    title: 'Acme Analytics pricing update makes viewer seats free, taking aim at Globex',
    publishedAt: '2026-01-09',
    sentences: [
      'Acme Analytics will make viewer seats free on every plan from February 2026, a pricing move that puts pressure on Globex.',
      `Globex charges for every user who opens a dashboard below its Enterprise plan, with the Team plan at ${seatMonth(globexTeam.price!)} and Professional at ${seatMonth(globexPro.price!)}.`,
      `Acme Analytics pricing now runs from ${seatMonth(growth.price!)} on the Growth plan to ${seatMonth(business.price!)} on the Business plan for editors.`,
      'Analysts expect the change to help Acme Analytics win mid-market deals in which buyers compared it with Globex on total cost.',
      'Several Acme Analytics customers told SaaS Dispatch they had limited dashboard access to save money on seats.',
      'Acme Analytics competes with Globex, Funnelwise and Pulsegrid for product and revenue budgets at B2B SaaS companies.',
      'Globex declined to comment on the Acme Analytics pricing change.',
    ],
  });

  const benchmark = [...COMPANIES].sort((a, b) => entryPrice(a) - entryPrice(b) || a.name.localeCompare(b.name));
  add({
    kind: 'analyst note',
    url: media('analyst', '/notes/product-analytics-pricing-benchmark-2026'),
    title: 'Product analytics pricing benchmark 2026',
    publishedAt: '2026-04-21',
    sentences: [
      `${MEDIA.analyst.name} compared list prices for ${COMPANIES.length} analytics vendors in April 2026.`,
      `The median entry price for a paid plan is ${seatMonth(MEDIAN_ENTRY)}.`,
      ...benchmark.slice(0, 10).map((c) => `${c.name} pricing ${pricingStart(c)}.`),
      `${benchmark[10]!.name} has the highest entry price in the benchmark, at ${seatMonth(entryPrice(benchmark[10]!))}.`,
      'Per-seat prices hide large differences in event, session and tracked user allowances, so buyers should model a full year of usage before comparing vendors.',
    ],
  });

  const rounds2025 = COMPANIES.filter((c) => c.funding.date.startsWith('2025')).sort((a, b) => a.funding.date.localeCompare(b.funding.date));
  const total2025 = rounds2025.reduce((sum, c) => sum + c.funding.amount, 0);
  add({
    kind: 'news article',
    url: media('news', '/2026/01/product-analytics-funding-2025-in-review'),
    title: 'Product analytics funding in 2025: the year in review',
    publishedAt: '2026-01-14',
    sentences: [
      `Product analytics vendors raised ${money(total2025)} million across ${rounds2025.length} rounds in 2025, according to a ${MEDIA.news.name} count.`,
      ...rounds2025.map((c) => `${c.name} raised ${withArticle(`${money(c.funding.amount)} million ${c.funding.round}`)} led by ${c.funding.lead} in ${MONTHS[+c.funding.date.slice(5, 7) - 1]}.`),
      'The largest rounds went to companies that sell beyond the product team, into data, revenue and compliance budgets.',
    ],
  });

  const landscape = COMPANIES.map((c) => `${c.name} leads in ${SEGMENTS[c.key]}, and its closest rival there is ${rivalsOf(c)[0]!.name}.`);
  add({
    kind: 'analyst note',
    url: media('analyst', '/notes/product-analytics-market-landscape-2026'),
    title: 'Product analytics market landscape 2026',
    publishedAt: '2026-03-03',
    sentences: [
      'The product analytics market has split into specialist segments, and most buyers now shortlist vendors from two or three of them.',
      ...landscape,
      'Halvorsen Research expects at least two acquisitions in the market in 2027, following the Globex purchase of Tracelight in February 2026.',
    ],
  });

  add({
    kind: 'analyst note',
    url: media('analyst', '/notes/account-level-analytics-for-b2b-2026'),
    title: 'Account-level analytics for B2B SaaS: who leads in 2026',
    publishedAt: '2026-07-07',
    sentences: [
      'Account-level analytics groups product events by customer company, which is what B2B revenue and customer success teams need.',
      `Acme Analytics leads this category, because it ${acme.differentiator}.`,
      `Pulsegrid is the main alternative to Acme Analytics for sales-led use cases, because it ${company('pulsegrid.io').differentiator}.`,
      'Cohortly entered the category in February 2026 with Cohortly for Web, but its account grouping is still basic compared with Acme Analytics.',
      `Globex can model accounts through Globex Governance, but it ${globex.weakness}.`,
      `Quillmetrics supports accounts through its semantic layer, although it ${company('quillmetrics.com').weakness}.`,
      `Acme Analytics pricing for account-level features starts on the Business plan at ${seatMonth(business.price!)}.`,
      'Buyers that switched from Globex to Acme Analytics most often cite faster setup and free viewer seats.',
      'Halvorsen Research recommends that a Revenue Operations Lead joins any account analytics evaluation, because the CRM sync decides whether sales teams use the data.',
    ],
  });

  add({
    kind: 'comparison page',
    url: media('comparisons', '/best/product-analytics-tools-for-b2b-saas-2026'),
    title: 'The best product analytics tools for B2B SaaS in 2026',
    publishedAt: '2026-05-26',
    sentences: [
      'StackVerdict tested eight product analytics tools with three B2B SaaS teams between February and April 2026.',
      `Acme Analytics is our top pick for B2B SaaS, because it ${acme.differentiator}.`,
      `Acme Analytics pricing ${pricingStart(acme)}, which is fair for mid-market teams.`,
      `Quillmetrics is the best alternative to Acme Analytics for companies with a mature data warehouse.`,
      `Globex is the pick for large enterprises, although it ${globex.weakness}.`,
      `Funnelwise is the budget option, with pricing that ${pricingStart(company('funnelwise.io'))}.`,
      'Pulsegrid is not a full analytics tool, but it pairs well with Acme Analytics or Quillmetrics for product-led sales.',
      'Tallyhawk is the choice for engineering teams that must self-host.',
      'Teams that switched from Funnelwise to Acme Analytics usually did so after they started selling to businesses and needed account-level reports.',
    ],
  });

  add({
    kind: 'customer review',
    url: media('reviews', '/compare/acme-analytics-vs-globex'),
    title: 'Acme Analytics vs Globex: what reviewers say',
    publishedAt: '2026-08-12',
    sentences: [
      `SaaS Review Hub collected ${acme.reviewScores.length + globex.reviewScores.length} verified reviews of Acme Analytics and Globex from product, data and revenue leaders.`,
      'Reviewers rate Acme Analytics higher for ease of setup and Globex higher for governance and security.',
      'Several reviewers switched from Globex to Acme Analytics because product managers could build reports without analysts.',
      'Reviewers from large banks and healthcare groups prefer Globex, which they describe as the safer choice for audits.',
      `On price, reviewers note that Acme Analytics pricing includes free viewer seats, while Globex charges ${seatMonth(globexTeam.price!)} or more for every user.`,
      'The most common complaint about Acme Analytics is the missing session replay, and the most common complaint about Globex is the long implementation.',
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Assemble, check and write
// ---------------------------------------------------------------------------------------------

/** Pairs StackVerdict compares head to head (in addition to each company's own comparison pages). */
const HEAD_TO_HEAD: [string, string][] = [
  ['acme.com', 'globex.com'],
  ['acme.com', 'funnelwise.io'],
  ['acme.com', 'lumetric.io'],
  ['acme.com', 'quillmetrics.com'],
  ['acme.com', 'cohortly.io'],
  ['acme.com', 'meridianmetrics.io'],
  ['globex.com', 'quillmetrics.com'],
  ['lumetric.io', 'cohortly.io'],
  ['tallyhawk.com', 'funnelwise.io'],
  ['keelstone.com', 'tallyhawk.com'],
  ['beaconly.io', 'lumetric.io'],
  ['pulsegrid.io', 'keelstone.com'],
];

/** How many of its closest rivals each company compares itself with on its own site. */
const OWN_COMPARISONS: Record<string, number> = { 'acme.com': 4, 'globex.com': 2 };

function build(): void {
  for (const c of COMPANIES) {
    homePage(c);
    pricingPage(c);
    for (const l of c.launches) launchPost(c, l);
    guidePost(c);
    c.customers.forEach((_, i) => customerStory(c, i));
    switchStory(c);
    fundingRelease(c);
    launchRelease(c);
    partnershipRelease(c);
    c.jobs.forEach((_, i) => jobPost(c, i));
    for (const rival of c.rivals.slice(0, OWN_COMPARISONS[c.key] ?? 1)) ownComparison(c, company(rival));
    fundingNews(c);
    launchNews(c);
    reviews(c);
    alternativesPage(c);
    analystNote(c);
  }
  for (const [a, b] of HEAD_TO_HEAD) headToHead(company(a), company(b));
  marketSources();
  settleDates();
}

const LAST_DATE = '2026-10-28';
const LAUNCH_DATES = COMPANIES.flatMap((c) => c.launches.map((l) => ({ name: l.name, date: l.date })));

/**
 * Randomly dated sources must not mention a product before its launch (or a round before it was
 * raised): such a source is moved to a date after the latest event it mentions.
 */
function settleDates(): void {
  for (const s of sources) {
    if (!s.flexible) continue;
    const text = `${s.title} ${s.sentences.join(' ')}`;
    let earliest = s.notBefore ?? '';
    for (const l of LAUNCH_DATES) if (text.includes(l.name) && l.date > earliest) earliest = l.date;
    if (earliest && s.publishedAt <= earliest) s.publishedAt = dateBetween(rng(`${s.url}#date`), addDays(earliest, 3), LAST_DATE);
  }
}

/** Throws with every problem found, so a bad template or fact cannot ship. */
function check(): void {
  const problems: string[] = [];
  const urls = new Set<string>();
  for (const s of sources) {
    const where = `${s.url}`;
    if (urls.has(s.url)) problems.push(`${where}: duplicate URL`);
    urls.add(s.url);
    if (new URL(s.url).href !== s.url) problems.push(`${where}: URL is not canonical`);
    if (!/^202[56]-\d{2}-\d{2}$/.test(s.publishedAt) || s.publishedAt > LAST_DATE) problems.push(`${where}: date ${s.publishedAt}`);
    if (s.sentences.length < 4 || s.sentences.length > 15) problems.push(`${where}: ${s.sentences.length} sentences`);
    if (/undefined|NaN|\s{2}/.test(s.title)) problems.push(`${where}: bad title ${s.title}`);
    for (const sentence of s.sentences) {
      const bad = (why: string) => problems.push(`${where}: ${why}: ${sentence}`);
      if (!/^["A-Z0-9]/.test(sentence)) bad('does not start with a capital');
      if (!/[.!?]$/.test(sentence)) bad('does not end with . ! or ?');
      if (/[.!?]["']?\s/.test(sentence)) bad('holds more than one sentence');
      if (/\.[A-Za-z0-9]/.test(sentence)) bad('has a dot inside a word or number');
      if ((sentence.match(/"/g) ?? []).length % 2) bad('unbalanced quotes');
      if (/undefined|NaN|\s{2}|\.\.|,\.| ,/.test(sentence)) bad('template glitch');
    }
  }
  if (problems.length) throw new Error(`demo knowledge base has ${problems.length} problems:\n${problems.join('\n')}`);
}

function render(): string {
  const lines: string[] = [];
  for (const c of COMPANIES) {
    lines.push(
      JSON.stringify({
        type: 'company',
        key: c.key,
        properties: {
          name: c.name,
          domain: c.key,
          description: c.description,
          industry: c.industry,
          headquarters: c.headquarters,
          founded: c.founded,
          employees: c.employees,
        },
      }),
    );
  }
  for (const s of sources) {
    lines.push(
      JSON.stringify({
        type: 'source',
        key: s.url,
        properties: { title: s.title, url: s.url, publishedAt: s.publishedAt, content: s.sentences.join(' ') },
      }),
    );
  }
  for (const [from, to] of LINKED_RIVALRIES) {
    company(from);
    company(to);
    lines.push(JSON.stringify({ link: 'competitors', from: { type: 'company', key: from }, to: { type: 'company', key: to } }));
  }
  return `${lines.join('\n')}\n`;
}

build();
check();
const text = render();

if (process.argv.includes('--check')) {
  const current = readFileSync(OUTPUT, 'utf8');
  if (current !== text) {
    console.error('demo.ndjson is out of date: run node scripts/seed/knowledge-base/generate.ts');
    process.exit(1);
  }
  console.log('demo.ndjson is up to date.');
} else {
  writeFileSync(OUTPUT, text);
  const byKind = new Map<string, number>();
  for (const s of sources) byKind.set(s.kind, (byKind.get(s.kind) ?? 0) + 1);
  console.log(`Wrote ${path.relative(process.cwd(), OUTPUT)}: ${COMPANIES.length} companies, ${sources.length} sources, ${LINKED_RIVALRIES.length} links.`);
  for (const [kind, n] of [...byKind].sort()) console.log(`  ${kind}: ${n}`);
}
