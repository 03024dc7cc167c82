import { listCompanies } from '../db/companies.ts';
import { aliasesOf, mentionFinder, wordTokens, type KnownCompany } from '../research/competitors.ts';
import { searchNewestPassages, type RankedPassage } from '../db/passages.ts';
import { columnMatch, columnPhrase } from '../research/fts-query.ts';
import { anyOf, scopeExpression, sourceOf } from '../research/search.ts';
import { isCitable, splitSentences } from '../research/text.ts';
import { AREA_TERMS, GTM_AUDIT_AREAS, RECENT_DAYS, type Candidate, type GtmArea } from './rubric.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * How many passages one area's evidence reads at most: the most recently indexed passages that
 * name the company (or are on its domain) and an area term. The index finds them in its own order,
 * without ranking, so the cost stays the same however many passages match.
 */
export const EVIDENCE_WINDOW = 400;
/** Of those, the ones holding the most area terms, that sentences are taken from. */
export const EVIDENCE_PASSAGES = 80;

/**
 * The title words of Recon's own briefs ("# Research brief: <topic>"): a source titled so is one
 * of Recon's briefs stored back as a source, and is never evidence about anyone.
 */
export const OWN_BRIEF_TITLE = 'Research brief';

/** Words after which a company is the object of a sentence, not its subject. */
const OBJECT_WORDS = new Set(['from', 'to', 'with', 'than', 'vs', 'versus', 'over']);

export interface CompanyEvidence {
  /** Sentences about the company, each verbatim in its source, one entry per distinct sentence. */
  candidates: Candidate[];
  /** The areas whose search matched more than EVIDENCE_WINDOW passages: only the newest were read. */
  truncated: GtmArea[];
}

/** True when `domain` is `owner` or one of its subdomains. */
export function onDomain(domain: string, owner: string): boolean {
  const d = domain.toLowerCase();
  return d === owner || d.endsWith(`.${owner}`);
}

/**
 * The FTS5 expression of one area's evidence: the organization's passages that name the company
 * or are on its domain, hold an area term, and are not Recon's own briefs.
 */
export function evidenceExpression(organizationId: string, company: KnownCompany, area: GtmArea): string {
  const names = aliasesOf(company).map((alias) => alias.split('.')[0]!);
  return (
    `(${scopeExpression(organizationId)} AND (${anyOf(names)} OR ${columnMatch('domain', [company.key], 'OR')}) AND ${anyOf(AREA_TERMS[area])})` +
    ` NOT ${columnPhrase('title', OWN_BRIEF_TITLE)}`
  );
}

/**
 * The sentences of the knowledge base that are about `company`, for every area at once (one bounded
 * search per area, the union read once), so every step of a gtm-audit files the same sentences:
 * - on the company's own pages: every sentence, unless it does not name the company and starts with
 *   another known company's name (that company is what it is about);
 * - on third parties' pages: sentences whose first named known company is this one;
 * - on other known companies' own pages: nothing (a rival's claims are not the company's content).
 * Known companies are the organization's `company` objects (at most COMPANIES_READ).
 */
export async function gatherEvidence(db: Db, organizationId: string, company: KnownCompany, now: Date): Promise<CompanyEvidence> {
  const [searches, companies] = await Promise.all([
    Promise.all(
      GTM_AUDIT_AREAS.map((area) => searchNewestPassages(db, evidenceExpression(organizationId, company, area), AREA_TERMS[area], EVIDENCE_WINDOW, EVIDENCE_PASSAGES)),
    ),
    listCompanies(db, organizationId),
  ]);
  const known = [company, ...companies.filter((c) => c.key !== company.key)];
  const mentions = mentionFinder(known);
  const cutoff = new Date(now.getTime() - RECENT_DAYS * 86_400_000).toISOString().slice(0, 10);

  const passages = new Map<string, RankedPassage>();
  for (const search of searches) for (const p of search.passages) passages.set(`${p.sourceKey}\u001f${p.text}`, p);
  const candidates = new Map<string, Candidate>();
  for (const passage of passages.values()) {
    if (passage.title.trim().toLowerCase().startsWith(OWN_BRIEF_TITLE.toLowerCase())) continue;
    const own = onDomain(passage.domain, company.key);
    if (!own && known.some((c) => c.key !== company.key && onDomain(passage.domain, c.key))) continue;
    const source = sourceOf(passage);
    for (const sentence of splitSentences(passage.text)) {
      if (!isCitable(sentence)) continue;
      const found = mentions(sentence);
      const named = found.some((m) => m.key === company.key);
      // On its own pages, a sentence is the company's unless another company is its subject (named first, at the start).
      const about = own ? named || !(found[0] && found[0].at <= 1) : found[0]?.key === company.key;
      if (!about) continue;
      const first = found[0];
      // "switched from X", "an alternative to X", "compared with X": X is not what the sentence is about.
      const object = first !== undefined && OBJECT_WORDS.has(wordTokens(sentence)[first.at - 1] ?? '');
      const subject = first === undefined ? own : first.key === company.key && first.at <= 4 && !object;
      const candidate: Candidate = { sentence, source, own, named, subject, recent: (source.publishedAt ?? '') >= cutoff };
      const seen = candidates.get(sentence);
      // The same sentence in several sources: the company's own page, else the newest, is cited.
      if (!seen || (own && !seen.own) || (own === seen.own && (source.publishedAt ?? '') > (seen.source.publishedAt ?? ''))) candidates.set(sentence, candidate);
    }
  }
  return {
    candidates: [...candidates.values()],
    truncated: GTM_AUDIT_AREAS.filter((_, i) => searches[i]!.more),
  };
}
