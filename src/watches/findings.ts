import { MAX_CLAIM_CHARS, MAX_CLAIMS_PER_EXECUTION, MAX_FINDINGS_LISTED, type Claim, type ExecutionFindings } from '../ground/schemas/watch.ts';
import { escapeInline, escapeUrl } from '../research/markdown-escape.ts';
import type { ResearchResult } from '../research/provider.ts';

/**
 * What a watch execution says changed: the cited claims of its brief (each sentence the brief
 * quotes, with each source it quotes it from) compared with those of the previous succeeded
 * execution's brief (its baseline). Pure: the watch object keeps the baseline (baseline-store.ts).
 *
 * Two claims are the same when their texts are equal once Unicode-normalized (NFKC), spacing
 * collapsed and case folded, and their URLs are equal (source URLs are already normalized keys).
 * Bounds: at most MAX_CLAIMS_PER_EXECUTION claims per execution (the brief's first ones), each cut
 * to MAX_CLAIM_CHARS; URLs longer than MAX_CLAIM_URL_CHARS (no source key is) are left out; at most
 * MAX_FINDINGS_LISTED claims listed as added and as removed.
 */

/** The longest source URL a claim keeps (as a source key's limit). */
export const MAX_CLAIM_URL_CHARS = 2_048;

/** The claims the next execution compares with: the last succeeded execution's. */
export interface Baseline {
  executionId: string;
  /** When that execution finished (ISO). */
  finishedAt: string;
  claims: Claim[];
}

/** `text` cut to MAX_CLAIM_CHARS characters (code points), ending with "…" when cut. */
function bounded(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_CLAIM_CHARS ? text : `${chars.slice(0, MAX_CLAIM_CHARS - 1).join('')}…`;
}

/** What two claims are compared by. */
export function claimKey(claim: Claim): string {
  const text = claim.text.normalize('NFKC').replace(/\s+/gu, ' ').trim().toLowerCase();
  return `${text}\u0000${claim.url}`;
}

/**
 * The cited claims of a research result, in the brief's order: each finding's sentence with the
 * source it was chosen from, then the other sources that state it word for word; no two alike.
 */
export function claimsOf(result: ResearchResult): Claim[] {
  const claims: Claim[] = [];
  const seen = new Set<string>();
  for (const finding of result.findings) {
    const text = bounded(finding.sentence.replace(/\s+/gu, ' ').trim());
    if (!text) continue;
    for (const index of [finding.source, ...(finding.also ?? [])]) {
      const url = result.sources[index]?.url;
      if (!url || url.length > MAX_CLAIM_URL_CHARS) continue;
      const claim = { text, url };
      const key = claimKey(claim);
      if (seen.has(key)) continue;
      seen.add(key);
      claims.push(claim);
      if (claims.length >= MAX_CLAIMS_PER_EXECUTION) return claims;
    }
  }
  return claims;
}

/** The claims of `current` not in `previous` (added, in current's order) and those of `previous` not in `current` (removed, in its order). */
export function compareClaims(previous: readonly Claim[], current: readonly Claim[]): { added: Claim[]; removed: Claim[] } {
  const before = new Set(previous.map(claimKey));
  const now = new Set(current.map(claimKey));
  return { added: current.filter((c) => !before.has(claimKey(c))), removed: previous.filter((c) => !now.has(claimKey(c))) };
}

/** What an execution with these claims reports, against `baseline` (null: the watch's first execution). */
export function findingsOf(baseline: Baseline | null, claims: readonly Claim[]): { findings: ExecutionFindings; added: number; removed: number } {
  if (!baseline) return { findings: { since: null, added: [], removed: [] }, added: 0, removed: 0 };
  const { added, removed } = compareClaims(baseline.claims, claims);
  return {
    findings: { since: baseline.executionId, added: added.slice(0, MAX_FINDINGS_LISTED), removed: removed.slice(0, MAX_FINDINGS_LISTED) },
    added: added.length,
    removed: removed.length,
  };
}

/** Whether the findings report a change (a claim added or removed). */
export function hasChanges(findings: ExecutionFindings | null | undefined): boolean {
  return !!findings && (findings.added.length > 0 || findings.removed.length > 0);
}

/** An ISO time as the brief shows it: `2026-11-26 09:30 UTC`. */
export function briefTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function claimLine(claim: Claim): string {
  return `- "${escapeInline(claim.text)}" (${escapeUrl(claim.url)})`;
}

/**
 * The section a watch's brief opens with (after its title and meta line): "What changed since
 * <time>" listing the claims added and removed with their source URLs, "No change since <time>",
 * or "First reading" for the watch's first execution. Quotes and URLs are escaped.
 */
export function changesSection(
  baseline: Baseline | null,
  report: { findings: ExecutionFindings; added: number; removed: number },
  claims: number,
): string[] {
  if (!baseline) {
    return ['## First reading', '', `This is the watch's first brief (${plural(claims, 'cited claim')}): the next one opens with what changed since this one.`];
  }
  const since = briefTime(baseline.finishedAt);
  if (report.added === 0 && report.removed === 0) {
    return [`## No change since ${since}`, '', `This brief cites the same ${plural(claims, 'claim')} as the one of execution ${baseline.executionId}.`];
  }
  const lines = [
    `## What changed since ${since}`,
    '',
    `Compared with the brief of execution ${baseline.executionId}: ${plural(report.added, 'cited claim')} added, ${report.removed} removed.`,
  ];
  const list = (heading: string, shown: Claim[], total: number) => {
    if (total === 0) return;
    lines.push('', `### ${heading}`, '', ...shown.map(claimLine));
    if (total > shown.length) lines.push(`- and ${total - shown.length} more (the first ${shown.length} are listed)`);
  };
  list('Added', report.findings.added, report.added);
  list('Removed', report.findings.removed, report.removed);
  return lines;
}
