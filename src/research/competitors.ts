import { holdsStrength, sentenceAnswerTypes } from './answer-types.ts';
import { searchNewestPassages } from '../db/passages.ts';
import type { ResearchSource } from './provider.ts';
import { hasSearchTerms, MAX_QUERY_TERMS } from './fts-query.ts';
import { anyOf, scopeExpression, searchPassages, sourceOf } from './search.ts';
import { isCitable, splitSentences } from './text.ts';
import type { Db } from '../ground/db-session.ts';

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
  db: Db,
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

/** One table cell: a fragment of a verbatim source sentence, and the source it cites. */
export interface CellQuote {
  /** A substring of `sentence`, verbatim. */
  fragment: string;
  /** True when the fragment is cut from a longer sentence (the table marks it with "…"). */
  cut: boolean;
  sentence: string;
  source: ResearchSource;
}

export interface CompanyCells {
  price?: CellQuote;
  strength?: CellQuote;
  weakness?: CellQuote;
}

/** At most this many passages feed the price, strength and weakness cells of one table. */
export const CELL_PASSAGES = 400;
/** They are the best of at most this many of the newest passages that name a company of the table. */
export const CELL_WINDOW = 2_000;
/** A cell quotes at most this many characters of a sentence. */
export const CELL_CHARS = 160;

/** Words the cells look for, to rank passages (a passage holding more of them is read first). */
const CELL_WORDS = [
  'price', 'pricing', 'plan', 'seat', 'month', 'costs', '$', '€', '£', 'strength', 'better', 'higher', 'easy', 'praised',
  'limitation', 'weakness', 'caution', 'lacks', 'slow', 'expensive', 'drawback', 'complain',
];
const NOT_A_PRICE = /\b(?:salar\w*|earnings|funding|raise[sd]?|raising|series [a-h]|revenue|valuation|compensation|quota|equity|employees)\b/i;
const PRICE_CONTEXT = /\b(?:pric\w*|plans?|seats?|per (?:user|seat|month|year|editor|license)|subscriptions?|licen[cs]\w*|costs?|billed|billing|tiers?|editions?|contracts?)\b/i;
const CLAUSE_BREAK = /,\s+|;\s+|\s+(?=(?:and|but|while|whereas|although)\s)/g;

/**
 * The clauses of a sentence, each a verbatim substring of it, without a leading conjunction ("and",
 * "but", ...); a piece of fewer than four words stays with the clause before it.
 */
function clauses(sentence: string): string[] {
  const spans: [number, number][] = [];
  let start = 0;
  for (const match of sentence.matchAll(CLAUSE_BREAK)) {
    const end = match.index;
    if (spans.length && sentence.slice(start, end).split(/\s+/).length < 4) spans[spans.length - 1]![1] = end;
    else spans.push([start, end]);
    start = match.index + match[0].length;
  }
  if (spans.length && sentence.slice(start).split(/\s+/).length < 4) spans[spans.length - 1]![1] = sentence.length;
  else spans.push([start, sentence.length]);
  return spans
    .map(([from, to]) => sentence.slice(from, to).replace(/^(?:and|but|while|whereas|although|or)\s+/i, ''))
    .filter((clause) => clause.split(/\s+/).length >= 4);
}

type CellKind = keyof CompanyCells;

function cueOf(kind: CellKind, text: string): boolean {
  if (kind === 'price') return sentenceAnswerTypes(text, ['money']).length > 0 && PRICE_CONTEXT.test(text) && !NOT_A_PRICE.test(text);
  const strength = holdsStrength(text);
  const weakness = sentenceAnswerTypes(text, ['weakness']).length > 0;
  return kind === 'strength' ? strength && !weakness : weakness && !strength;
}

/** A fragment of at most CELL_CHARS characters of `clause` (whole words, around its start). */
function shorten(clause: string): { fragment: string; cut: boolean } {
  if (clause.length <= CELL_CHARS) return { fragment: clause, cut: false };
  const cut = clause.slice(0, CELL_CHARS);
  return { fragment: cut.slice(0, cut.lastIndexOf(' ')).trimEnd(), cut: true };
}

/**
 * The price, strength and weakness cells of every company of a competitors table, from one bounded
 * search: of the newest CELL_WINDOW passages that name any of `companies`, the CELL_PASSAGES
 * holding the most cell words. A cell is the clause of a verbatim sentence whose first named known
 * company (among `known`) is the company and that holds the cue: a price (money with a pricing word,
 * not a salary or funding round), a strength, or a weakness (answer-types.ts). Preferred: a price with
 * a figure, then third parties' pages over the companies' own, then the newest source, then the
 * shortest clause.
 */
export async function findCompanyCells(
  db: Db,
  organizationId: string,
  companies: readonly KnownCompany[],
  known: readonly KnownCompany[],
): Promise<Map<string, CompanyCells>> {
  const cells = new Map<string, CompanyCells>();
  const names = [...new Set(companies.flatMap((c) => aliasesOf(c).filter((alias) => !alias.includes('.'))))];
  if (!hasSearchTerms(names)) return cells;
  // One statement: names in groups of at most MAX_QUERY_TERMS, so every company of the table is searched.
  const groups: string[] = [];
  for (let i = 0; i < names.length; i += MAX_QUERY_TERMS) groups.push(anyOf(names.slice(i, i + MAX_QUERY_TERMS)));
  const { passages } = await searchNewestPassages(db, `${scopeExpression(organizationId)} AND (${groups.join(' OR ')})`, CELL_WORDS, CELL_WINDOW, CELL_PASSAGES);

  const wanted = new Set(companies.map((c) => c.key));
  const mentions = mentionFinder([...companies, ...known.filter((k) => !wanted.has(k.key))]);
  const owners = [...companies, ...known];
  type Option = CellQuote & { figure: boolean; own: boolean; date: string };
  const options = new Map<string, Option[]>();
  const seen = new Set<string>();
  for (const passage of passages) {
    const source = sourceOf(passage);
    const owner = owners.find((c) => passage.domain === c.key || passage.domain.endsWith(`.${c.key}`))?.key;
    for (const sentence of splitSentences(passage.text)) {
      if (!isCitable(sentence) || seen.has(`${passage.sourceKey}\u001f${sentence}`)) continue;
      seen.add(`${passage.sourceKey}\u001f${sentence}`);
      for (const clause of clauses(sentence)) {
        const first = mentions(clause)[0];
        if (!first || !wanted.has(first.key)) continue;
        for (const kind of ['price', 'strength', 'weakness'] as const) {
          if (!cueOf(kind, clause)) continue;
          const key = `${first.key}\u001f${kind}`;
          const list = options.get(key) ?? [];
          list.push({ ...shorten(clause), sentence, source, figure: /\d/.test(clause), own: owner === first.key, date: source.publishedAt ?? '' });
          options.set(key, list);
        }
      }
    }
  }
  for (const [key, list] of options) {
    const [company, kind] = key.split('\u001f') as [string, CellKind];
    list.sort(
      (a, b) =>
        (kind === 'price' ? Number(b.figure) - Number(a.figure) : 0) ||
        Number(a.own) - Number(b.own) ||
        b.date.localeCompare(a.date) ||
        a.fragment.length - b.fragment.length ||
        a.fragment.localeCompare(b.fragment),
    );
    const { fragment, cut, sentence, source } = list[0]!;
    cells.set(company, { ...cells.get(company), [kind]: { fragment, cut, sentence, source } });
  }
  return cells;
}
