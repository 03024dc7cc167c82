import type { ResearchSource } from './provider.ts';
import { hasSearchTerms } from './fts-query.ts';
import { anyOf, scopeExpression, searchPassages, sourceOf } from './search.ts';
import { isCitable, splitSentences } from './text.ts';

/** A company that can be recognised in text: its key (domain) and the names it goes by. */
export interface KnownCompany {
  key: string;
  name?: string;
}

export interface CompetitorEvidence {
  sentence: string;
  source: ResearchSource;
}

export interface CompetitorCandidate {
  key: string;
  name?: string;
  evidence: CompetitorEvidence[];
  /** Where else we know it from: the sales profile, or a stored `competitors` link. */
  knownFrom: ('profile' | 'link')[];
}

const COMPETITION_CUE = /\b(alternatives? to|alternatives?|vs\.?|versus|compared (?:with|to)|comparison|switch(?:ed|ing)? (?:from|to)|competitors?|competes? with|competing|rivals?|instead of|replac(?:e|ed|ing))\b/i;
const SEARCH_CUES = ['alternative', 'alternatives', 'vs', 'versus', 'compared', 'comparison', 'switched', 'switching', 'competitor', 'competitors', 'competes', 'rival', 'instead', 'replaced'];

/** The words a company is mentioned by: its name, the name's first word, its domain and domain root. */
export function aliasesOf(company: KnownCompany): string[] {
  const aliases = new Set<string>([company.key, company.key.split('.')[0]!]);
  if (company.name) {
    aliases.add(company.name);
    aliases.add(company.name.split(/\s+/)[0]!);
  }
  return [...aliases].filter((alias) => alias.length >= 3).map((alias) => alias.toLowerCase());
}

/** The lower-case word tokens of text, as mention matching reads them ("Acme.com's" -> acme, com, s). */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Where in a text each known company is first named: its key and the word position. */
export interface Mention {
  key: string;
  at: number;
}

/**
 * A reusable finder of company mentions among many known companies: each alias (aliasesOf) is
 * indexed by its first word, so a text costs one pass over its words however many companies are
 * known. Matches whole words only, as `mentions` does.
 */
export function mentionFinder(companies: readonly KnownCompany[]): (text: string) => Mention[] {
  const byFirstWord = new Map<string, { key: string; tokens: string[] }[]>();
  for (const company of companies) {
    for (const alias of aliasesOf(company)) {
      const tokens = wordTokens(alias);
      if (tokens.length === 0) continue;
      const list = byFirstWord.get(tokens[0]!) ?? [];
      list.push({ key: company.key, tokens });
      byFirstWord.set(tokens[0]!, list);
    }
  }
  return (text) => {
    const words = wordTokens(text);
    const first = new Map<string, number>();
    words.forEach((word, i) => {
      for (const alias of byFirstWord.get(word) ?? []) {
        if (first.has(alias.key)) continue;
        if (alias.tokens.every((token, j) => words[i + j] === token)) first.set(alias.key, i);
      }
    });
    return [...first].map(([key, at]) => ({ key, at })).sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
  };
}

function mentions(sentence: string, aliases: readonly string[]): boolean {
  const lower = sentence.toLowerCase();
  return aliases.some((alias) => new RegExp(`(^|[^\\p{L}\\p{N}])${alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\p{L}\\p{N}]|$)`, 'u').test(lower));
}

/**
 * Finds competitors of `target` in the organization's sources: sentences that name the target and
 * another known company together with a competition cue ("alternative to", "vs", "compared with",
 * "switched from", ...). Each piece of evidence is a verbatim sentence of its source. The query is
 * built by search.ts (fts-query.ts), so any name is safe in it.
 */
export async function findCompetitorEvidence(
  db: D1Database,
  organizationId: string,
  target: KnownCompany,
  companies: readonly KnownCompany[],
): Promise<Map<string, CompetitorEvidence[]>> {
  const targetAliases = aliasesOf(target);
  const others = companies.filter((c) => c.key !== target.key).map((c) => ({ key: c.key, aliases: aliasesOf(c) }));
  const evidence = new Map<string, CompetitorEvidence[]>();
  if (others.length === 0) return evidence;

  const names = targetAliases.map((a) => a.split('.')[0]!);
  // A name with nothing searchable ("ab", "!!!") can have no evidence: no query is sent.
  if (!hasSearchTerms(names)) return evidence;
  const expression = `${scopeExpression(organizationId)} AND ${anyOf(names)} AND ${anyOf(SEARCH_CUES)}`;
  const results = await searchPassages(db, expression, 400);

  const seen = new Set<string>();
  for (const passage of results) {
    for (const sentence of splitSentences(passage.text)) {
      if (seen.has(sentence) || !isCitable(sentence) || !COMPETITION_CUE.test(sentence) || !mentions(sentence, targetAliases)) continue;
      seen.add(sentence);
      for (const other of others) {
        if (!mentions(sentence, other.aliases)) continue;
        const list = evidence.get(other.key) ?? [];
        list.push({ sentence, source: sourceOf(passage) });
        evidence.set(other.key, list);
      }
    }
  }
  return evidence;
}

/** Ranks candidates: most evidence first, then those also known from the profile or a link. */
export function rankCompetitors(candidates: CompetitorCandidate[]): CompetitorCandidate[] {
  return [...candidates].sort(
    (a, b) => b.evidence.length - a.evidence.length || b.knownFrom.length - a.knownFrom.length || a.key.localeCompare(b.key),
  );
}

const HEAD_TO_HEAD = /\b(alternatives? to|vs\.?|versus|compared (?:with|to)|switch(?:ed|ing)? from|instead of)\b/i;

/** The evidence to show: a head-to-head comparison if there is one, then the most concise. */
export function strongestEvidence(evidence: readonly CompetitorEvidence[]): CompetitorEvidence | undefined {
  const strength = (e: CompetitorEvidence) => (HEAD_TO_HEAD.test(e.sentence) ? 1 : 0);
  return [...evidence].sort((a, b) => strength(b) - strength(a) || a.sentence.length - b.sentence.length)[0];
}
