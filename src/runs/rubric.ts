import { sentenceAnswerTypes } from '../research/answer-types.ts';
import type { ResearchSource } from '../research/provider.ts';
import type { Fix } from './types.ts';

/**
 * The gtm-audit rubric: per area, the content checks a company's go-to-market evidence is judged
 * by (is a price published, are plans compared, is the ICP named, ...), and the filing of evidence
 * sentences under them. Pure and deterministic: the same sentences give the same report, whichever
 * areas a run covers and in whatever order its steps run.
 */

/** The areas a gtm-audit scores, in report order (the `focus` argument picks among them). */
export const GTM_AUDIT_AREAS = ['positioning', 'icp', 'pricing', 'channels', 'competition', 'content'] as const;
export type GtmArea = (typeof GTM_AUDIT_AREAS)[number];

/** A sentence is recent when its source was published at most this many days before the audit. */
export const RECENT_DAYS = 365;

/**
 * The words each area's evidence is searched by (at most MAX_QUERY_TERMS each): passages that name
 * the company (or are on its domain) and hold any of them are read, those holding the most first.
 */
export const AREA_TERMS: Record<GtmArea, string[]> = {
  positioning: ['positioning', 'category', 'platform', 'suite', 'leader', 'mission', 'built', 'helps', 'unlike', 'strength', 'trusted', 'lets'],
  icp: ['customers', 'customer', 'industry', 'industries', 'teams', 'companies', 'segment', 'mid-market', 'enterprise', 'enterprises', 'persona', 'employees', 'serves', 'users'],
  pricing: ['pricing', 'price', 'prices', 'plan', 'plans', 'seat', 'month', 'trial', 'discount', 'tier', 'free', 'costs'],
  channels: ['partner', 'partners', 'partnership', 'marketplace', 'integration', 'integrations', 'integrates', 'webinar', 'event', 'reseller', 'hiring', 'sales', 'offices', 'credit'],
  competition: ['alternative', 'alternatives', 'vs', 'versus', 'compared', 'comparison', 'competitor', 'competitors', 'competes', 'competition', 'switched', 'switching', 'rival', 'migration'],
  content: ['blog', 'guide', 'report', 'webinar', 'case', 'study', 'whitepaper', 'announces', 'announced', 'launch', 'launched', 'today', 'said', 'percent'],
};

/** One sentence that may be evidence about the audited company. */
export interface Candidate {
  /** Verbatim from its source's text. */
  sentence: string;
  source: ResearchSource;
  /** The source is on the company's own domain (or a subdomain of it). */
  own: boolean;
  /** The sentence names the company (its name, the name's first word or its domain). */
  named: boolean;
  /**
   * The company is what the sentence is about: the first company it names, within its first five
   * words ("The main strength of Globex is ..."), or, on its own pages, no company is named.
   */
  subject: boolean;
  /** The source was published within RECENT_DAYS of the audit. */
  recent: boolean;
}

/** What a check may ask about the audited company. */
export interface AuditedCompany {
  /** True when `text` names the company. */
  names(text: string): boolean;
}

export interface RubricPoint {
  id: string;
  /** What is looked for, as the report lists it ("A price is published"). */
  label: string;
  /** How much a missing point costs the company: the priority of the fix when it is not found. */
  priority: Fix['priority'];
  /** What to do when it is not found. */
  advice: string;
  meets(candidate: Candidate, company: AuditedCompany): boolean;
}

const has = (pattern: RegExp) => (candidate: Candidate) => pattern.test(candidate.sentence);
const all =
  (...checks: ((candidate: Candidate, company: AuditedCompany) => boolean)[]) =>
  (candidate: Candidate, company: AuditedCompany) =>
    checks.every((check) => check(candidate, company));
const named = (candidate: Candidate) => candidate.named;
const subject = (candidate: Candidate) => candidate.subject;
const recent = (candidate: Candidate) => candidate.recent;

