/**
 * The model that ranks candidate sentences for a brief: a weighted sum of named features, fitted
 * on the development corpora rather than set by hand (issue 34). A sentence's relevance is
 *
 *     evidence × exp(aboutness)
 *
 * - evidence: Σ weight × feature over EVIDENCE_FEATURES, each feature 0 to 1 (how much the
 *   sentence says about the topic's words and the kind of answer asked for);
 * - aboutness: the weight of the one ABOUTNESS category the sentence falls in (how squarely it is
 *   about what the topic names), plus the weights of the FOREIGN_FEATURES it has (it opens with
 *   a company the topic does not name). These are log factors: 0 leaves the evidence as it is,
 *   ln(0.5) halves it.
 *
 * Only the ranking within one topic matters (selection keeps sentences within a share of the
 * best), so the weights have no unit. The fitted values are in ranking-weights.ts, written by
 * `npm run fit:research` (scripts/fit-research.ts); PRIOR_RANKING holds the hand-set values the
 * fit starts from, and what the leave-one-corpus-out score starts from too.
 */

/** The features of a sentence's evidence, each 0 to 1. */
export const EVIDENCE_FEATURES = [
  /** The passage's BM25 score relative to the best passage's. */
  'passage',
  /** The topic's terms the sentence holds, as a share of the topic's terms (context terms weigh half). */
  'coverage',
  /** The topic's terms only the sentence's source title holds, on the same scale. */
  'titleCoverage',
  /** Context terms (userContext, the topic's expansions) the sentence or its title holds, on the same scale. */
  'contextCoverage',
  /** Share of the topic's adjacent word pairs ("Enterprise plan", "Series B") the sentence holds side by side. */
  'phrase',
  /** How well the sentence holds the kind of answer the topic asks for (answer-types.ts). */
  'answerType',
  /** Figures and a readable length (sentence-facts.ts `informativeness`). */
  'informativeness',
  /** 1 for a passage's first sentence, 1/2 for its second, and so on: a page says first what it is about. */
  'position',
  /** 1 for the newest source's sentences, 1/(1 + years older) for another dated one's, 0 for an undated one's. */
  'recency',
  /** Share of the topic's superlative and list words (cheapest, largest, alternatives: select.ts CUE_WORDS) the sentence holds. */
  'cue',
  /**
   * How squarely the sentence is about the product or plan the topic asks about ("Premium" in
   * "Shiftlark Premium plan price"): 1 when it opens with its name ("Full Back Office, at $329 per
   * location per month, ..."), otherwise half the share of the name's words it holds (a sentence
   * listing every plan names it in passing). The best over the products asked; 0 when none is.
   */
  'product',
  /**
   * 1 when the topic asks for money of a scale (answer-types.ts `moneyScaleAsked`: a sum such as
   * funding or revenue, or a price) and the money the sentence states is of that scale (a sum in
   * millions, a price not): "$60 million growth investment" for "funding", "$1.25 per user per
   * month" for "cheapest vendor". 0 otherwise.
   */
  'moneyScale',
  /**
   * 1 when the topic asks for money in one currency (answer-types.ts `currencyAsked`: "price in US
   * dollars", "in the United States", "in euros") and the sentence states money in it. 0 otherwise.
   */
  'currency',
] as const;
export type EvidenceFeature = (typeof EVIDENCE_FEATURES)[number];

/**
 * How the sentence stands to the names the topic asks about (select.ts `aboutness`): exactly one
 * applies, the first that holds in this order.
 */
export const ABOUTNESS = [
  /** The topic names nothing (all lower case): nothing to be about. */
  'noNames',
  /** It opens with the name the topic asks about (among its first two words). */
  'opensWithAsked',
  /** It names it later, on a page about it (title or own domain). */
  'namesAskedOnItsPage',
  /** It is on a page about it without naming it. */
  'onAskedPage',
  /** It names it in passing, on another page. */
  'namesAskedInPassing',
  /** It opens with another name the topic asks about (the other side of "X compared with Y"). */
  'opensWithOtherAsked',
  /** The topic has capitalized words and neither the sentence nor its title holds any. */
  'missesAsked',
] as const;
export type Aboutness = (typeof ABOUTNESS)[number];

/** Log factors added when a sentence opens with a company the topic does not name. */
export const FOREIGN_FEATURES = [
  /** ...and names none the topic asks about. */
  'opensWithForeign',
  /** ...and also names one the topic asks about. */
  'opensWithForeignBeside',
] as const;
export type ForeignFeature = (typeof FOREIGN_FEATURES)[number];

/**
 * A log factor added when the sentence says that what it states is an earlier figure ("previously
 * raised", "its earlier Series A", "formerly"): a near miss beside the current one.
 */
export const EARLIER = 'earlier';

/**
 * A log factor added when the sentence prices or names an add-on ("can add Payroll for $6", "each
 * additional employee costs $4") and the topic asks for a price but not about add-ons: a near miss
 * beside the price of the plan asked about.
 */
export const ADD_ON = 'addOn';

