import { aliasesOf, type KnownCompany } from '../research/competitors.ts';
import { searchNewestPassages } from '../research/bounded-search.ts';
import type { Finding, ResearchSource } from '../research/provider.ts';
import { anyOf, scopeExpression, sourceOf } from '../research/search.ts';
import { selectSentences } from '../research/select.ts';

/**
 * How many passages one area's evidence reads at most: the most recently indexed passages that
 * name the company and an area term. The index finds them in its own order, without ranking, so
 * the cost stays the same however many passages match.
 */
export const EVIDENCE_WINDOW = 400;
/** Of those, the ones holding the most area terms, that sources and sentences are taken from. */
export const EVIDENCE_PASSAGES = 80;

export interface AreaEvidence {
  /** Distinct sources that discuss the area and name the company. */
  sources: ResearchSource[];
  /** The most relevant, least redundant sentences, each citing `sources[source]`. */
  findings: Finding[];
  /** True when more than EVIDENCE_WINDOW passages matched: only the newest were read. */
  truncated: boolean;
}

/**
 * Evidence about one area of a company in the organization's knowledge base: of the newest
 * EVIDENCE_WINDOW passages that name the company and any of the area's terms, the
 * EVIDENCE_PASSAGES that hold the most area terms, and the best sentences among them.
 */
export async function gatherEvidence(
  db: D1Database,
  organizationId: string,
  company: KnownCompany,
  areaTerms: readonly string[],
  findings: number,
): Promise<AreaEvidence> {
  const aliases = aliasesOf(company).map((alias) => alias.split('.')[0]!);
  const newest = await searchNewestPassages(
    db,
    `${scopeExpression(organizationId)} AND ${anyOf(aliases)} AND ${anyOf(areaTerms)}`,
    areaTerms,
    EVIDENCE_WINDOW,
    EVIDENCE_PASSAGES,
  );
  const passages = newest.passages;
  const sources = [...new Map(passages.map((p) => [p.sourceKey, sourceOf(p)])).values()];
  const selected = selectSentences(passages, areaTerms.join(' '), undefined, { count: findings, perSource: 1 });
  return {
    sources,
    findings: selected.map((s) => ({ sentence: s.sentence, source: sources.findIndex((src) => src.url === s.sourceKey) })),
    truncated: newest.more,
  };
}
