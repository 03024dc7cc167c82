import type { ChangeKind } from '../../ground/schemas/changes.ts';
import { amountsOf } from './prices.ts';

/**
 * What a change is about: the kind of a sentence added to or removed from a page, from the
 * sentence's own words first, then the page's type (its URL path, else its title). Words match whole
 * and case-insensitively, except where case is the signal ("Series B", "GA").
 */

export interface PageRef {
  url: string;
  title: string;
}

/** Whole path segments (or a host's first label) that say what a page is; "/customers/how-x-cut-product-costs" is a customers page. */
const SEGMENT_KINDS: ReadonlyMap<string, ChangeKind> = new Map([
  ...words('pricing prices price plans plans-and-pricing pricing-plans plans-pricing', 'pricing'),
  ...words('careers career jobs job join-us joinus work-with-us hiring vacancies openings open-positions open-roles recruiting', 'hiring'),
  ...words('changelog change-log changes releases release-notes releasenotes whats-new what-s-new whatsnew updates product-updates features feature product products docs documentation roadmap integrations platform', 'product'),
  ...words('about about-us aboutus team our-team leadership company management founders our-story who-we-are people', 'people'),
  ...words('press news newsroom press-releases press-room media investors investor-relations ir announcements', 'funding-news'),
  ...words('customers customer customer-stories case-studies case-study casestudies stories success-stories testimonials clients reviews wall-of-love', 'customers'),
]);

/** Job boards: a page on one is a job. */
const JOB_BOARD_HOSTS = /(?:^|\.)(?:greenhouse\.io|lever\.co|workable\.com|ashbyhq\.com|smartrecruiters\.com|recruitee\.com|teamtailor\.com|bamboohr\.com|personio\.(?:de|com)|workday(?:jobs)?\.com|jobvite\.com|breezy\.hr)$/i;

/**
 * Words that say what a page is when a part of its title starts or ends with them ("Acme pricing",
 * "Careers at Acme", "The Acme team"); in the middle they say less ("Acme vs Globex: features,
 * pricing and fit" is a comparison).
 */
const TITLE_KINDS: readonly [RegExp, ChangeKind][] = [
  [/^(?:pricing|prices|plans)\b|\b(?:pricing|prices|plans)$/i, 'pricing'],
  [/^(?:careers?|jobs|job\s+openings|open\s+(?:positions|roles)|we(?:'|\u2019)re\s+hiring|join\s+(?:us|our\s+team)|work\s+with\s+us)\b|\b(?:careers|jobs|open\s+(?:positions|roles)|we(?:'|\u2019)re\s+hiring)$/i, 'hiring'],
  [/^(?:changelog|release\s+notes|what(?:'|\u2019)s\s+new|product\s+updates|docs|documentation|roadmap)\b|\b(?:changelog|release\s+notes|releases|what(?:'|\u2019)s\s+new|product\s+updates|updates|docs|documentation|roadmap)$/i, 'product'],
  [/^(?:about|leadership|our\s+team|meet\s+the\s+team|management\s+team|our\s+story)\b|\b(?:about\s+us|leadership(?:\s+team)?)$|(?<!\b(?:your|my|a)\s)\bteam$/i, 'people'],
  [/^(?:press|newsroom|news|in\s+the\s+news|investor\s+relations|investors)\b|\b(?:press|newsroom|news|press\s+releases?|investor\s+relations|investors)$/i, 'funding-news'],
  [/^(?:customers|customer\s+stories|case\s+stud(?:y|ies)|success\s+stories|testimonials)\b|\b(?:customers|customer\s+stories|case\s+stud(?:y|ies)|success\s+stories|testimonials|reviews)$/i, 'customers'],
];

/** The kind a page's type suggests from its URL path and title (pricing/plans → pricing; careers/jobs → hiring; changelog/releases/release-notes/whats-new/updates/features/product/docs → product; about/team/leadership/company → people; press/news/newsroom/investors → funding-news; customers/case-studies/stories/testimonials → customers), or undefined. */
export function pageTypeKind(page: PageRef): ChangeKind | undefined {
  return kindOfUrl(page.url) ?? kindOfTitle(page.title);
}

