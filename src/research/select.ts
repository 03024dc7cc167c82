import { answerTypeMatch, topicAnswerTypes, type AnswerType } from './answer-types.ts';
import { answersIn, stems, type SentenceFacts } from './sentence-facts.ts';
import { similarity } from './text.ts';
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
}

/** A term found only in the source's title counts this much of a term in the sentence itself. */
export const TITLE_DISCOUNT = 0.5;
/** At most this many sources are cited for one repeated sentence. */
export const MAX_SOURCES_PER_FINDING = 4;
/** Default share of the best relevance below which a sentence is filler. */
export const DEFAULT_FLOOR = 0.6;
/** Relevance is multiplied by this when a sentence misses the topic's subject. */
export const SUBJECT_MISS = 0.5;

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
  const weights = wanted.length ? WEIGHTS.typed : WEIGHTS.untyped;
  let best = Number.EPSILON;
  for (const p of passages) best = Math.max(best, -p.score);

  const bySentence = new Map<string, Candidate>();
  const titleStems = new Map<string, Set<string>>();
  passages.forEach((passage, index) => {
    const passageWeight = Math.max(-passage.score, 0) / best;
    let title = titleStems.get(passage.title);
    if (!title) titleStems.set(passage.title, (title = stems(passage.title)));
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
      };
      const relevance =
        (weights.passage * parts.passage +
          weights.coverage * parts.coverage +
          weights.answerType * parts.answerType +
          weights.informativeness * parts.informativeness) *
        (parts.subject ? 1 : SUBJECT_MISS);
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
  // A repeated sentence counts against the first of its sources that still has room.
  const openSource = (candidate: Candidate) =>
    [candidate.sourceKey, ...candidate.alsoSourceKeys].find((key) => (perSource.get(key) ?? 0) < options.perSource);
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
