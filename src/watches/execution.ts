import { getObject } from '../db/objects.ts';
import { readSalesProfile } from '../db/sales-profiles.ts';
import { SalesProfileInput } from '../ground/schemas/profile.ts';
import type { Claim, ExecutionFindings, JsonValue, PropertyChange, WatchableType, WatchTier } from '../ground/schemas/watch.ts';
import { renderBrief } from '../research/brief.ts';
import { topicSpeakers } from '../research/speakers.ts';
import { researchProviders, researchWithFallback } from '../research/providers.ts';
import { storeBrief } from '../research/store-brief.ts';
import { readSiteBeforeResearch } from '../sites/read/start.ts';
import { extractCompanyFacts, FACT_CUES, isNews } from './facts.ts';
import { changesSection, claimsOf, findingsOf, type Baseline, type WebChanges } from './findings.ts';
import { insertChangesStatements } from '../db/watch-changes.ts';
import type { PageBaselineMeta, PageBaselineRow } from '../db/watch-page-baseline.ts';
import { compileIgnore } from '../ground/ignore-patterns.ts';
import { comparePages } from './page-changes/compare.ts';
import { readCompanyWeb } from './page-changes/reading.ts';
import type { Db } from '../ground/db-session.ts';
import type { ObjectDb } from '../db/d1-sessions.ts';

/**
 * The research half of one watch execution, apart from its ledger (the watch object keeps that):
 * research the target through the same engines as the `research` command, render the brief,
 * extract the facts its cited sentences state and diff them with the target's properties, and
 * compare its cited claims with the baseline's (findings.ts; the brief opens with what changed). Nothing
 * is written until `commit`, which stores the brief (linked `about` the target, `cites` its
 * sources) and the changed properties (provenance kind `watch`, id the watch's, url the fact's
 * source) in one D1 batch with the watch's own statements (its charge).
 */

export interface WatchToResearch {
  id: string;
  organizationId: string;
  target: { type: WatchableType; key: string };
  query: string | null;
  tier: WatchTier;
  sourcePolicy: { include: string[]; exclude: string[] };
  /** The path lists of the read of the target's site before the research; absent: every path. */
  includePaths?: string[];
  excludePaths?: string[];
  /** The last succeeded execution's claims, read before this one researches; absent or null: this is the first. */
  baseline?: Baseline | null;
  /** How the company's web was at the last succeeded execution (page-changes/); absent or null: none kept yet. */
  pageBaseline?: { meta: PageBaselineMeta; rows: PageBaselineRow[] } | null;
  /** Where the request that created the watch reached this deployment: its site reads' contact (WatchInit.origin). */
  origin?: string;
  /** The watch's own ignore patterns (valid: checked at creation). */
  ignorePatterns?: string[];
}

export interface PreparedExecution {
  briefKey: string;
  topic: string;
  changes: PropertyChange[];
  /** What changed in the cited claims since the baseline. */
  findings: ExecutionFindings;
  /** This brief's cited claims: the baseline once the execution commits. */
  claims: Claim[];
  /** The read of the target company's site before the research, or null when none ran. */
  siteRead: { runId: string; status: string } | null;
  /** The page baseline the next execution compares with, once this one commits (null: not a company). */
  pageBaseline: { meta: PageBaselineMeta; rows: PageBaselineRow[] } | null;
  /** Writes the brief and the changes, with `also` in the same D1 batch. */
  commit(also: readonly D1PreparedStatement[]): Promise<void>;
}

/** Refused before any research: the execution fails (uncharged) with this message. */
export class TargetMissing extends Error {}

/**
 * `db` is the watch object's D1 session: after the site read (another object, with a session of its
 * own) it catches up at the primary, so the comparison and the research read the pages it stored.
 */
