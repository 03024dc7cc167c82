import { answerTypeMatch, topicAnswerTypes, type AnswerType } from './answer-types.ts';
import { answersIn, stems, type SentenceFacts } from './sentence-facts.ts';
import { stem } from './stem.ts';
import { similarity, terms } from './text.ts';
import type { RankedPassage } from '../db/passages.ts';

export type { RankedPassage } from '../db/passages.ts';

/** Why a sentence was chosen: each part of its relevance, so a ranking can be explained. */
export interface RelevanceParts {
  /** The passage's BM25 score relative to the best passage's, 0 to 1. */
  passage: number;
  /** Share of the topic's terms the sentence holds (a term only in the source's title counts at a discount), 0 to 1. */
  coverage: number;
  /** How well the sentence holds the kind of answer the topic asks for (answer-types.ts), 0 to 1. */
  answerType: number;
  /** Figures and a readable length, 0 to 1. */
  informativeness: number;
  /** False when the topic names something (capitalized words) that neither the sentence nor its source's title mentions. */
  subject: boolean;
  /**
   * How squarely the sentence is about what the topic asks about (`focusFit`), 0 to 1: 1 when it
   * opens with the company or thing the topic names first; less when it names it in passing, or
   * only its page does, or it is about another company the topic does not name.
   */
  focus: number;
}

export interface SelectedSentence {
  sentence: string;
  sourceKey: string;
  /** Other sources whose text holds exactly the same sentence: one finding, cited by all of them. */
  alsoSourceKeys: string[];
  relevance: number;
  parts: RelevanceParts;
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
}

/** A term found only in the source's title counts this much of a term in the sentence itself. */
export const TITLE_DISCOUNT = 0.5;
/** At most this many sources are cited for one repeated sentence. */
export const MAX_SOURCES_PER_FINDING = 4;
/** Default share of the best relevance below which a sentence is filler. */
export const DEFAULT_FLOOR = 0.6;
/** Relevance is multiplied by this when a sentence misses the topic's subject. */
export const SUBJECT_MISS = 0.5;
/** A name among a sentence's first this-many words (stems) is what the sentence is about. */
const LEAD = 2;

/**
 * How much a sentence's fit with the topic's names weighs (multiplies its relevance), by what the
 * sentence does with them: opens with the name the topic asks about first; names it later on a page
 * about it; is on a page about it (title or own domain) without naming it; names it in passing on
 * another page; opens with another name the topic asks about (the other side of a comparison).
 * A sentence that opens with a company the topic does not name is about someone else: its fit is
 * multiplied by FOREIGN (FOREIGN_BESIDE when it also names one the topic asks about).
 */
const FOCUS_FIT = { opens: 1, namedOnItsPage: 1, itsPage: 1, inPassing: 0.85, otherAsked: 0.85 } as const;
const FOREIGN = 0.7;
const FOREIGN_BESIDE = 0.9;

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
 * "Enterprise" in "Globex Enterprise plan"), without a topic-initial question word or verb. Names
 * joined by `vs`, `versus`, `and`, `or` or `&` are asked about equally (`together`); otherwise the
 * first is what the topic is about and the others are what it is compared with.
 */
export function askedNames(topic: string): { names: AskedName[]; together: boolean } {
  const text = topic.normalize('NFKC');
  const names: AskedName[] = [];
  for (const match of text.matchAll(/(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'&-]*(?:\s+\p{Lu}[\p{L}\p{N}'&-]*)*/gu)) {
    let words = match[0].split(/\s+/);
    if (match.index === 0 && LEADING_VERBS.has(words[0]!.toLowerCase())) words = words.slice(1);
    const wordStems = [...stems(words.join(' '))];
    if (wordStems.length === 0) continue;
    names.push({ text: words.join(' '), stems: wordStems, letters: lettersOf(words.join('')), firstWord: lettersOf(words[0]!) });
  }
  const together = names.length > 1 && /\p{Lu}[\p{L}\p{N}'&-]*\s+(?:vs\.?|versus|and|or|&)\s+\p{Lu}/u.test(text);
  return { names, together };
}

