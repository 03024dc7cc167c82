import { answerTypeMatch, asksAddOn, asksFuture, currencyAsked, jobTitlesIn, holdsCurrency, rolesAsked, holdsLargeSum, moneyScaleAsked, topicAnswerTypes, type AnswerType } from './answer-types.ts';
import { answersIn, marksAddOn, marksBefore, marksFuture, marksPlainWeakness, rolesMarked, stems, type SentenceFacts } from './sentence-facts.ts';
import { stem } from './stem.ts';
import { similarity, terms } from './text.ts';
import { ABOUTNESS, relevanceOf, type Aboutness, type RankingWeights, type SentenceFeatures } from './ranking.ts';
import { FITTED_RANKING } from './ranking-weights.ts';
import type { RankedPassage } from '../db/passages.ts';

export type { RankedPassage } from '../db/passages.ts';

export interface SelectedSentence {
  sentence: string;
  sourceKey: string;
  /** Other sources whose text holds exactly the same sentence: one finding, cited by all of them. */
  alsoSourceKeys: string[];
  relevance: number;
  /** What its relevance was computed from (ranking.ts): the ranking explained. */
  features: SentenceFeatures;
  /** The kinds of answer the sentence holds that the topic asks for. */
  answers: AnswerType[];
}

export interface SelectionOptions {
  /** How many sentences to pick at most (fewer when the rest are far below the best: no padding). */
  count: number;
  /** At most this many from one source, so one document cannot fill the brief. */
  perSource: number;
  /** MMR trade-off: 1 is pure relevance, 0 pure diversity. */
  lambda?: number;
  /** A sentence whose relevance is below this share of the best one's is filler and left out. */
  floor?: number;
  /**
   * Names of companies the organization knows (names or domains): a sentence that opens with one the
   * topic does not name is about someone else (focusFit). The domains of the passages' sources count too.
   */
  names?: readonly string[];
  /** The ranking's weights (ranking.ts); the fitted selection weights (ranking-weights.ts) by default. */
  weights?: RankingWeights;
}

/** At most this many sources are cited for one repeated sentence. */
export const MAX_SOURCES_PER_FINDING = 4;
/** Default share of the best relevance below which a sentence is filler. */
export const DEFAULT_FLOOR = 0.6;
/** A name among a sentence's first this-many words (stems) is what the sentence is about. */
const LEAD = 2;

/** Topic-initial words that are capitalized because they start it, not because they are names. */
const LEADING_VERBS = new Set(['compare', 'list', 'summarize', 'summarise', 'describe', 'explain', 'research', 'outline', 'check']);

/** A name the topic asks about: the stems of its words (the first is its head) and its letters, for domains. */
export interface AskedName {
  /** The name as the topic writes it ("Harvest Lane"). */
  text: string;
  stems: string[];
  /** Its letters and digits, lower case ("harvestlane"), and its first word's ("harvest"): domain labels. */
  letters: string;
  firstWord: string;
}

const lettersOf = (text: string) => text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The names a topic asks about, in order: runs of capitalized words ("Globex", "Harvest Lane",
 * "Enterprise" in "Globex Enterprise plan", "Carrow & Pike": an `&` between capitalized words
 * joins one name, as company names use it), without a topic-initial question word or verb. Names
 * joined by `vs`, `versus`, `and` or `or` are asked about equally (`together`); otherwise the
 * first is what the topic is about and the others are what it is compared with.
 */
export function askedNames(topic: string): { names: AskedName[]; together: boolean } {
  const text = topic.normalize('NFKC');
  const names: AskedName[] = [];
  for (const match of text.matchAll(/(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'&-]*(?:\s+(?:&\s+)?\p{Lu}[\p{L}\p{N}'&-]*)*/gu)) {
    let words = match[0].split(/\s+/);
    if (match.index === 0 && LEADING_VERBS.has(words[0]!.toLowerCase())) words = words.slice(1);
    const wordStems = [...stems(words.join(' '))];
    if (wordStems.length === 0) continue;
    names.push({ text: words.join(' '), stems: wordStems, letters: lettersOf(words.join('')), firstWord: lettersOf(words[0]!) });
  }
  const together = names.length > 1 && /\p{Lu}[\p{L}\p{N}'&-]*\s+(?:vs\.?|versus|and|or)\s+\p{Lu}/u.test(text);
  return { names, together };
}

