import type { CompanyName } from '../db/companies.ts';
import { companyDirectory } from '../oms/company-directory.ts';
import { topicParts, type AnswerType } from './answer-types.ts';
import { relevanceOf, type Ranking, type SentenceFeatures } from './ranking.ts';
import { FITTED_RANKING } from './ranking-weights.ts';
import type { ResearchRequest, ResearchResult } from './provider.ts';
import { findTopicPassages, sourceOf, type FoundPassage } from './search.ts';
import { pickSentences, sentenceCandidates, type Candidate, type ChosenSentence, type PassageFacts } from './select.ts';
import { analyzePassage, decodeFacts, sentenceKey } from './sentence-facts.ts';
import { terms } from './text.ts';
import { topicExpansions } from './topic-expansion.ts';

/**
 * The embedded engine's two steps (embedded-engine.ts), apart so that the ranking can be fitted
 * and scored offline over what the first step found (scripts/lib/research-replay.ts):
 * `retrieve` reads D1 (the passages about a topic, the organization's companies), and
 * `extractFindings` chooses and cuts the sentences, with no I/O.
 */

/** How much each tier reads and writes. */
export const TIER_LIMITS = {
  lite: { passages: 40, findings: 5, perSource: 2 },
  base: { passages: 120, findings: 10, perSource: 3 },
} as const;

/** What a research request is asked over: the topic's passages and the companies the organization knows. */
export interface Retrieved {
  found: FoundPassage[];
  companies: readonly CompanyName[];
}

/** What the topic means without writing it (a CFO's finance team, ARR for annual recurring revenue). */
function expansionsOf(request: Pick<ResearchRequest, 'topic'>): string[] {
  return topicExpansions(request.topic);
}

/**
 * The passages about the topic (searched by its words and its expansions; userContext terms are
 * soft, they re-rank sentences but never narrow the search) and the companies the organization
 * knows (kept in the isolate: usually no D1 round trip), read at the same time. A topic without a
 * word to search for reads nothing, and finds nothing.
 */
export async function retrieve(db: D1Database, request: Pick<ResearchRequest, 'organizationId' | 'topic' | 'tier' | 'sourcePolicy'>): Promise<Retrieved> {
  const topicTerms = terms(request.topic);
  if (topicTerms.length === 0) return { found: [], companies: [] };
  const queryTerms = [...topicTerms, ...expansionsOf(request)];
  const scope = { organizationId: request.organizationId, policy: request.sourcePolicy };
  const [found, companies] = await Promise.all([
    findTopicPassages(db, scope, queryTerms, TIER_LIMITS[request.tier].passages),
    companyDirectory(db, request.organizationId),
  ]);
  return { found, companies };
}

/** The candidate sentences of what was retrieved, before any weights (select.ts `sentenceCandidates`). */
export function findingCandidates(retrieved: Retrieved, request: Pick<ResearchRequest, 'topic' | 'userContext'>): Candidate[] {
  const context = [request.userContext, ...expansionsOf(request)].filter(Boolean).join(' ') || undefined;
  const names = retrieved.companies.flatMap((company) => [company.key, ...(company.name ? [company.name] : [])]);
  return sentenceCandidates(retrieved.found.map(passageFacts), request.topic, context, names);
}

/**
 * The findings and sources of a research result: sentences picked among the candidates under the
 * ranking's selection weights (the fitted ones by default), cut out of their passages, the one its
 * answer weights rank first put first (composeBrief gives the first finding that holds the kind of
 * answer asked for as the brief's Answer), the others in the order they were picked.
 */
export function extractFindings(
  retrieved: Retrieved,
  request: Pick<ResearchRequest, 'topic' | 'tier' | 'userContext'>,
  options: { ranking?: Ranking; candidates?: readonly Candidate[] } = {},
): Pick<ResearchResult, 'findings' | 'sources'> {
  const limits = TIER_LIMITS[request.tier];
  const ranking = options.ranking ?? FITTED_RANKING;
  const candidates = options.candidates ?? findingCandidates(retrieved, request);
  const chosen = answerFirst(pickSentences(candidates, ranking.selection, { count: limits.findings, perSource: limits.perSource }), ranking, topicParts(request.topic));
  const selected = cutSentences(retrieved.found, chosen);
  const sourceKeys = [...new Set(selected.flatMap((s) => [s.sourceKey, ...s.alsoSourceKeys]))];
  return {
    sources: sourceKeys.map((key) => sourceOf(retrieved.found.find((p) => p.sourceKey === key)!)),
    findings: selected.map((s) => ({
      sentence: s.sentence,
      source: sourceKeys.indexOf(s.sourceKey),
      ...(s.alsoSourceKeys.length ? { also: s.alsoSourceKeys.map((key) => sourceKeys.indexOf(key)) } : {}),
    })),
  };
}

