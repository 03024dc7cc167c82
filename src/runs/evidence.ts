import { aliasesOf, type KnownCompany } from '../research/competitors.ts';
import { matchExpression } from '../research/embedded-engine.ts';
import type { Finding, ResearchSource } from '../research/provider.ts';
import { selectSentences, type RankedPassage } from '../research/select.ts';

export interface AreaEvidence {
  /** Distinct sources that discuss the area and name the company. */
  sources: (ResearchSource & { publishedAt?: string })[];
  /** The most relevant, least redundant sentences, each citing `sources[source]`. */
  findings: Finding[];
}

/**
 * Evidence about one area of a company in the organization's knowledge base: passages that name
 * the company and any of the area's terms (BM25), and the best sentences among them.
 */
export async function gatherEvidence(
  db: D1Database,
  organizationId: string,
  company: KnownCompany,
  areaTerms: readonly string[],
  findings: number,
): Promise<AreaEvidence> {
  const aliases = aliasesOf(company).map((alias) => alias.split('.')[0]!);
  const expression = `${matchExpression(organizationId, aliases)} AND {title text} : (${areaTerms.map((t) => `"${t}"`).join(' OR ')})`;
  const { results: passages } = await db
    .prepare(
      `SELECT p.source_key AS sourceKey, p.text, bm25(passages_fts, 0.0, 2.0, 1.0) AS score
         FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid
        WHERE passages_fts MATCH ?1 ORDER BY score LIMIT 80`,
    )
    .bind(expression)
    .all<RankedPassage>();
  const sourceKeys = [...new Set(passages.map((p) => p.sourceKey))];
  if (sourceKeys.length === 0) return { sources: [], findings: [] };
  const { results: rows } = await db
    .prepare(
      `SELECT key, json_extract(properties, '$.title') AS title, json_extract(properties, '$.domain') AS domain,
              json_extract(properties, '$.publishedAt') AS publishedAt
         FROM objects WHERE organization_id = ?1 AND type = 'source' AND key IN (SELECT value FROM json_each(?2))`,
    )
    .bind(organizationId, JSON.stringify(sourceKeys))
    .all<{ key: string; title: string; domain: string; publishedAt: string | null }>();
  const sources = rows.map((row) => ({
    url: row.key,
    title: row.title,
    domain: row.domain,
    ...(row.publishedAt ? { publishedAt: row.publishedAt.slice(0, 10) } : {}),
  }));
  const selected = selectSentences(passages, areaTerms.join(' '), undefined, { count: findings, perSource: 1 });
  return {
    sources,
    findings: selected.map((s) => ({ sentence: s.sentence, source: sources.findIndex((src) => src.url === s.sourceKey) })),
  };
}
