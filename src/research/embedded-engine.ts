import type { ResearchProvider, ResearchRequest, ResearchResult } from './provider.ts';
import { findTopicPassages, sourceOf, type FoundPassage } from './search.ts';
import { companyDirectory } from '../oms/company-directory.ts';
import { chooseSentences, type ChosenSentence, type PassageFacts } from './select.ts';
import { analyzePassage, decodeFacts, sentenceKey } from './sentence-facts.ts';
import { terms } from './text.ts';
import { topicExpansions } from './topic-expansion.ts';

/** How much each tier reads and writes. */
export const TIER_LIMITS = {
  lite: { passages: 40, findings: 5, perSource: 2 },
  base: { passages: 120, findings: 10, perSource: 3 },
} as const;

/**
 * The default engine: BM25 over the organization's own sources (FTS5 in D1), then extractive
 * sentence selection. Needs nothing outside the Worker. One D1 round trip: one statement finds the
 * passages with their text and their sentences' stored facts (search.ts `findTopicPassages`);
 * selection runs on the facts (select.ts `chooseSentences`), and the chosen sentences are cut out
 * of the text.
 */
export class EmbeddedEngine implements ResearchProvider {
  readonly name = 'embedded' as const;

  constructor(private readonly db: D1Database) {}

  async research(request: ResearchRequest): Promise<ResearchResult> {
    const limits = TIER_LIMITS[request.tier];
    const topicTerms = terms(request.topic);
    if (topicTerms.length === 0) return { findings: [], sources: [], engine: this.name };
    // What the topic means without writing it (a CFO's finance team, ARR for annual recurring
    // revenue): searched for too, and counted as context when sentences are ranked.
    const expansions = topicExpansions(request.topic);
    const queryTerms = [...topicTerms, ...expansions];
    const context = [request.userContext, ...expansions].filter(Boolean).join(' ') || undefined;

    // userContext terms are soft: they re-rank sentences (chooseSentences) but never narrow the search.
    const scope = { organizationId: request.organizationId, policy: request.sourcePolicy };
    // The companies the organization knows (kept in the isolate: usually no D1 round trip), so a
    // sentence about one the topic does not name is known as such.
    const [found, companies] = await Promise.all([
      findTopicPassages(this.db, scope, queryTerms, limits.passages),
      companyDirectory(this.db, request.organizationId),
    ]);
    const chosen = chooseSentences(found.map(passageFacts), request.topic, context, {
      count: limits.findings,
      perSource: limits.perSource,
      names: companies.flatMap((company) => [company.key, ...(company.name ? [company.name] : [])]),
    });
    const selected = cutSentences(found, chosen);

    const sourceKeys = [...new Set(selected.flatMap((s) => [s.sourceKey, ...s.alsoSourceKeys]))];
    return {
      engine: this.name,
      sources: sourceKeys.map((key) => sourceOf(found.find((p) => p.sourceKey === key)!)),
      findings: selected.map((s) => ({
        sentence: s.sentence,
        source: sourceKeys.indexOf(s.sourceKey),
        ...(s.alsoSourceKeys.length ? { also: s.alsoSourceKeys.map((key) => sourceKeys.indexOf(key)) } : {}),
      })),
    };
  }
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
    sentences: passage.facts !== null ? decodeFacts(passage.facts) : analyzePassage(passage.text),
  };
}
