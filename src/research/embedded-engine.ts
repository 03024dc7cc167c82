import type { ResearchProvider, ResearchRequest, ResearchResult } from './provider.ts';
import { scopeExpression, searchTopic, sourceOf } from './search.ts';
import { selectSentences } from './select.ts';
import { terms } from './text.ts';

/** How much each tier reads and writes. */
export const TIER_LIMITS = {
  lite: { passages: 40, findings: 5, perSource: 2 },
  base: { passages: 120, findings: 10, perSource: 3 },
} as const;

/**
 * The default engine: BM25 over the organization's own sources (FTS5 in D1), then extractive
 * sentence selection. Needs nothing outside the Worker.
 */
export class EmbeddedEngine implements ResearchProvider {
  readonly name = 'embedded' as const;

  constructor(private readonly db: D1Database) {}

  async research(request: ResearchRequest): Promise<ResearchResult> {
    const limits = TIER_LIMITS[request.tier];
    const queryTerms = terms(request.topic);
    if (queryTerms.length === 0) return { findings: [], sources: [], engine: this.name };

    // userContext terms are soft: they re-rank sentences (selectSentences) but never narrow the search.
    const scope = scopeExpression(request.organizationId, request.sourcePolicy);
    const passages = await searchTopic(this.db, scope, queryTerms, limits.passages);
    const selected = selectSentences(passages, request.topic, request.userContext, {
      count: limits.findings,
      perSource: limits.perSource,
    });
    const sourceKeys = [...new Set(selected.flatMap((s) => [s.sourceKey, ...s.alsoSourceKeys]))];
    return {
      engine: this.name,
      sources: sourceKeys.map((key) => sourceOf(passages.find((p) => p.sourceKey === key)!)),
      findings: selected.map((s) => ({
        sentence: s.sentence,
        source: sourceKeys.indexOf(s.sourceKey),
        ...(s.alsoSourceKeys.length ? { also: s.alsoSourceKeys.map((key) => sourceKeys.indexOf(key)) } : {}),
      })),
    };
  }
}
