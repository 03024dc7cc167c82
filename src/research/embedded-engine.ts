import type { ResearchProvider, ResearchRequest, ResearchResult, ResearchSource } from './provider.ts';
import { selectSentences, type RankedPassage } from './select.ts';
import { terms } from './text.ts';

/** How much each tier reads and writes. */
export const TIER_LIMITS = {
  lite: { passages: 40, findings: 5, perSource: 2 },
  base: { passages: 120, findings: 10, perSource: 3 },
} as const;

/** An FTS5 query: the organization's rows, and any of the terms in a source's title or text. */
export function matchExpression(organizationId: string, words: readonly string[]): string {
  const quoted = words.map((word) => `"${word.replace(/"/g, '""')}"`);
  return `organization_id : "${organizationId.replace(/"/g, '""')}" AND {title text} : (${quoted.join(' OR ')})`;
}

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
    const contextTerms = terms(request.userContext ?? '').filter((t) => !queryTerms.includes(t));
    if (queryTerms.length === 0) return { findings: [], sources: [], engine: this.name };

    const passages = await this.search(request, [...queryTerms, ...contextTerms], limits.passages);
    const selected = selectSentences(passages, request.topic, request.userContext, {
      count: limits.findings,
      perSource: limits.perSource,
    });
    const sourceKeys = [...new Set(selected.map((s) => s.sourceKey))];
    const details = await this.sources(request.organizationId, sourceKeys);
    return {
      engine: this.name,
      sources: sourceKeys.map((key) => details.get(key)!),
      findings: selected.map((s) => ({ sentence: s.sentence, source: sourceKeys.indexOf(s.sourceKey) })),
    };
  }

  private async search(request: ResearchRequest, words: string[], limit: number): Promise<RankedPassage[]> {
    const { include, exclude } = request.sourcePolicy;
    const { results } = await this.db
      .prepare(
        `SELECT p.source_key AS sourceKey, p.text, bm25(passages_fts, 0.0, 2.0, 1.0) AS score
           FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid
          WHERE passages_fts MATCH ?1
            AND (?2 = '[]' OR p.domain IN (SELECT value FROM json_each(?2)))
            AND p.domain NOT IN (SELECT value FROM json_each(?3))
          ORDER BY score
          LIMIT ?4`,
      )
      .bind(matchExpression(request.organizationId, words), JSON.stringify(include), JSON.stringify(exclude), limit)
      .all<RankedPassage>();
    return results;
  }

  private async sources(organizationId: string, keys: string[]): Promise<Map<string, ResearchSource>> {
    const found = new Map<string, ResearchSource>();
    if (keys.length === 0) return found;
    const { results } = await this.db
      .prepare(
        `SELECT key, json_extract(properties, '$.title') AS title, json_extract(properties, '$.domain') AS domain,
                json_extract(properties, '$.publishedAt') AS publishedAt
           FROM objects WHERE organization_id = ?1 AND type = 'source' AND key IN (SELECT value FROM json_each(?2))`,
      )
      .bind(organizationId, JSON.stringify(keys))
      .all<{ key: string; title: string; domain: string; publishedAt: string | null }>();
    for (const row of results) {
      found.set(row.key, {
        url: row.key,
        title: row.title,
        domain: row.domain,
        ...(row.publishedAt ? { publishedAt: row.publishedAt.slice(0, 10) } : {}),
      });
    }
    return found;
  }
}
