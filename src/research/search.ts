import { passageBlock } from '../db/passage-blocks.ts';
import { countPassageMatches, searchTopicPassages, type FoundPassage, type RankedPassage } from '../db/passages.ts';
import { MAX_POLICY_DOMAINS } from '../ground/schemas/common.ts';
import { columnMatch, columnPhrase, MAX_QUERY_TERMS, searchTerms, termText } from './fts-query.ts';
import type { ResearchSource } from './provider.ts';
import { FACTS_VERSION } from './sentence-facts.ts';
import type { Db } from '../ground/db-session.ts';

export { searchPassages, type FoundPassage } from '../db/passages.ts';

/** Include and exclude lists of source domains. */
export interface DomainPolicy {
  include: readonly string[];
  exclude: readonly string[];
}

const NO_POLICY: DomainPolicy = { include: [], exclude: [] };

/**
 * The FTS5 text that applies a source policy to a search, ANDed after its other terms (FTS5's NOT
 * binds tighter than AND, so `terms AND included NOT excluded`); empty without a policy. An include
 * list with no usable domain matches nothing.
 */
export function policyFilter(policy: DomainPolicy = NO_POLICY): string {
  let filter = '';
  if (policy.include.length) filter += ` AND ${columnMatch('domain', policy.include, 'OR', MAX_POLICY_DOMAINS)}`;
  if (policy.exclude.length) filter += ` NOT ${columnMatch('domain', policy.exclude, 'OR', MAX_POLICY_DOMAINS)}`;
  return filter;
}

/**
 * The part of an FTS5 query that says whose passages and which domains: the organization's token
 * (its id without `_`, as the insert trigger stores it) and the source policy, all matched by the
 * index itself. A ranked search (BM25) pays for the token with a read of the organization's every
 * passage: `findTopicPassages` scopes by the organization's block of passage ids instead.
 */
export function scopeExpression(organizationId: string, policy: DomainPolicy = NO_POLICY): string {
  return columnPhrase('organization_id', organizationId.replace(/_/g, '')) + policyFilter(policy);
}

/** Whose passages a search reads, and which of their sources' domains. */
export interface PassageScope {
  organizationId: string;
  policy?: DomainPolicy;
}

/**
 * Passages with any of `words` in their title or text: at most MAX_QUERY_TERMS of them, the most
 * informative kept (fts-query.ts). Words with no searchable term are dropped; none left matches nothing.
 */
export function anyOf(words: readonly string[]): string {
  return columnMatch('{title text}', words, 'OR');
}

/** The source a passage belongs to, from the columns stored with it. */
export function sourceOf(passage: RankedPassage): ResearchSource {
  return {
    url: passage.sourceKey,
    title: passage.title,
    domain: passage.domain,
    ...(passage.publishedAt ? { publishedAt: passage.publishedAt } : {}),
  };
}

/**
 * A term that matches this many of an organization's passages or more says little about a topic
 * (its IDF is low) and costs the most to rank: FTS5 scores every row a query matches.
 */
export const COMMON_TERM_MATCHES = 2_000;

/**
 * How many passages each word matches within `scope`, counted only up to `cap` (cheap: rowid order,
 * no ranking), in the order of `words`. A word with no searchable term matches nothing and is not
 * queried; the others are counted MAX_QUERY_TERMS to a statement, so no statement passes D1's 100
 * bound parameters however many words come in.
 */
export async function capTermCounts(db: Db, scope: string, words: readonly string[], cap = COMMON_TERM_MATCHES): Promise<number[]> {
  const terms = [...new Set(words.map(termText).filter((term) => term.length > 0))];
  const counts = new Map<string, number>();
  for (let start = 0; start < terms.length; start += MAX_QUERY_TERMS) {
    const chunk = terms.slice(start, start + MAX_QUERY_TERMS);
    const found = await countPassageMatches(db, chunk.map((term) => `${scope} AND ${anyOf([term])}`), cap);
    chunk.forEach((term, i) => counts.set(term, found[i] ?? 0));
  }
  return words.map((word) => counts.get(termText(word)) ?? 0);
}

/**
 * Passages about a topic, searched by at most MAX_QUERY_TERMS of its words (`searchTerms`: the
 * searchable ones, the most informative kept), in one statement (one D1 round trip). Each word's
 * passages are counted up to COMMON_TERM_MATCHES (cheap: rowid order, no ranking); the passages
 * holding the words that match fewer (the informative ones) are ranked with BM25. If those are too
 * few, the list is filled with the newest passages that contain every word, then any word, taken
 * in index order without ranking. So a query never ranks more rows than its informative words
 * match, which bounds its cost however large the knowledge base grows; the sentences are ranked
 * again afterwards against every word of the topic. Best first, each passage with its text and its
 * stored sentence facts when those are current. The text comes with the facts, not in a second
 * read of the chosen passages only: a D1 round trip costs more than the text of `limit` passages.
 */
export async function findTopicPassages(db: Db, scope: PassageScope, topicWords: readonly string[], limit: number): Promise<FoundPassage[]> {
  const words = searchTerms(topicWords);
  if (words.length === 0) return [];
  const block = await passageBlock(db, scope.organizationId);
  if (block === null) return [];
  return searchTopicPassages(db, {
    policyFilter: policyFilter(scope.policy),
    terms: words,
    commonTermMatches: COMMON_TERM_MATCHES,
    limit,
    factsVersion: FACTS_VERSION,
    block,
  });
}