/**
 * `chosen` with the sentence the answer weights rank highest first (the first of equals), the rest
 * in order. Only sentences that hold the kind of answer the topic asks for compete when any does:
 * the brief's Answer is the first of those. Of those, a topic's superlative or list words
 * ("cheapest", "largest", "alternatives": select.ts CUE_WORDS) narrow it to the ones that state
 * them, when any does: "The cheapest option we tested is Baitwise" answers "cheapest vendor", the
 * market's size beside it does not. Of those, a near miss (`isNearMiss`) competes only when nothing
 * else does: the Answer never quotes an add-on's price, an earlier figure, another role or a plan
 * while a sentence without such a mark holds what was asked. For a topic that asks several things
 * (`parts`, answer-types.ts `topicParts`), the best sentence for each part the ones before it do
 * not hold follows, picked the same way.
 */
function answerFirst(chosen: ChosenSentence[], ranking: Ranking, parts: readonly AnswerType[][] = []): ChosenSentence[] {
  const typed = chosen.some((sentence) => sentence.answers.length > 0);
  const competes = (sentence: ChosenSentence) => !typed || sentence.answers.length > 0;
  const cued = chosen.some((sentence) => competes(sentence) && sentence.features.evidence.cue > 0);
  const competing = chosen.filter((sentence) => competes(sentence) && (!cued || sentence.features.evidence.cue > 0));
  const first = bestAnswer(competing, ranking);
  if (!first) return chosen;
  // A topic asking several things: then, for each part the answers so far do not hold, the best
  // sentence that holds it (composeBrief quotes the first finding holding each part).
  const answers = [first];
  for (const part of parts) {
    const holdsPart = (sentence: ChosenSentence) => sentence.answers.some((type) => part.includes(type));
    if (answers.some(holdsPart)) continue;
    const pick = bestAnswer(chosen.filter((sentence) => !answers.includes(sentence) && holdsPart(sentence)), ranking);
    if (pick) answers.push(pick);
  }
  return [...answers, ...chosen.filter((sentence) => !answers.includes(sentence))];
}

/** The sentence the answer weights rank highest (the first of equals) among `sentences`, a near miss (`isNearMiss`) only when all are. */
function bestAnswer(sentences: readonly ChosenSentence[], ranking: Ranking): ChosenSentence | undefined {
  const plain = sentences.filter((sentence) => !isNearMiss(sentence.features));
  let best: ChosenSentence | undefined;
  let bestScore = -Infinity;
  for (const sentence of plain.length > 0 ? plain : sentences) {
    const score = relevanceOf(sentence.features, ranking.answer);
    if (score > bestScore) [best, bestScore] = [sentence, score];
  }
  return best;
}

/** A sentence marked as a near miss beside the fact asked for (ranking.ts EARLIER, ADD_ON, OTHER_ROLE, FUTURE). */
function isNearMiss(features: SentenceFeatures): boolean {
  return features.earlier || features.addOn || features.otherRole || features.future;
}

/**
 * The chosen sentences' text, cut out of their passages. A source is cited for a sentence only
 * where the text cut from its passage is that sentence (its key is the chosen one, and it is the
 * same text as the first source's), so stale facts, or two sentences sharing a hash, can never put
 * words in a source's mouth.
 */
function cutSentences(found: readonly FoundPassage[], chosen: readonly ChosenSentence[]) {
  const selected: { sentence: string; sourceKey: string; alsoSourceKeys: string[] }[] = [];
  for (const c of chosen) {
    const keys = [c.sourceKey, ...c.alsoSourceKeys];
    const cut = keys.map((key) => {
      const { passage, sentence } = c.refs.get(key)!;
      const s = found[passage]!.text.slice(sentence.start, sentence.end);
      return sentenceKey(s) === c.key ? s : undefined;
    });
    const sentence = cut.find((s) => s !== undefined);
    if (sentence === undefined) continue;
    const citing = keys.filter((_, i) => cut[i] === sentence);
    selected.push({ sentence, sourceKey: citing[0]!, alsoSourceKeys: citing.slice(1) });
  }
  return selected;
}

/** A found passage as selection reads it: its stored facts, or (a row without current ones) facts computed from its text. */
function passageFacts(passage: FoundPassage): PassageFacts {
  return {
    sourceKey: passage.sourceKey,
    title: passage.title,
    score: passage.score,
    publishedAt: passage.publishedAt,
    text: passage.text,
    sentences: passage.facts !== null ? decodeFacts(passage.facts) : analyzePassage(passage.text),
  };
}