/** The first label of a source's domain: `globex` for https://www.globex.com/pricing. */
export function domainLabel(sourceKey: string): string {
  const host = URL.canParse(sourceKey) ? new URL(sourceKey).hostname.replace(/^www\./, '') : '';
  const labels = host.split('.');
  return labels.length >= 2 ? labels[labels.length - 2]! : '';
}

/**
 * Whether a domain whose first label is `label` is the own site of `name`: the label is the name's
 * letters (`Harvest Lane`, harvestlane.com) or its first word's when that is long enough to be a name
 * (`Acme Analytics`, acme.com).
 */
export function isOwnDomainOf(name: AskedName, label: string): boolean {
  return label !== '' && (label === name.letters || (name.firstWord.length >= 4 && label === name.firstWord));
}

/** Whether a page is about `name`: its title holds the name's head word, or it is on the name's own domain. */
function pageIsAbout(name: AskedName, title: ReadonlySet<string>, label: string): boolean {
  return title.has(name.stems[0]!) || isOwnDomainOf(name, label);
}

/**
 * Whether a sentence opens with a name's words, side by side from among its first LEAD stems:
 * "Rota Pro costs ..." opens with "Rota Pro", "Rota costs ..." does not.
 */
function opensWith(name: readonly string[], sentenceStems: readonly string[]): boolean {
  const at = sentenceStems.indexOf(name[0]!);
  return at >= 0 && at < LEAD && name.every((s, i) => sentenceStems[at + i] === s);
}

/** Where the name's head word first stands among a sentence's stems: -1 when absent. */
const positionOf = (name: AskedName, sentenceStems: readonly string[]) => sentenceStems.indexOf(name.stems[0]!);

/**
 * How a sentence stands to the names the topic asks about (ranking.ts ABOUTNESS), and whether it
 * opens with a company the topic does not name (`foreign`: the head stems of known companies the
 * topic does not name).
 */
function aboutness(
  asked: { names: AskedName[]; together: boolean },
  subjectHeld: boolean,
  sentenceStems: readonly string[],
  title: ReadonlySet<string>,
  label: string,
  foreign: ReadonlySet<string>,
): Pick<SentenceFeatures, 'aboutness' | 'foreign'> {
  if (asked.names.length === 0) return { aboutness: subjectHeld ? 'noNames' : 'missesAsked', foreign: null };
  const main = asked.together ? asked.names : asked.names.slice(0, 1);
  const others = asked.together ? [] : asked.names.slice(1);
  let best = ABOUTNESS.length - 1;
  const consider = (category: Aboutness) => (best = Math.min(best, ABOUTNESS.indexOf(category)));
  for (const name of main) {
    const at = positionOf(name, sentenceStems);
    const onItsPage = pageIsAbout(name, title, label);
    if (at >= 0 && at < LEAD) consider('opensWithAsked');
    else if (at >= 0 && onItsPage) consider('namesAskedOnItsPage');
    else if (onItsPage) consider('onAskedPage');
    else if (at >= 0) consider('namesAskedInPassing');
  }
  for (const name of others) {
    const at = positionOf(name, sentenceStems);
    if (at >= 0 && at < LEAD) consider('opensWithOtherAsked');
  }
  let opensWithForeign = false;
  for (let i = 0; i < Math.min(LEAD, sentenceStems.length); i++) if (foreign.has(sentenceStems[i]!)) opensWithForeign = true;
  const namesAsked = opensWithForeign && asked.names.some((name) => positionOf(name, sentenceStems) >= 0);
  return { aboutness: ABOUTNESS[best]!, foreign: opensWithForeign ? (namesAsked ? 'opensWithForeignBeside' : 'opensWithForeign') : null };
}

/** The topic's adjacent stem pairs ("enterpris plan"), for the `phrase` feature. */
function stemPairs(topicStems: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < topicStems.length; i++) pairs.push([topicStems[i]!, topicStems[i + 1]!]);
  return pairs;
}

/** Share of `pairs` a sentence holds side by side (its stems are in order of first appearance). */
function phraseShare(pairs: readonly [string, string][], sentenceStems: readonly string[]): number {
  if (pairs.length === 0) return 0;
  let held = 0;
  for (const [first, second] of pairs) {
    const at = sentenceStems.indexOf(first);
    if (at >= 0 && sentenceStems[at + 1] === second) held++;
  }
  return held / pairs.length;
}