/** The first label of a source's domain: `globex` for https://www.globex.com/pricing. */
function domainLabel(sourceKey: string): string {
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

/** Where the name's head word first stands among a sentence's stems: -1 when absent. */
const positionOf = (name: AskedName, sentenceStems: readonly string[]) => sentenceStems.indexOf(name.stems[0]!);

/**
 * The focus part of relevance (see FOCUS_FIT): 1 when the topic names nothing. `foreign` are the
 * head stems of known companies the topic does not name.
 */
function focusFit(
  asked: { names: AskedName[]; together: boolean },
  sentenceStems: readonly string[],
  title: ReadonlySet<string>,
  label: string,
  foreign: ReadonlySet<string>,
): number {
  if (asked.names.length === 0) return 1;
  const main = asked.together ? asked.names : asked.names.slice(0, 1);
  const others = asked.together ? [] : asked.names.slice(1);
  let fit = 0;
  for (const name of main) {
    const at = positionOf(name, sentenceStems);
    const onItsPage = pageIsAbout(name, title, label);
    fit = Math.max(
      fit,
      at >= 0 && at < LEAD ? FOCUS_FIT.opens : at >= 0 && onItsPage ? FOCUS_FIT.namedOnItsPage : onItsPage ? FOCUS_FIT.itsPage : at >= 0 ? FOCUS_FIT.inPassing : 0,
    );
  }
  for (const name of others) {
    const at = positionOf(name, sentenceStems);
    if (at >= 0 && at < LEAD) fit = Math.max(fit, FOCUS_FIT.otherAsked);
  }
  if (fit === 0) fit = SUBJECT_MISS;
  let opensWithForeign = false;
  for (let i = 0; i < Math.min(LEAD, sentenceStems.length); i++) if (foreign.has(sentenceStems[i]!)) opensWithForeign = true;
  if (opensWithForeign) {
    const namesAsked = asked.names.some((name) => positionOf(name, sentenceStems) >= 0);
    fit *= namesAsked ? FOREIGN_BESIDE : FOREIGN;
  }
  return fit;
}

/** The weights of relevance's parts, with and without an answer type asked for. */
const WEIGHTS = {
  typed: { passage: 0.25, coverage: 0.4, answerType: 0.25, informativeness: 0.1 },
  untyped: { passage: 0.35, coverage: 0.5, answerType: 0, informativeness: 0.15 },
} as const;

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

/** A ranked passage as selection reads it: the facts of its citable sentences, no text needed. */
export interface PassageFacts {
  sourceKey: string;
  title: string;
  /** Its BM25 score (lower is better). */
  score: number;
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

interface Candidate {
  key: string;
  sourceKey: string;
  alsoSourceKeys: string[];
  refs: Map<string, SentenceRef>;
  relevance: number;
  parts: RelevanceParts;
  answers: AnswerType[];
  stems: readonly string[];
  /** Diversity tokens, computed only for the candidates above the floor. */
  tokens: Set<string>;
  figures: readonly string[];
  /** Its largest redundancy with any sentence chosen so far. */
  overlap: number;
}

/**
 * The head stems of companies the topic does not name: the known names (`options.names`: names
 * and domains) and the domains of the passages' sources, less anything the topic asks about.
 */
function foreignNames(asked: { names: AskedName[] }, known: readonly string[], passages: readonly PassageFacts[]): Set<string> {
  const heads = new Set<string>();
  const add = (text: string) => {
    const [head] = terms(text.replace(/\.[a-z]{2,}$/i, ''));
    if (head && head.length >= 3) heads.add(stem(head));
  };
  for (const name of known) add(name);
  for (const passage of passages) add(domainLabel(passage.sourceKey));
  for (const name of asked.names) for (const s of name.stems) heads.delete(s);
  return heads;
}

/**
 * Picks relevant, non-redundant sentences out of ranked passages, given the stored facts of their
 * sentences (sentence-facts.ts) rather than their text. Each candidate is a verbatim sentence of its
 * passage, admitted when it holds a topic or context term (in its own words, or in its source's
 * title at a discount: a sentence on a page titled "Globex pricing" is about Globex pricing) or
 * holds the kind of answer the topic asks for. Its relevance mixes, with fixed weights
 * (RelevanceParts): the passage's BM25 rank, the share of the topic's terms it covers (context
 * terms count half), the answer-type match and informativeness. The same sentence in several
 * sources is one candidate citing them all. Maximal marginal relevance then trades relevance
 * against similarity to what is already chosen, with figures as tokens of their own (two different
 * prices are not redundant); sentences far below the best are left out rather than padding the count.
 * Sentences are the same sentence when their facts' `key` is.
 */
export function chooseSentences(
  passages: readonly PassageFacts[],
  query: string,
  context: string | undefined,
  options: SelectionOptions,
): ChosenSentence[] {
  const queryStems = stems(query);
  const contextStems = new Set([...stems(context ?? '')].filter((s) => !queryStems.has(s)));
  const weightTotal = queryStems.size + 0.5 * contextStems.size;
  if (weightTotal === 0 || passages.length === 0) return [];
  const wanted = topicAnswerTypes(query);
  const subject = [...subjectStems(query)];
  const asked = askedNames(query);
  const foreign = foreignNames(asked, options.names ?? [], passages);
  const weights = wanted.length ? WEIGHTS.typed : WEIGHTS.untyped;
  let best = Number.EPSILON;
  for (const p of passages) best = Math.max(best, -p.score);

  const bySentence = new Map<string, Candidate>();
  const titleStems = new Map<string, Set<string>>();
  passages.forEach((passage, index) => {
    const passageWeight = Math.max(-passage.score, 0) / best;
    let title = titleStems.get(passage.title);
    if (!title) titleStems.set(passage.title, (title = stems(passage.title)));
    const label = domainLabel(passage.sourceKey);
    for (const facts of passage.sentences) {
      const known = bySentence.get(facts.key);
      if (known) {
        if (known.sourceKey !== passage.sourceKey && !known.alsoSourceKeys.includes(passage.sourceKey)) {
          known.alsoSourceKeys.push(passage.sourceKey);
          known.refs.set(passage.sourceKey, { passage: index, sentence: facts });
        }
        continue;
      }
      let matched = 0;
      for (const s of queryStems) matched += facts.stems.includes(s) ? 1 : title.has(s) ? TITLE_DISCOUNT : 0;
      for (const s of contextStems) matched += facts.stems.includes(s) ? 0.5 : title.has(s) ? 0.5 * TITLE_DISCOUNT : 0;
      const answers = answersIn(facts.answers, wanted);
      if (matched === 0 && answers.length === 0) continue;
      const parts: RelevanceParts = {
        passage: passageWeight,
        coverage: matched / weightTotal,
        answerType: answerTypeMatch(wanted, answers),
        informativeness: facts.informativeness,
        subject: subject.length === 0 || subject.some((s) => facts.stems.includes(s) || title.has(s)),
        focus: focusFit(asked, facts.stems, title, label, foreign),
      };
      const relevance =
        (weights.passage * parts.passage +
          weights.coverage * parts.coverage +
          weights.answerType * parts.answerType +
          weights.informativeness * parts.informativeness) *
        // With names asked about, their fit says it all; otherwise (capitalized words that are no
        // name, e.g. a topic-initial verb), whether the sentence or its title holds them.
        (asked.names.length > 0 ? parts.focus : parts.subject ? 1 : SUBJECT_MISS);
      bySentence.set(facts.key, {
        key: facts.key,
        sourceKey: passage.sourceKey,
        alsoSourceKeys: [],
        refs: new Map([[passage.sourceKey, { passage: index, sentence: facts }]]),
        relevance,
        parts,
        answers,
        stems: facts.stems,
        tokens: new Set(),
        figures: facts.figures,
        overlap: 0,
      });
    }
  });
  if (bySentence.size === 0) return [];
  let top = -Infinity;
  for (const c of bySentence.values()) top = Math.max(top, c.relevance);
  const floor = (options.floor ?? DEFAULT_FLOOR) * top;
  const candidates = [...bySentence.values()].filter((c) => c.relevance >= floor);
  for (const candidate of candidates) candidate.tokens = diversityTokens(candidate.stems, candidate.figures);

  const lambda = options.lambda ?? 0.7;
  const chosen: Candidate[] = [];
  const perSource = new Map<string, number>();
  // The cap per source keeps one document from filling the brief while others have something to
  // say; once none has (every other candidate is below the floor or repeats one chosen), a source
  // may give up to twice as many, rather than the brief stopping short of what it found.
  let cap = options.perSource;
  // A repeated sentence counts against the first of its sources that still has room.
  const openSource = (candidate: Candidate) => [candidate.sourceKey, ...candidate.alsoSourceKeys].find((key) => (perSource.get(key) ?? 0) < cap);
  while (chosen.length < options.count) {
    let pick: Candidate | undefined;
    let pickScore = -Infinity;
    for (const candidate of candidates) {
      if (candidate.overlap > 0.8 || chosen.includes(candidate) || openSource(candidate) === undefined) continue;
      const score = lambda * candidate.relevance - (1 - lambda) * candidate.overlap;
      if (score > pickScore) {
        pick = candidate;
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
    for (const candidate of candidates) candidate.overlap = Math.max(candidate.overlap, redundancy(pick, candidate));
  }
  return chosen.map(({ key, sourceKey, alsoSourceKeys, refs, relevance, parts, answers }) => {
    const also = alsoSourceKeys.slice(0, MAX_SOURCES_PER_FINDING - 1);
    return { key, sourceKey, alsoSourceKeys: also, refs: new Map([sourceKey, ...also].map((k) => [k, refs.get(k)!])), relevance, parts, answers };
  });
}