/** The most specific segment decides: the last one with a kind ("/company/careers" is hiring), then the host. */
function kindOfUrl(url: string): ChangeKind | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const segments = parsed.pathname.split('/').map(segmentName).filter(Boolean);
  for (const segment of segments.reverse()) {
    const kind = SEGMENT_KINDS.get(segment);
    if (kind) return kind;
  }
  if (JOB_BOARD_HOSTS.test(parsed.hostname)) return 'hiring';
  return SEGMENT_KINDS.get(parsed.hostname.split('.')[0] ?? '');
}

function segmentName(segment: string): string {
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {
    // A malformed escape: the segment as written.
  }
  return name.toLowerCase().replace(/\.(?:html?|php|aspx?)$/, '').replace(/_/g, '-');
}

/** The title's parts ("Pricing | Acme", "Acme: About us") each read in order; the first kind found wins. */
function kindOfTitle(title: string): ChangeKind | undefined {
  for (const part of title.split(/\s[|\u2013\u2014\u00b7-]\s|:\s/)) {
    const text = part.trim().replace(/[?!.]+$/, '');
    const found = TITLE_KINDS.find(([pattern]) => pattern.test(text));
    if (found) return found[1];
  }
  return undefined;
}

// --- The sentence's own signals, strongest first ------------------------------------------------

/** Pay in a job ad: a salary is not a price. Only phrases a price list would not use ("storage quota" is not pay). */
const PAY =
  /\b(?:salary|salaries|total\s+compensation|compensation\s+(?:range|of|package)|on-target\s+earnings|OTE|pay\s+range|base\s+pay|stipend|(?:sales|annual)\s+quota|carr(?:y|ies)\s+an?\s+quota|relocation\s+(?:budget|package|assistance)|signing\s+bonus|bonus\s+of)\b/i;
const PRICE_TERMS =
  /\b(?:pricing|prices?|priced|per[\s-](?:seat|user|member|editor|agent|licen[cs]e|location|employee|host|node|month|year|annum)s?|billed|(?:annual|monthly|yearly)\s+billing|free\s+(?:trial|plan|tier|forever)|paid\s+plans?|discount(?:s|ed)?|pay-as-you-go|fees?|no\s+(?:extra\s+|additional\s+)?(?:charge|cost))\b|\/\s?(?:mo|month|yr|year|seat|user)\b|\d\s?(?:%|percent)\s+off\b/i;
/** "raise" is funding only with money or a round in the sentence: "raised conversion from 14 to 21 percent" is not. */
const RAISE = /\brais(?:e|es|ed|ing)\b/i;
const ROUND_OR_MONEY = /\b(?:rounds?|seed|funding|capital|series|valuation|million|billion|bn)\b/i;
const FUNDING_TERMS =
  /\b(?:funding|funded|fundraising|fundraise|seed\s+round|investors?|(?:growth|strategic|equity|minority|majority|venture)\s+investments?|investments?\s+(?:from|led\s+by|round)|venture\s+capital|valuation|valued\s+at|acquired|acquires|acquisitions?|merger|merges|IPO|went\s+public|public\s+offering)\b/i;
/** A round's letter is a capital: "Series B", not "a series of". */
const SERIES = /\b[Ss]eries\s+[A-H]\b/;
/** Marketing's acquisition (of customers, users, leads) is not a company's. */
const MARKETING_ACQUISITION = /\b(?:customer|user|paid|lead|talent|data|traffic|new)\s+acquisition|\bacquisition\s+(?:costs?|channels?|rates?|funnels?|strateg(?:y|ies)|campaigns?)\b|\bacquired\s+(?:\d[\d,]*\s+)?(?:new\s+)?(?:customers|users|leads|subscribers)\b/gi;
const PEOPLE_TERMS =
  /\b(?:CEO|CTO|CFO|COO|CRO|CMO|CPO|CIO|CISO|chief(?:\s+[\p{L}-]+){1,3}\s+officer|chief\s+executive|vice\s+president|VP|SVP|EVP|president|co-?founders?|founders?|founded\s+by|head\s+of|joins\s+as|joined\s+as|appointed|appoints|appointment|promoted|board\s+of\s+directors|general\s+manager|managing\s+director|steps?\s+down)\b/iu;