/**
 * What a topic is about: the stems of its capitalized words ("Globex", "Series", "DACH"), the
 * names a salesperson writes with capitals. Empty for an all-lower-case topic, which then has no
 * subject to miss.
 */
export function subjectStems(topic: string): Set<string> {
  const capitalized = topic.normalize('NFKC').match(/(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'-]*/gu) ?? [];
  return stems(capitalized.join(' '));
}

/** The redundancy tokens of a sentence: stems of its words (not its numbers) and its figures as whole tokens. */
function diversityTokens(sentenceStems: Iterable<string>, found: readonly string[]): Set<string> {
  const tokens = new Set<string>();
  for (const s of sentenceStems) if (!hasDigit(s)) tokens.add(s);
  for (const f of found) tokens.add(f);
  return tokens;
}

/** /\d/.test(s), without a regular expression. */
function hasDigit(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code >= 48 && code <= 57) return true;
  }
  return false;
}

/**
 * How redundant `b` is after `a`, 0 to 1: the Jaccard similarity of their words and figures, halved
 * when both state figures and the figures differ (two prices of the same thing are two facts).
 */
export function redundancy(a: { tokens: ReadonlySet<string>; figures: readonly string[] }, b: { tokens: ReadonlySet<string>; figures: readonly string[] }): number {
  const base = similarity(a.tokens, b.tokens);
  const differ = a.figures.length > 0 && b.figures.length > 0 && (a.figures.length !== b.figures.length || a.figures.some((f) => !b.figures.includes(f)));
  return differ ? base / 2 : base;
}

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

/** A passage's date in milliseconds, -Infinity when it has none (or none that parses). */
function dateOf(passage: PassageFacts): number {
  const time = passage.publishedAt ? Date.parse(passage.publishedAt) : NaN;
  return Number.isNaN(time) ? -Infinity : time;
}

/** A ranked passage as selection reads it: the facts of its citable sentences, no text needed. */
export interface PassageFacts {
  sourceKey: string;
  title: string;
  /** Its BM25 score (lower is better). */
  score: number;
  /** Its source's date (YYYY-MM-DD...), when known: the `recency` feature. */
  publishedAt?: string | null;
  /** The passage's text: its sentences are slices of it. */
  text: string;
  sentences: readonly SentenceFacts[];
}

/** Where a chosen sentence is found: the passage (its index in the input) and the sentence's facts there. */
export interface SentenceRef {
  passage: number;
  sentence: SentenceFacts;
}

/** A sentence chosen from facts: its sources and where it lies in each, so its text can be cut out. */
export interface ChosenSentence extends Omit<SelectedSentence, 'sentence'> {
  key: string;
  /** For its source and each of `alsoSourceKeys`, where the sentence is in that source. */
  refs: ReadonlyMap<string, SentenceRef>;
}

/**
 * A sentence that may be chosen, with everything about it that does not depend on the ranking's
 * weights: computed once per topic (`sentenceCandidates`), then ranked under any weights
 * (`pickSentences`; the fit replays it under many).
 */
export interface Candidate {
  key: string;
  sourceKey: string;
  alsoSourceKeys: string[];
  refs: Map<string, SentenceRef>;
  features: SentenceFeatures;
  answers: AnswerType[];
  stems: readonly string[];
  /** Diversity tokens, computed the first time the candidate is above the floor. */
  tokens?: Set<string>;
  figures: readonly string[];
}

/**
 * The companies a research call knows of: the known names (`options.names`: names and domains) and
 * the domains of the passages' sources, by head stem and by letters ("harvestlane").
 */
function knownCompanies(known: readonly string[], passages: readonly PassageFacts[]): { heads: Set<string>; letters: Set<string> } {
  const heads = new Set<string>();
  const letters = new Set<string>();
  const add = (text: string) => {
    const name = text.replace(/\.[a-z]{2,}$/i, '');
    const [head] = terms(name);
    if (head && head.length >= 3) heads.add(stem(head));
    if (name) letters.add(lettersOf(name));
  };
  for (const name of known) add(name);
  for (const passage of passages) add(domainLabel(passage.sourceKey));
  return { heads, letters };
}

