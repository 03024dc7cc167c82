import { aliasesOf, type KnownCompany } from '../research/competitors.ts';
import type { Finding, ResearchSource } from '../research/provider.ts';
import { anyOf, scopeExpression, searchPassages, sourceOf } from '../research/search.ts';
import { selectSentences } from '../research/select.ts';

export interface AreaEvidence {
  /** Distinct sources that discuss the area and name the company. */
  sources: ResearchSource[];
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
  const passages = await searchPassages(db, `${scopeExpression(organizationId)} AND ${anyOf(aliases)} AND ${anyOf(areaTerms)}`, 80);
  const sources = [...new Map(passages.map((p) => [p.sourceKey, sourceOf(p)])).values()];
  const selected = selectSentences(passages, areaTerms.join(' '), undefined, { count: findings, perSource: 1 });
  return {
    sources,
    findings: selected.map((s) => ({ sentence: s.sentence, source: sources.findIndex((src) => src.url === s.sourceKey) })),
  };
}