const HIRING_TERMS =
  /\b(?:hiring|open\s+(?:roles?|positions?|jobs?|vacanc(?:y|ies))|job\s+openings?|join\s+(?:our|the)\s+team|we(?:'|\u2019)re\s+looking\s+for|we\s+are\s+looking\s+for|apply\s+now|vacanc(?:y|ies)|recruiting)\b/i;
const CUSTOMER_TERMS =
  /\b(?:customers?|clients?|case\s+stud(?:y|ies)|trusted\s+by|used\s+by|loved\s+by|chose|chosen\s+by|selected|switched\s+(?:to|from)|switch(?:es|ing)?\s+to|partnered|partners\s+with|partnership|testimonials?)\b/i;
const PRODUCT_TERMS =
  /\b(?:launch(?:ed|es|ing)?|(?<!press\s)releas(?:e|ed|es|ing)|introduc(?:ing|es|ed)|now\s+available|generally\s+available|available\s+now|new\s+features?|integrations?|integrates?\s+with|beta|deprecat\w*|sunset(?:s|ting)?|version|v\d+(?:\.\d+)+|now\s+supports?|now\s+live)\b/i;
/** General availability, in capitals, and not a US state after a city ("Atlanta, GA"). */
const GA = /(?<!,\s?)\bGA\b/;
/** An amount with a magnitude ("$38 million") is money raised or saved, not a price. */
const MAGNITUDE_AMOUNT = /(?:thousand|million|billion|trillion|bn|[mMbB])$/;

/** The kind of a sentence added to or removed from `page`: the sentence's own signals first (a currency amount or a price term → pricing; funding words: raised, Series A-F, funding round, investors, acquired/acquisition, valuation → funding-news; leadership: CEO, CTO, CFO, COO, CRO, Chief … Officer, VP, Vice President, President, founder, head of, joins as, appointed, promoted → people; hiring: hiring, open roles/positions, join our team, we're looking for → hiring; customers: customer(s), case study, trusted by, used by, chose/selected/switched to, partnered → customers; product: launch(ed), release(d), introducing, now available, new feature, integration, beta, GA, deprecat…, version/v1.2 → product), then the page's type, else 'other'. Word matches are whole words, case-insensitive; when several sentence signals match, pricing > funding-news > people > hiring > customers > product. */
export function kindOfSentence(sentence: string, page: PageRef): ChangeKind {
  return sentenceKind(sentence) ?? pageTypeKind(page) ?? 'other';
}

/**
 * The sentence's own kind. Two refinements of the order pricing > funding-news > … keep money
 * where it belongs: pay words make a job ad's amounts hiring, not pricing ("The base salary is
 * $78,000 to $92,000"); and an amount alone (with no price word) yields to funding words, as
 * rounds are written in currency too ("raised a $38 million Series B").
 */
function sentenceKind(sentence: string): ChangeKind | undefined {
  if (PAY.test(sentence)) return 'hiring';
  if (PRICE_TERMS.test(sentence)) return 'pricing';
  if (isFunding(sentence)) return 'funding-news';
  if (amountsOf(sentence).some((amount) => !MAGNITUDE_AMOUNT.test(amount))) return 'pricing';
  if (PEOPLE_TERMS.test(sentence)) return 'people';
  if (HIRING_TERMS.test(sentence)) return 'hiring';
  if (CUSTOMER_TERMS.test(sentence)) return 'customers';
  if (PRODUCT_TERMS.test(sentence) || GA.test(sentence)) return 'product';
  return undefined;
}

function isFunding(sentence: string): boolean {
  const text = sentence.replace(MARKETING_ACQUISITION, ' ');
  if (FUNDING_TERMS.test(text) || SERIES.test(text)) return true;
  return RAISE.test(text) && (ROUND_OR_MONEY.test(text) || amountsOf(text).length > 0);
}

function words(list: string, kind: ChangeKind): [string, ChangeKind][] {
  return list.split(' ').map((word) => [word, kind]);
}