const PRICE_CONTEXT = /\b(?:pric\w*|plans?|seats?|per (?:user|seat|month|year|editor|license)|subscriptions?|licen[cs]\w*|costs?|billed|billing|tiers?|editions?)\b/i;
const NOT_A_PRICE = /\b(?:salar\w*|earnings|funding|raise[sd]?|raising|series [a-h]|revenue|valuation|compensation|quota|equity)\b/i;
const MONEY_FIGURE = /[$€£¥]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:k|m|bn|thousand|million)?\s*(?:[a-z]+\s)?(?:euros?|dollars?|pounds?|francs?|usd|eur|gbp)\b/gi;
const isPrice = (c: Candidate) => sentenceAnswerTypes(c.sentence, ['money']).length > 0 && /\d/.test(c.sentence) && PRICE_CONTEXT.test(c.sentence) && !NOT_A_PRICE.test(c.sentence);
const moneyFigures = (sentence: string) => new Set((sentence.match(MONEY_FIGURE) ?? []).map((f) => f.replace(/\s+/g, ''))).size;

const TARGETING = /\b(?:for|serves?|serving|customers in|mostly in|suits|targets?|buyers?|users include|sells? (?:mainly |mostly )?(?:to|in)|hear often from|grow in)\b/i;
const SIZE_TARGETING =
  /\b(?:built for|designed for|better (?:fit|choice) for|suits|serves?|serving|recommends? \S+(?: \S+)? for|targets?|sells? (?:mainly |mostly )?to|buyers at|for (?:[\w-]+ ){0,3}?(?:companies|enterprises|businesses|organizations|teams|startups) with)\b/i;
const INDUSTRY =
  /\b(?:SaaS|fintech|financial services|banks?|banking|insurers?|insurance|healthcare|health ?care providers?|telecom\w*|retail\w*|e-commerce|ecommerce|manufactur\w*|logistics|media|education|government|public (?:sector|bodies)|developer tools|travel|gaming|pharma\w*|life sciences|energy|utilities|automotive|real estate|hospitality|mobile apps?|subscription businesses)\b/i;
const COMPANY_SIZE =
  /\b\d[\d,]*\s?(?:to|-|–)\s?\d[\d,]*\s+employees\b|\b(?:more|fewer|less) than [\d,]+ employees\b|\b(?:mid-market|mid-sized|large enterprises|enterprises|small (?:and medium(?:-sized)? )?businesses|SMBs?|SMEs?|startups|early-stage)\b/i;
const ROLE = /\b(?:VPs?|Vice Presidents?|Heads? of|Chief [A-Z][a-z]+ Officer|C[IETFMOD]Os?|Directors? of|[A-Z][a-z]+ Managers?|Revenue Operations Lead|founders?)\b/;
const REGION =
  /\b(?:North America|South America|Latin America|LATAM|Europe|EMEA|APAC|Asia(?:-Pacific)?|DACH|Nordics|UK|United Kingdom|Ireland|Germany|France|Australia|Middle East|Africa|Southeast Asia|worldwide|globally)\b/;