/** The head stems of known companies the topic does not name. */
function foreignNames(asked: { names: AskedName[] }, companies: { heads: ReadonlySet<string> }): Set<string> {
  const heads = new Set(companies.heads);
  for (const name of asked.names) for (const s of name.stems) heads.delete(s);
  return heads;
}

/**
 * The products or plans the topic asks about, as stems: the words after a known company's name in
 * one run of capitalized words ("Premium" in "Shiftlark Premium plan price", "Compliance Suite" in
 * "Cortilane Compliance Suite"). A run that is itself a known company's name ("Juniper & Salt")
 * names no product.
 */
function askedProducts(topic: string, asked: { names: AskedName[] }, companies: { heads: ReadonlySet<string>; letters: ReadonlySet<string> }): string[][] {
  const products = asked.names.filter((name) => name.stems.length > 1 && companies.heads.has(name.stems[0]!) && !companies.letters.has(name.letters)).map((name) => name.stems.slice(1));
  // A name of its own that a product word follows ("on the Plus plan", "the Rota Pro tier") is a plan's or product's name.
  const text = topic.normalize('NFKC');
  for (const name of asked.names) {
    if (companies.heads.has(name.stems[0]!)) continue;
    const at = text.indexOf(name.text);
    if (at >= 0 && PRODUCT_WORD.test(text.slice(at + name.text.length))) products.push(name.stems);
  }
  return products;
}

/** A word after a name that makes it a plan's or product's name: general English. */
const PRODUCT_WORD = /^\s+(?:plans?|tiers?|editions?|packages?|bundles?|licen[cs]es?|subscriptions?|add-ons?|modules?)\b/i;

/**
 * Words that make a topic ask for a superlative or a list ("cheapest vendor", "alternatives to
 * Globex"): general English, the same for every market. A superlative is also any word of six
 * letters or more ending in -est that is not one of NOT_SUPERLATIVE (largest, fastest, newest).
 */
const CUE_WORDS = new Set(['best', 'worst', 'most', 'least', 'top', 'leading', 'alternative', 'alternatives', 'competitor', 'competitors', 'rival', 'rivals', 'option', 'options', 'cheaper', 'larger', 'bigger', 'smaller', 'faster']);
const NOT_SUPERLATIVE = new Set(['interest', 'request', 'harvest', 'forest', 'contest', 'protest', 'honest', 'modest', 'digest', 'manifest', 'suggest', 'invest', 'arrest', 'attest', 'detest', 'conquest', 'earnest']);

/** The stems of a topic's superlative and list words. */
function cueStems(topic: string): string[] {
  return terms(topic)
    .map((word) => word.toLowerCase())
    .filter((word) => CUE_WORDS.has(word) || (word.length >= 6 && word.endsWith('est') && !NOT_SUPERLATIVE.has(word)))
    .map(stem);
}

/**
 * Words by which a sentence says that what it states is an earlier figure, a near miss beside the
 * current one ("previously raised a $15 million Series A", "its earlier Series A", "formerly"):
 * general English, as stems.
 */
const EARLIER_STEMS = new Set(['previously', 'earlier', 'formerly', 'former', 'prior'].map(stem));

/**
 * Whether a sentence (`text`, its `facts`) names only other roles than the topic asks for: other
 * roles at the head of a company (`roles`, the bits of answer-types.ts `rolesIn`), or other job
 * titles (answer-types.ts `jobTitlesIn`) than the topic's `titles` when the topic names one.
 */
function namesOtherRole(roles: number, titles: ReadonlySet<string>, facts: SentenceFacts, text: () => string): boolean {
  const marked = rolesMarked(facts.answers);
  if (roles !== 0 && marked !== 0 && (marked & roles) === 0) return true;
  if (titles.size === 0) return false;
  const named = jobTitlesIn(text());
  return named.size > 0 && ![...named].some((title) => titles.has(title));
}

/** Share of `wanted` stems a sentence holds (0 when none are wanted). */
function shareHeld(wanted: readonly string[], sentenceStems: readonly string[]): number {
  if (wanted.length === 0) return 0;
  let held = 0;
  for (const s of wanted) if (sentenceStems.includes(s)) held++;
  return held / wanted.length;
}