/**
 * A log factor added when the topic asks for a role (a CEO, a CFO, a founder; "who runs") and the
 * sentence names only other roles ("co-founder and chief operating officer" for "who runs Gratuvo"):
 * another person of the same company.
 */
export const OTHER_ROLE = 'otherRole';

/**
 * A log factor added when the sentence states a plan or an intent ("will open a Seattle office in
 * January 2026", "does not yet support") and the topic does not ask about plans: a near miss beside
 * what happened. Not for a sentence that names the role the topic asks for ("co-founder Declan
 * Mulqueen will become chair" says who founded the company).
 *
 * A sentence with any of these marks (EARLIER, ADD_ON, OTHER_ROLE, FUTURE) is a near miss: it is
 * the brief's Answer only when no sentence without a mark holds what was asked
 * (embedded-pipeline.ts `answerFirst`).
 */
export const FUTURE = 'future';

export type WeightName = EvidenceFeature | Aboutness | ForeignFeature | typeof EARLIER | typeof ADD_ON | typeof OTHER_ROLE | typeof FUTURE;
export const WEIGHT_NAMES: readonly WeightName[] = [...EVIDENCE_FEATURES, ...ABOUTNESS, ...FOREIGN_FEATURES, EARLIER, ADD_ON, OTHER_ROLE, FUTURE];
export type RankingWeights = Readonly<Record<WeightName, number>>;

/** A candidate's features: what the model weighs. */
export interface SentenceFeatures {
  evidence: Readonly<Record<EvidenceFeature, number>>;
  aboutness: Aboutness;
  foreign: ForeignFeature | null;
  /** It marks what it states as an earlier figure (EARLIER). */
  earlier: boolean;
  /** It prices or names an add-on the topic does not ask about (ADD_ON). */
  addOn: boolean;
  /** It names only roles other than the one the topic asks for (OTHER_ROLE). */
  otherRole: boolean;
  /** It states a plan or an intent the topic does not ask about (FUTURE). */
  future: boolean;
}

/**
 * The hand-set ranking the fit starts from (the rules of the rounds before issue 34, written as a
 * model): passage 0.25, coverage 0.4 (title-only terms and context terms at half), answer type 0.25,
 * informativeness 0.1; a sentence naming the asked company in passing or opening with the other side
 * of a comparison at 0.85, one missing the subject at 0.5, one opening with a company not asked
 * about at 0.7 (0.9 when it names the asked one too).
 */
export const PRIOR_WEIGHTS: RankingWeights = {
  passage: 0.25,
  coverage: 0.4,
  titleCoverage: 0.2,
  contextCoverage: 0.2,
  phrase: 0,
  answerType: 0.25,
  informativeness: 0.1,
  position: 0,
  recency: 0,
  cue: 0,
  product: 0,
  moneyScale: 0,
  currency: 0,
  noNames: 0,
  opensWithAsked: 0,
  namesAskedOnItsPage: 0,
  onAskedPage: 0,
  namesAskedInPassing: Math.log(0.85),
  opensWithOtherAsked: Math.log(0.85),
  missesAsked: Math.log(0.5),
  opensWithForeign: Math.log(0.7),
  opensWithForeignBeside: Math.log(0.9),
  earlier: 0,
  addOn: 0,
  otherRole: 0,
  future: 0,
};

/**
 * The model's two uses, each with its own weights: which sentences a brief quotes (`selection`),
 * and which of those it gives as its **Answer** (`answer`: the quoted sentence it ranks first).
 */
export interface Ranking {
  selection: RankingWeights;
  answer: RankingWeights;
}
export const RANKING_PARTS = ['selection', 'answer'] as const satisfies readonly (keyof Ranking)[];

/** The prior for both uses: the Answer is the most relevant quoted sentence, as before issue 34. */
export const PRIOR_RANKING: Ranking = { selection: PRIOR_WEIGHTS, answer: PRIOR_WEIGHTS };

/** The evidence part of relevance: Σ weight × feature. */
export function evidenceOf(features: SentenceFeatures, weights: RankingWeights): number {
  let sum = 0;
  for (const name of EVIDENCE_FEATURES) sum += weights[name] * features.evidence[name];
  return sum;
}

/** The aboutness part of relevance, as a factor: exp of its category's weight, its foreign feature's, and the weights of the marks (EARLIER, ADD_ON, OTHER_ROLE, FUTURE) it has. */
export function aboutnessFactor(features: SentenceFeatures, weights: RankingWeights): number {
  const marks =
    (features.earlier ? weights[EARLIER] : 0) + (features.addOn ? weights[ADD_ON] : 0) + (features.otherRole ? weights[OTHER_ROLE] : 0) + (features.future ? weights[FUTURE] : 0);
  return Math.exp(weights[features.aboutness] + (features.foreign ? weights[features.foreign] : 0) + marks);
}

/** A sentence's relevance under `weights`: evidence × exp(aboutness), never below 0. */
export function relevanceOf(features: SentenceFeatures, weights: RankingWeights): number {
  return Math.max(0, evidenceOf(features, weights)) * aboutnessFactor(features, weights);
}