export async function prepareExecution(env: Env, db: ObjectDb, watch: WatchToResearch, briefKey: string, now = new Date()): Promise<PreparedExecution> {
  const org = watch.organizationId;
  const { key } = watch.target;
  const [target, stored] = await Promise.all([getObject(db, org, watch.target.type, key), readSalesProfile(db, org)]);
  if (!target) throw new TargetMissing(`The watched ${watch.target.type} ${key} no longer exists in the organization.`);
  // A company's site is read first (a re-read: conditional requests, what changed re-indexed), so the
  // research sees the site as it is now. A read that cannot start or ends badly leaves what is stored.
  const paths = { includePaths: watch.includePaths ?? [], excludePaths: watch.excludePaths ?? [] };
  const read = watch.target.type === 'company' ? await readSiteBeforeResearch(env, db, org, key, paths, watch.origin) : null;
  if (read) db.catchUp();
  const siteRead = read && { runId: read.runId, status: read.status };
  // What the company changed on its web since the last succeeded execution: from the pages as D1 holds them now.
  const web = watch.target.type === 'company' ? await webChanges(db, watch, briefKey, read?.complete ?? false) : null;
  const name = typeof target.properties.name === 'string' ? target.properties.name : undefined;
  const topic = watch.query ?? name ?? key;
  const profile = stored?.profile ?? SalesProfileInput.parse({});
  const request = { organizationId: org, topic, tier: watch.tier, sourcePolicy: watch.sourcePolicy, userContext: FACT_CUES, profile };
  const result = await researchWithFallback(researchProviders(env, db), request);
  // The watched company is the brief's subject, whether or not the query names it.
  const speakers = await topicSpeakers(db, org, topic, result.sources, { given: [key], ownDomain: profile.domain });
  const createdAt = now.toISOString();
  const baseline = watch.baseline ?? null;
  const claims = claimsOf(result);
  const report = findingsOf(baseline, claims, web);
  const opening = changesSection(baseline, report, claims.length);
  const markdown = renderBrief({ topic, tier: watch.tier, date: createdAt.slice(0, 10), result, profile, sourcePolicy: watch.sourcePolicy, speakers, opening });

  const facts = extractCompanyFacts({ key, name }, result, now);
  const changes: PropertyChange[] = [];
  const properties: Record<string, unknown> = {};
  const sourceUrls: Record<string, string> = {};
  for (const [property, fact] of Object.entries(facts)) {
    if (!fact || !isNews(target.properties[property], fact.value)) continue;
    changes.push({ property, from: (target.properties[property] ?? null) as JsonValue, to: fact.value });
    properties[property] = fact.value;
    sourceUrls[property] = fact.url;
  }

  const about = [key, ...speakers.named.filter((company) => company !== key)];
  const brief = { key: briefKey, topic, tier: watch.tier, markdown, createdAt, result, about };
  return {
    briefKey,
    topic,
    changes,
    findings: report.findings,
    claims,
    siteRead,
    pageBaseline: web?.next ?? null,
    async commit(also) {
      const objects = changes.length ? [{ type: watch.target.type, key, properties, sourceUrls }] : [];
      // The feed lists what the findings list (none on a first execution).
      const feed = insertChangesStatements(
        db,
        org,
        report.findings.changes.map((change, position) => ({
          // Newest first in the feed, and within an execution in the order it lists them: ids sort descending.
          id: `${briefKey}:${String(9_999 - position).padStart(4, '0')}`,
          watchId: watch.id,
          executionId: briefKey,
          company: key,
          kind: change.kind,
          detectedAt: createdAt,
          change: JSON.stringify(change),
        })),
      );
      await storeBrief(db, org, brief, { kind: 'watch', id: watch.id }, { objects, also: [...also, ...feed] });
    },
  };
}

/** The company's web compared with the page baseline, and the baseline that replaces it once committed. */
async function webChanges(db: Db, watch: WatchToResearch, executionId: string, complete: boolean): Promise<WebChanges & { next: NonNullable<PreparedExecution['pageBaseline']> }> {
  const stored = watch.pageBaseline ?? null;
  const readAt = new Date().toISOString();
  const reading = await readCompanyWeb(db, watch.organizationId, watch.target.key, stored?.rows ?? null);
  // Checked when the watch was made; a pattern refused since (a stricter check) masks nothing.
  const ignore = compileIgnore(watch.ignorePatterns ?? []);
  const sequence = (stored?.meta.sequence ?? 0) + 1;
  // A page missing from the last reading is new only if that reading reached every page of the site.
  const options = { ...(ignore.ok ? { ignore: ignore.mask } : {}), query: watch.query, sequence, pagesComplete: stored?.meta.complete ?? false };
  const compared = comparePages(stored?.rows ?? null, reading, options);
  return { changes: compared.changes, counts: compared.counts, next: { meta: { executionId, readAt, sequence, complete }, rows: compared.next } };
}
