import { CHANGE_KINDS, KIND_HEADINGS, type Change } from '../ground/schemas/changes.ts';
import { MAX_CLAIM_CHARS, MAX_CLAIMS_PER_EXECUTION, MAX_FINDINGS_LISTED, noChangeCounts, type ChangeCounts, type Claim, type ExecutionFindings } from '../ground/schemas/watch.ts';
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

/** The company's web changes an execution found (page-changes/compare.ts); none for a target with no site. */
export interface WebChanges {
  changes: Change[];
  counts: ChangeCounts;
}

/** What an execution with these claims and web changes reports, against `baseline` (null: the watch's first execution). */
export function findingsOf(baseline: Baseline | null, claims: readonly Claim[], web: WebChanges | null = null): { findings: ExecutionFindings; added: number; removed: number } {
  if (!baseline) return { findings: { since: null, changes: [], changeCounts: noChangeCounts(), added: [], removed: [] }, added: 0, removed: 0 };
  const { added, removed } = compareClaims(baseline.claims, claims);
  return {
    findings: {
      since: baseline.executionId,
      changes: web?.changes ?? [],
      changeCounts: web?.counts ?? noChangeCounts(),
      added: added.slice(0, MAX_FINDINGS_LISTED),
      removed: removed.slice(0, MAX_FINDINGS_LISTED),
    },
    added: added.length,
    removed: removed.length,
  };
}

/** Whether the findings report a change (on the company's web, or a claim added or removed). */
export function hasChanges(findings: ExecutionFindings | null | undefined): boolean {
  return !!findings && ((findings.changes?.length ?? 0) > 0 || findings.added.length > 0 || findings.removed.length > 0);
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
  const web = report.findings.changeCounts;
  const flips = web.flips ? ` ${plural(web.flips, 'sentence')} of the company's pages flipped back to how it was shortly before (not listed).` : '';
  if (report.added === 0 && report.removed === 0 && web.total === 0) {
    return [`## No change since ${since}`, '', `This brief cites the same ${plural(claims, 'claim')} as the one of execution ${baseline.executionId}.${flips}`];
  }
  const lines = [`## What changed since ${since}`];
  // The company's web first, grouped by kind; then what the brief cites.
  if (web.total > 0) lines.push('', ...webChangeLines(report.findings.changes, web));
  else if (flips) lines.push('', flips.trim());
  if (report.added > 0 || report.removed > 0 || web.total === 0) {
    lines.push('', `Compared with the brief of execution ${baseline.executionId}: ${plural(report.added, 'cited claim')} added, ${report.removed} removed.`);
    const list = (heading: string, shown: Claim[], total: number) => {
      if (total === 0) return;
      lines.push('', `### ${heading}`, '', ...shown.map(claimLine));
      if (total > shown.length) lines.push(`- and ${total - shown.length} more (the first ${shown.length} are listed)`);
    };
    list(web.total > 0 ? 'Cited claims added' : 'Added', report.findings.added, report.added);
    list(web.total > 0 ? 'Cited claims removed' : 'Removed', report.findings.removed, report.removed);
  }
  return lines;
}

/** The web's changes grouped by kind, each cited (its URL; a removal also when it was last seen). */
function webChangeLines(changes: readonly Change[], counts: ChangeCounts): string[] {
  const lines = [
    `On the company's web: ${plural(counts.total, 'change')}${counts.total > changes.length ? ` (the first ${changes.length} listed)` : ''}${counts.flips ? `; ${plural(counts.flips, 'sentence')} flipped back to how it was shortly before, not listed` : ''}.`,
  ];
  for (const kind of CHANGE_KINDS) {
    const ofKind = changes.filter((change) => change.kind === kind);
    if (ofKind.length === 0) continue;
    lines.push('', `### ${KIND_HEADINGS[kind]}`, '', ...ofKind.map(changeLine));
    const more = (counts.byKind[kind] ?? 0) - ofKind.length;
    if (more > 0) lines.push(`- and ${more} more`);
  }
  return lines;
}

/** One change as a brief lists it: what, then where (and when last seen, for a removal). */
export function changeLine(change: Change): string {
  const where = escapeUrl(change.url);
  const seen = change.lastSeenAt ? `, last seen ${change.lastSeenAt.slice(0, 10)}` : '';
  const title = change.title ? ` (${escapeInline(change.title)})` : '';
  switch (change.action) {
    case 'changed':
      return `- ${change.plan ? `${escapeInline(change.plan)}: ` : ''}${escapeInline(change.before ?? '')} → ${escapeInline(change.after ?? '')}: "${escapeInline(change.text)}" (${where})`;
    case 'added':
      return `- Added: "${escapeInline(change.text)}" (${where})`;
    case 'removed':
      return `- Removed: "${escapeInline(change.text)}" (${where}${seen})`;
    case 'new':
      return `- New page${title}: ${where}`;
    case 'gone':
      return `- Page gone${title}: ${where}${seen}`;
    case 'opened':
      return `- Role opened: ${escapeInline(change.text)}${change.location ? `, ${escapeInline(change.location)}` : ''} (${where})`;
    case 'closed':
      return `- Role closed: ${escapeInline(change.text)}${change.location ? `, ${escapeInline(change.location)}` : ''} (${where}${seen})`;
    case 'new-entry':
      return `- New entry: ${escapeInline(change.text)} (${where})`;
  }
}