/**
 * A term of the topic and its initials, which a sentence may write instead: the words of
 * "annual recurring revenue" are held by a sentence saying "ARR", and the "CFO" of a topic by one
 * saying "chief financial officer".
 */
interface AcronymLink {
  /** The topic's stems the acronym stands for. */
  words: string[];
  /** The acronym, as a stem ("arr"). */
  acronym: string;
}

const NONE: ReadonlySet<string> = new Set();
/** A weakness read only from words with other senses (sentence-facts.ts PLAIN_WEAKNESS_MARK unset). */
const WEAKNESS_ONLY_FAINT: readonly AnswerType[] = ['weakness'];

/**
 * The acronym links of a topic: each run of 3 or 4 lower-case content words ("annual recurring
 * revenue") with its initials, and each upper-case abbreviation of 2 to 5 letters it holds ("CFO")
 * with itself, to be found spelled out.
 */
function acronymLinks(topic: string, queryStems: ReadonlySet<string>): AcronymLink[] {
  const links: AcronymLink[] = [];
  const text = topic.normalize('NFKC');
  for (const run of text.match(/(?<![\p{L}\p{N}'-])\p{Ll}[\p{L}\p{N}'-]*(?:\s+\p{Ll}[\p{L}\p{N}'-]*)+/gu) ?? []) {
    const words = run.split(/\s+/);
    for (let size = 4; size >= 3; size--) {
      for (let i = 0; i + size <= words.length; i++) {
        const part = words.slice(i, i + size);
        if (!part.every((w) => terms(w).length === 1)) continue;
        links.push({ words: part.map((w) => stem(terms(w)[0]!)), acronym: stem(part.map((w) => w[0]!.toLowerCase()).join('')) });
      }
    }
  }
  for (const abbreviation of text.match(/(?<![\p{L}\p{N}])\p{Lu}{2,5}(?![\p{L}\p{N}])/gu) ?? []) {
    const acronym = stem(abbreviation.toLowerCase());
    if (queryStems.has(acronym)) links.push({ words: [acronym], acronym });
  }
  return links;
}

/**
 * The topic stems a sentence holds through an acronym link: a run's words when the sentence holds
 * its initials, an abbreviation when the sentence spells it out in adjacent words.
 */
function heldByAcronym(links: readonly AcronymLink[], sentenceStems: readonly string[]): ReadonlySet<string> {
  let held: Set<string> | undefined;
  for (const link of links) {
    const found = link.words.length > 1 ? sentenceStems.includes(link.acronym) : spellsOut(link.acronym, sentenceStems);
    if (found) for (const word of link.words) (held ??= new Set()).add(word);
  }
  return held ?? NONE;
}

/** Whether adjacent stems of a sentence start with the letters of `acronym`, one each ("chief financi offic" for "cfo"). */
function spellsOut(acronym: string, sentenceStems: readonly string[]): boolean {
  if (acronym.length < 2) return false;
  for (let i = 0; i + acronym.length <= sentenceStems.length; i++) {
    let j = 0;
    while (j < acronym.length && sentenceStems[i + j]![0] === acronym[j]) j++;
    if (j === acronym.length) return true;
  }
  return false;
}

/**
 * The candidate sentences of ranked passages for a topic, given the stored facts of their sentences
 * (sentence-facts.ts) rather than their text, each with its features (ranking.ts). A candidate is
 * a verbatim sentence of its passage, admitted when it holds a topic or context term (in its own
 * words, or in its source's title: a sentence on a page titled "Globex pricing" is about Globex
 * pricing) or holds the kind of answer the topic asks for. The same sentence in several sources
 * is one candidate citing them all. Sentences are the same sentence when their facts' `key` is.
 */
export function sentenceCandidates(passages: readonly PassageFacts[], query: string, context: string | undefined, names: readonly string[] = []): Candidate[] {
  const queryStems = stems(query);
  const contextStems = new Set([...stems(context ?? '')].filter((s) => !queryStems.has(s)));
  const weightTotal = queryStems.size + 0.5 * contextStems.size;
  if (weightTotal === 0 || passages.length === 0) return [];
  const wanted = topicAnswerTypes(query);
  const subject = [...subjectStems(query)];
  const asked = askedNames(query);
  const pairs = stemPairs([...queryStems]);
  const companies = knownCompanies(names, passages);
  const foreign = foreignNames(asked, companies);
  const products = askedProducts(query, asked, companies);
  const acronyms = acronymLinks(query, queryStems);
  const cues = [...new Set(cueStems(query))];
  const scale = wanted.includes('money') ? moneyScaleAsked(query) : null;
  const currency = wanted.includes('money') ? currencyAsked(query) : null;
  // An add-on is a near miss beside the price asked for, not beside a date or a name.
  const addOnMarks = wanted.includes('money') && !asksAddOn(query);
  const roles = rolesAsked(query);
  const titles = jobTitlesIn(query);
  const futureAsked = asksFuture(query);
  let best = Number.EPSILON;
  for (const p of passages) best = Math.max(best, -p.score);
  const newest = Math.max(...passages.map(dateOf));

  const bySentence = new Map<string, Candidate>();
  const titleStems = new Map<string, Set<string>>();
  passages.forEach((passage, index) => {
    const passageWeight = Math.max(-passage.score, 0) / best;
    let title = titleStems.get(passage.title);
    if (!title) titleStems.set(passage.title, (title = stems(passage.title)));
    const label = domainLabel(passage.sourceKey);
    const recency = Number.isFinite(dateOf(passage)) ? 1 / (1 + (newest - dateOf(passage)) / YEAR_MS) : 0;
    passage.sentences.forEach((facts, position) => {
      const known = bySentence.get(facts.key);
      if (known) {
        if (known.sourceKey !== passage.sourceKey && !known.alsoSourceKeys.includes(passage.sourceKey)) {
          known.alsoSourceKeys.push(passage.sourceKey);
          known.refs.set(passage.sourceKey, { passage: index, sentence: facts });
        }
        return;
      }
      let inSentence = 0;
      let inTitle = 0;
      let inContext = 0;
      const spelled = acronyms.length ? heldByAcronym(acronyms, facts.stems) : NONE;
      for (const s of queryStems) {
        if (facts.stems.includes(s) || spelled.has(s)) inSentence++;
        else if (title.has(s)) inTitle++;
      }
      for (const s of contextStems) inContext += facts.stems.includes(s) ? 1 : title.has(s) ? 0.5 : 0;
      const answers = answersIn(facts.answers, wanted);
      if (inSentence + inTitle + inContext === 0 && answers.length === 0) return;
      const subjectHeld = subject.length === 0 || subject.some((s) => facts.stems.includes(s) || title.has(s));
      bySentence.set(facts.key, {
        key: facts.key,
        sourceKey: passage.sourceKey,
        alsoSourceKeys: [],
        refs: new Map([[passage.sourceKey, { passage: index, sentence: facts }]]),
        features: {
          evidence: {
            passage: passageWeight,
            coverage: inSentence / weightTotal,
            titleCoverage: inTitle / weightTotal,
            contextCoverage: inContext / weightTotal,
            phrase: phraseShare(pairs, facts.stems),
            answerType: answerTypeMatch(wanted, answers, answers.includes('weakness') && !marksPlainWeakness(facts.answers) ? WEAKNESS_ONLY_FAINT : []),
            informativeness: facts.informativeness,
            position: 1 / (1 + position),
            recency,
            cue: shareHeld(cues, facts.stems),
            product: Math.max(0, ...products.map((product) => (opensWith(product, facts.stems) ? 1 : 0.5 * shareHeld(product, facts.stems)))),
            moneyScale: scale !== null && answers.includes('money') && (scale === 'sum') === holdsLargeSum(facts.figures) ? 1 : 0,
            currency: currency !== null && answers.includes('money') && holdsCurrency(facts.figures, currency) ? 1 : 0,
          },
          ...aboutness(asked, subjectHeld, facts.stems, title, label, foreign),
          earlier: marksBefore(facts.answers) || facts.stems.some((s) => EARLIER_STEMS.has(s)),
          addOn: addOnMarks && marksAddOn(facts.answers),
          otherRole: namesOtherRole(roles, titles, facts, () => passage.text.slice(facts.start, facts.end)),
          // A sentence naming the role asked for says who holds it, whatever it says they will do.
          future: !futureAsked && marksFuture(facts.answers) && (rolesMarked(facts.answers) & roles) === 0,
        },
        answers,
        stems: facts.stems,
        figures: facts.figures,
      });
    });
  });
  return [...bySentence.values()];
}

/** A candidate as one pick sees it: its relevance under the pick's weights, and what the pick has changed. */
interface Ranked {
  candidate: Candidate;
  relevance: number;
  sourceKey: string;
  alsoSourceKeys: string[];
  tokens: Set<string>;
  figures: readonly string[];
  /** Its largest redundancy with any sentence chosen so far. */
  overlap: number;
}

/**
 * Picks relevant, non-redundant sentences among candidates, ranked under `weights` (ranking.ts).
 * Maximal marginal relevance trades relevance against similarity to what is already chosen, with
 * figures as tokens of their own (two different prices are not redundant); sentences far below
 * the best are left out rather than padding the count. The candidates are not changed, so one set
 * can be picked from under many weights.
 */
export function pickSentences(candidates: readonly Candidate[], weights: RankingWeights, options: SelectionOptions): ChosenSentence[] {
  if (candidates.length === 0) return [];
  const relevance = candidates.map((candidate) => relevanceOf(candidate.features, weights));
  const top = Math.max(...relevance);
  const floor = (options.floor ?? DEFAULT_FLOOR) * top;
  const ranked: Ranked[] = [];
  candidates.forEach((candidate, i) => {
    if (relevance[i]! < floor || (top > 0 && relevance[i] === 0)) return;
    candidate.tokens ??= diversityTokens(candidate.stems, candidate.figures);
    ranked.push({ candidate, relevance: relevance[i]!, sourceKey: candidate.sourceKey, alsoSourceKeys: [...candidate.alsoSourceKeys], tokens: candidate.tokens, figures: candidate.figures, overlap: 0 });
  });

  const lambda = options.lambda ?? 0.7;
  const chosen: Ranked[] = [];
  const perSource = new Map<string, number>();
  // The cap per source keeps one document from filling the brief while others have something to
  // say; once none has (every other candidate is below the floor or repeats one chosen), a source
  // may give up to twice as many, rather than the brief stopping short of what it found.
  let cap = options.perSource;
  // A repeated sentence counts against the first of its sources that still has room.
  const openSource = (r: Ranked) => [r.sourceKey, ...r.alsoSourceKeys].find((key) => (perSource.get(key) ?? 0) < cap);
  while (chosen.length < options.count) {
    let pick: Ranked | undefined;
    let pickScore = -Infinity;
    for (const r of ranked) {
      if (r.overlap > 0.8 || chosen.includes(r) || openSource(r) === undefined) continue;
      const score = lambda * r.relevance - (1 - lambda) * r.overlap;
      if (score > pickScore) {
        pick = r;
        pickScore = score;
      }
    }
    if (!pick && cap === options.perSource) {
      cap = 2 * options.perSource;
      continue;
    }
    if (!pick) break;
    const counted = openSource(pick)!;
    if (counted !== pick.sourceKey) {
      pick.alsoSourceKeys = [pick.sourceKey, ...pick.alsoSourceKeys.filter((key) => key !== counted)];
      pick.sourceKey = counted;
    }
    chosen.push(pick);
    perSource.set(counted, (perSource.get(counted) ?? 0) + 1);
    for (const r of ranked) r.overlap = Math.max(r.overlap, redundancy(pick, r));
  }
  return chosen.map(({ candidate, relevance: score, sourceKey, alsoSourceKeys }) => {
    const also = alsoSourceKeys.slice(0, MAX_SOURCES_PER_FINDING - 1);
    return {
      key: candidate.key,
      sourceKey,
      alsoSourceKeys: also,
      refs: new Map([sourceKey, ...also].map((k) => [k, candidate.refs.get(k)!])),
      relevance: score,
      features: candidate.features,
      answers: candidate.answers,
    };
  });
}

/**
 * Picks relevant, non-redundant sentences out of ranked passages (`sentenceCandidates`, then
 * `pickSentences` under the fitted weights, or `options.weights`).
 */
export function chooseSentences(
  passages: readonly PassageFacts[],
  query: string,
  context: string | undefined,
  options: SelectionOptions,
): ChosenSentence[] {
  return pickSentences(sentenceCandidates(passages, query, context, options.names), options.weights ?? FITTED_RANKING.selection, options);
}
