import { isCitable, similarity, splitSentences, stem, terms } from './text.ts';

/** A passage the search returned, with its BM25 score (lower is better, as FTS5 reports it). */
export interface RankedPassage {
  sourceKey: string;
  text: string;
  score: number;
  /** The source's title, domain and date, stored with each passage. */
  title: string;
  domain: string;
  publishedAt: string | null;
}

export interface SelectedSentence {
  sentence: string;
  sourceKey: string;
  relevance: number;
}

export interface SelectionOptions {
  /** How many sentences to pick. */
  count: number;
  /** At most this many from one source, so one document cannot fill the brief. */
  perSource: number;
  /** MMR trade-off: 1 is pure relevance, 0 pure diversity. */
  lambda?: number;
}

/**
 * A prior for sentences that carry facts: concrete figures (prices, counts, dates) and enough words
 * to say something, without running on. 0 to 1.
 */
export function informativeness(sentence: string): number {
  const words = sentence.split(/\s+/).length;
  const figures = /[$€£%]|\d/.test(sentence) ? 0.5 : 0;
  const length = words >= 12 && words <= 45 ? 0.5 : words >= 8 ? 0.25 : 0;
  return figures + length;
}

function stems(text: string): Set<string> {
  return new Set(terms(text).map(stem));
}

/**
 * Picks relevant, non-redundant sentences out of ranked passages: each candidate sentence is a
 * verbatim sentence of its passage that shares at least one query or context term; relevance mixes
 * the passage's BM25 rank, the sentence's own coverage of the query (context terms count half) and
 * how informative it is (figures, a readable length);
 * then maximal marginal relevance trades relevance against similarity to what is already chosen.
 */
export function selectSentences(
  passages: readonly RankedPassage[],
  query: string,
  context: string | undefined,
  options: SelectionOptions,
): SelectedSentence[] {
  const queryStems = stems(query);
  const contextStems = new Set([...stems(context ?? '')].filter((s) => !queryStems.has(s)));
  const weightTotal = queryStems.size + 0.5 * contextStems.size;
  if (weightTotal === 0 || passages.length === 0) return [];
  const best = Math.max(...passages.map((p) => -p.score), Number.EPSILON);

  const seen = new Set<string>();
  const candidates: (SelectedSentence & { stems: Set<string> })[] = [];
  for (const passage of passages) {
    const passageWeight = Math.max(-passage.score, 0) / best;
    for (const sentence of splitSentences(passage.text)) {
      if (!isCitable(sentence) || seen.has(sentence)) continue;
      const sentenceStems = stems(sentence);
      let matched = 0;
      for (const s of queryStems) if (sentenceStems.has(s)) matched += 1;
      for (const s of contextStems) if (sentenceStems.has(s)) matched += 0.5;
      if (matched === 0) continue;
      seen.add(sentence);
      const relevance = 0.35 * passageWeight + 0.45 * (matched / weightTotal) + 0.2 * informativeness(sentence);
      candidates.push({ sentence, sourceKey: passage.sourceKey, relevance, stems: sentenceStems });
    }
  }

  const lambda = options.lambda ?? 0.7;
  const chosen: typeof candidates = [];
  const perSource = new Map<string, number>();
  while (chosen.length < options.count) {
    let pick: (typeof candidates)[number] | undefined;
    let pickScore = -Infinity;
    for (const candidate of candidates) {
      if (chosen.includes(candidate) || (perSource.get(candidate.sourceKey) ?? 0) >= options.perSource) continue;
      const redundancy = Math.max(0, ...chosen.map((c) => similarity(c.stems, candidate.stems)));
      if (redundancy > 0.8) continue;
      const score = lambda * candidate.relevance - (1 - lambda) * redundancy;
      if (score > pickScore) {
        pick = candidate;
        pickScore = score;
      }
    }
    if (!pick) break;
    chosen.push(pick);
    perSource.set(pick.sourceKey, (perSource.get(pick.sourceKey) ?? 0) + 1);
  }
  return chosen.map(({ sentence, sourceKey, relevance }) => ({ sentence, sourceKey, relevance }));
}