/** The rubric of each area, in report order; each point is met by one cited sentence. */
export const RUBRIC: Record<GtmArea, { title: string; points: RubricPoint[] }> = {
  positioning: {
    title: 'Positioning',
    points: [
      {
        id: 'category',
        label: 'A category statement: what the company is',
        priority: 'high',
        advice: 'Say in one sentence what it is ("X is the <category> for <who>") on the home page',
        meets: all(named, subject, has(/\bis (?:the|an?) (?:[\w-]+ ){0,6}?(?:platform|suite|software|tool|solution|service|product|system|app|CDP|analytics)\b/i)),
      },
      {
        id: 'audience',
        label: 'Who it is for',
        priority: 'high',
        advice: 'Name who it is built for (roles, teams or kinds of company) next to the category statement',
        meets: has(/\b(?:built|designed|made|purpose-built) for\b|\bfor (?:the )?(?:[\w-]+ ){0,3}?(?:teams|companies|enterprises|organizations|businesses|startups|banks|brands)\b/i),
      },
      {
        id: 'outcome',
        label: 'An outcome it delivers',
        priority: 'medium',
        advice: 'State the result a customer gets (time saved, revenue kept, a decision made faster), not only the features',
        meets: all(subject, has(/\bso (?:that )?(?:[\w-]+ ){0,6}?(?:can|see|get|know|find|spend)\b|\b(?:helps?|lets|enables?)\b|\bin (?:minutes|seconds|days)\b|\bwithout (?:writing|engineering help|code)\b/i)),
      },
      {
        id: 'differentiator',
        label: 'What sets it apart',
        priority: 'medium',
        advice: 'Say what it does that the alternatives do not (its main strength), in the company\'s own words',
        meets: all(subject, has(/\b(?:unlike|the only|main strength|stands? out|first (?:and only|to))\b/i)),
      },
      {
        id: 'proof',
        label: 'A proof point: customer count or certification',
        priority: 'low',
        advice: 'Back the claim with a proof point: how many customers, which certifications',
        meets: has(/\btrusted by\b|\b(?:more than|over) [\d,]+ (?:customers|companies|organizations|teams|businesses)\b|\bSOC 2\b|\bISO 27001\b|\bHIPAA\b/i),
      },
    ],
  },
  icp: {
    title: 'Ideal customer profile',
    points: [
      {
        id: 'industries',
        label: 'Named industries',
        priority: 'high',
        advice: 'Name the industries it serves',
        meets: all(has(INDUSTRY), has(TARGETING)),
      },
      {
        id: 'sizes',
        label: 'Named company sizes',
        priority: 'high',
        advice: 'Say which company sizes it fits (employees or segment)',
        meets: all(has(COMPANY_SIZE), has(SIZE_TARGETING)),
      },
      {
        id: 'roles',
        label: 'Named buyer roles',
        priority: 'medium',
        advice: 'Name the buyer roles it is built for',
        meets: all(has(ROLE), has(/\b(?:built (?:\w+ ){0,3}?for|designed for|for the|buyers?|users include|sells? to|hear often from|persona|led by)\b/i)),
      },
      {
        id: 'regions',
        label: 'Named regions',
        priority: 'low',
        advice: 'Say where it sells and serves customers',
        meets: all(has(REGION), has(/\b(?:serves?|sells?|customers in|grow(?:s|ing)? in|covers?|markets?|offices in|expand\w* (?:in|into))\b/i)),
      },
      {
        id: 'customers',
        label: 'A named customer example',
        priority: 'medium',
        advice: 'Show named customers of the profile it targets, with what they achieved',
        meets: has(/\bcustomers (?:include|such as)\b|\b(?:chose|uses the|rolled (?:it )?out)\b/i),
      },
    ],
  },
  pricing: {
    title: 'Pricing',
    points: [
      { id: 'price', label: 'A price is published', priority: 'high', advice: 'Publish at least an entry price', meets: isPrice },
      {
        id: 'plans',
        label: 'Plans or tiers are compared',
        priority: 'medium',
        advice: 'Publish the plans side by side, with what each includes',
        meets: (c) =>
          /\b(?:two|three|four|five|six|\d) (?:paid )?(?:plans|tiers|editions|packages)\b/i.test(c.sentence) || (isPrice(c) && moneyFigures(c.sentence) >= 2 && !/\bcompared with\b/i.test(c.sentence)),
      },
      {
        id: 'trial',
        label: 'A free trial',
        priority: 'medium',
        advice: 'Offer and state a way to try it (a free trial)',
        meets: has(/\bfree trial\b|\b(?:\d+|[a-z]+)[- ]day (?:free )?trial\b|\btrial period\b|\btry it (?:free|for free)\b/i),
      },
      {
        id: 'free',
        label: 'A free plan or tier',
        priority: 'low',
        advice: 'Consider a free plan or tier, and say what it includes',
        meets: has(/\bfree (?:plan|tier|version|edition)\b|\bfreemium\b|\bFree costs nothing\b|\bcosts nothing\b/i),
      },
      {
        id: 'discount',
        label: 'Discounts or switching offers',
        priority: 'low',
        advice: 'State the discounts and switching offers buyers can ask for',
        meets: has(/\b\d+\s?(?:%|percent) off\b|\bhalf price\b|\bdiscount(?:s|ed)?\b|\bmonths? free\b/i),
      },
    ],
  },
  channels: {
    title: 'Channels',
    points: [
      { id: 'partners', label: 'Partners or resellers', priority: 'medium', advice: 'Name its partners and resellers', meets: has(/\bpartner(?:s|ship|ships|ed)?\b|\breseller|\bresell/i) },
      {
        id: 'integrations',
        label: 'Integrations with the tools buyers use',
        priority: 'medium',
        advice: 'List the integrations buyers look for',
        meets: has(/\bintegrat\w+ with\b|\bintegrations?\b|\bnative (?:destination|integration|app)\b|\bconnectors?\b/i),
      },
      { id: 'marketplace', label: 'A marketplace or app store listing', priority: 'low', advice: 'List it on the marketplaces its buyers use (cloud or CRM app stores)', meets: has(/\bmarketplaces?\b|\bapp (?:store|directory)\b|\bAppExchange\b/i) },
      {
        id: 'sales',
        label: 'A sales team or regional presence',
        priority: 'low',
        advice: 'Show how buyers reach sales (a sales team, regional offices)',
        meets: has(/\b(?:account executives?|sales team|sales reps?|account directors?|solutions engineers?|offices in)\b/i),
      },
      {
        id: 'self-serve',
        label: 'A self-serve way in',
        priority: 'low',
        advice: 'Offer a self-serve sign-up buyers can start without a call',
        meets: has(/\bno credit card\b|\bsign[- ]up\b|\bself-serve\b|\bstart (?:on|for) (?:the )?free\b|\bget started (?:for )?free\b/i),
      },
    ],
  },
  competition: {
    title: 'Competition',
    points: [
      { id: 'comparison', label: 'A head-to-head comparison', priority: 'high', advice: 'Publish honest comparison pages against the main alternatives', meets: has(/\bvs\.?(?=\s)|\bversus\b|\bcompared (?:with|to)\b|\bcomparison\b/i) },
      {
        id: 'switch-in',
        label: 'A customer who switched to it',
        priority: 'medium',
        advice: 'Tell the story of a customer who switched to it from a rival, with the result',
        meets: (c, company) => [...c.sentence.matchAll(/\bswitch\w* from (.{1,80}?) to (.{1,80})/gi)].some((m) => company.names(m[2]!) && !company.names(m[1]!)),
      },
      {
        id: 'fit',
        label: 'Who should choose it over a rival',
        priority: 'medium',
        advice: 'Say which buyers it fits better than each rival, and which it does not',
        meets: has(/\bbetter (?:fit|choice) (?:for|than)\b|\bwhile \S+(?: \S+)? suits\b|\b(?:cheaper|faster|simpler) than\b/i),
      },
      {
        id: 'migration',
        label: 'A migration path or switching offer',
        priority: 'low',
        advice: 'Offer a migration path (import, guided migration, switching offer) from the main rivals',
        meets: has(/\bmigrat\w+\b|\bimport their (?:\w+ )?(?:history|data)\b|\bswitching from \S+(?: \S+)? get\b/i),
      },
      {
        id: 'rivals',
        label: 'Named rivals in its market',
        priority: 'low',
        advice: 'Know and name who it competes with in each market',
        meets: has(/\bcompetes? (?:\w+ ){0,2}?with\b|\bcompetition with\b|\brivals?\b|\bmost often compared with\b|\bmeets \S+(?: \S+)? in\b/i),
      },
    ],
  },
  content: {
    title: 'Content',
    points: [
      {
        id: 'case-study',
        label: `A case study from the last ${RECENT_DAYS} days with a figure`,
        priority: 'high',
        advice: 'Publish a recent customer story with a measured result',
        meets: all(
          recent,
          (c) => sentenceAnswerTypes(c.sentence, ['percent', 'duration', 'count', 'money']).length > 0 || /\bfrom \w+ (?:\w+ ){0,3}?to \w+\b/.test(c.sentence),
          has(/\b(?:after (?:rolling out|switching|moving|adopting)|using|with (?!about)\w+|cut|reduced|raised|lifted|increased|saved|grew|consolidated)\b/i),
          has(/\b(?:customers?|after rolling out|cut|reduced|lifted|raised|consolidated|saved)\b/i),
          (c) => !/\b(?:announced|series [a-h]|funding|is hiring)\b/i.test(c.sentence),
        ),
      },
      {
        id: 'news',
        label: `News from the last ${RECENT_DAYS} days`,
        priority: 'medium',
        advice: 'Announce launches, partnerships and milestones as they happen',
        meets: all(recent, has(/\b(?:announced|announces|launch(?:ed|es)?|today|now available|introduc\w+|released|raises|raised)\b/i)),
      },
      {
        id: 'quote',
        label: 'A quote from a named customer',
        priority: 'medium',
        advice: 'Quote named customers (name, role, company) in its stories',
        meets: (c, company) => {
          const quote = /["“][^"”]{10,}["”],? said ([^.]+)/.exec(c.sentence);
          return quote !== null && / at /.test(quote[1]!) && !company.names(quote[1]!.split(' at ').slice(1).join(' at '));
        },
      },
      {
        id: 'guide',
        label: 'A guide or how-to for buyers',
        priority: 'low',
        advice: 'Publish guides that teach buyers the problem it solves',
        meets: (c) => c.own && /^how to\b|^why (?:[\w-]+ ){0,3}?(?:teams|companies|buyers|you) need\b|\b(?:guide|playbook|best practices|checklist)\b/i.test(c.source.title),
      },
      {
        id: 'third-party',
        label: `Third-party coverage from the last ${RECENT_DAYS} days (reviews, press, analysts)`,
        priority: 'medium',
        advice: 'Earn recent reviews, press and analyst coverage',
        meets: (c) => !c.own && c.named && c.recent,
      },
    ],
  },
};

/** Where one rubric point stands: met by the candidate at `candidate` (an index into the candidates), or not found. */
export interface PointResult {
  point: RubricPoint;
  candidate?: number;
}

/**
 * Which points each candidate meets, and the rubric points filed: every point is cited with at
 * most one sentence, and a sentence is filed under one area only, so no sentence is repeated across
 * areas. Points with the fewest candidate sentences choose first; among a point's candidates, a
 * sentence whose best area (the one whose points it meets most, ties in report order) is this one
 * comes first, then one already filed here, then the company's own pages, then the newest source,
 * then the shortest sentence.
 */
export function fileEvidence(candidates: readonly Candidate[], company: AuditedCompany): Record<GtmArea, PointResult[]> {
  const meets = candidates.map((candidate) => {
    const byArea = new Map<GtmArea, Set<string>>();
    for (const area of GTM_AUDIT_AREAS) {
      const met = RUBRIC[area].points.filter((point) => point.meets(candidate, company)).map((point) => point.id);
      if (met.length) byArea.set(area, new Set(met));
    }
    return byArea;
  });
  const bestArea = meets.map((byArea) => {
    let best: GtmArea | undefined;
    for (const area of GTM_AUDIT_AREAS) if ((byArea.get(area)?.size ?? 0) > (best ? byArea.get(best)!.size : 0)) best = area;
    return best;
  });

  const slots = GTM_AUDIT_AREAS.flatMap((area, a) =>
    RUBRIC[area].points.map((point, p) => ({
      area,
      point,
      order: a * 100 + p,
      options: candidates.map((_, i) => i).filter((i) => meets[i]!.get(area)?.has(point.id)),
    })),
  );
  slots.sort((x, y) => x.options.length - y.options.length || x.order - y.order);

  const filed = new Map<number, GtmArea>();
  const chosen = new Map<string, number>();
  for (const slot of slots) {
    const open = slot.options.filter((i) => (filed.get(i) ?? slot.area) === slot.area);
    if (open.length === 0) continue;
    const rank = (i: number) => {
      const c = candidates[i]!;
      return [bestArea[i] === slot.area ? 0 : 1, filed.get(i) === slot.area ? 0 : 1, c.own ? 0 : 1] as const;
    };
    open.sort((x, y) => {
      const [a, b] = [rank(x), rank(y)];
      const cx = candidates[x]!;
      const cy = candidates[y]!;
      return (
        a[0] - b[0] ||
        a[1] - b[1] ||
        a[2] - b[2] ||
        (cy.source.publishedAt ?? '').localeCompare(cx.source.publishedAt ?? '') ||
        cx.sentence.length - cy.sentence.length ||
        cx.sentence.localeCompare(cy.sentence)
      );
    });
    filed.set(open[0]!, slot.area);
    chosen.set(`${slot.area}/${slot.point.id}`, open[0]!);
  }
  return Object.fromEntries(
    GTM_AUDIT_AREAS.map((area) => [area, RUBRIC[area].points.map((point) => ({ point, candidate: chosen.get(`${area}/${point.id}`) }))]),
  ) as Record<GtmArea, PointResult[]>;
}

/** The rubric as the report's method prints it: each area's points, in order. */
export function rubricText(): string {
  return GTM_AUDIT_AREAS.map((area) => `- ${RUBRIC[area].title}: ${RUBRIC[area].points.map((p) => p.label.charAt(0).toLowerCase() + p.label.slice(1)).join('; ')}.`).join('\n');
}
