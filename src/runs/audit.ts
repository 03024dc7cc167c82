import { formatMicros } from '../ground/money.ts';
import { missingProfileFields } from '../ground/schemas/profile.ts';
import type { SalesProfile } from '../ground/schemas/profile.ts';
import { readSalesProfile } from '../db/sales-profiles.ts';
import { waitingApprovalRequests } from '../db/approval-requests.ts';
import { listActiveKeys } from '../db/api-keys.ts';
import { countDataProblems, DATA_TYPES } from '../db/data-audit.ts';
import { countPassagesAndSources } from '../db/passages.ts';
import { auditWatches, type AuditedWatch } from '../db/watches.ts';
import { TIER_PRICE_MICROS, type WatchTier } from '../ground/schemas/watch.ts';
import type { ResearchSource } from '../research/provider.ts';
import { columnPhrase } from '../research/fts-query.ts';
import { capTermCounts, scopeExpression } from '../research/search.ts';
import { OWN_BRIEF_TITLE } from './evidence.ts';
import { AREAS, assessAreas, GTM_AUDIT_AREAS } from './gtm-audit.ts';
import { escapeInline } from '../research/markdown-escape.ts';
import { renderReport } from './report.ts';
import type { Fix, RunPlan, StepOutput } from './types.ts';
import type { Db } from '../ground/db-session.ts';

export const AUDIT_STEPS = ['profile', 'go-to-market', 'data', 'keys', 'approvals', 'watches'] as const;
type AuditStep = (typeof AUDIT_STEPS)[number];

/** What each step of the audit covers; also how the catalog describes the audit. */
export const STEP_TITLES: Record<AuditStep, string> = {
  profile: 'Sales profile',
  'go-to-market': 'Go-to-market',
  data: 'Data in the OMS',
  keys: 'API keys',
  approvals: 'Approval requests',
  watches: 'Research watches',
};

const DAY = 86_400_000;
const clamp = (n: number) => Math.max(0, Math.min(100, Math.round(n)));

function output(score: number | null, summary: string, details: string[], fixes: Fix[], extra: Partial<StepOutput> = {}): StepOutput {
  return { score, summary, details, fixes, findings: [], sources: [], ...extra };
}

async function profileOf(db: Db, organizationId: string): Promise<SalesProfile> {
  const stored = await readSalesProfile(db, organizationId);
  if (!stored) throw new Error('the organization has no sales profile');
  return stored.profile;
}

/** The profile step counts your own sources among at most this many of your own passages. */
export const OWN_PASSAGES_READ = 10_000;
/** At most this many ICP entries are checked in one statement (D1 binds at most 100 values). */
const ENTRIES_PER_STATEMENT = 90;

/** Distinct sources among the first OWN_PASSAGES_READ passages of the organization's own domain. */
async function ownSourceCount(db: Db, ownPages: string): Promise<{ count: number; capped: boolean }> {
  const found = await countPassagesAndSources(db, ownPages, OWN_PASSAGES_READ);
  return { count: found.sources, capped: found.passages >= OWN_PASSAGES_READ };
}

/**
 * Profile: completeness (15 points off per missing required field, 5 per empty optional list) and
 * consistency with the organization's own sources (10 off when none is on its domain, 5 off per ICP
 * industry or persona that none of them mentions, at most 30). Each ICP entry is only looked up
 * (does any own passage hold it?), never ranked.
 */
async function auditProfile(db: Db, organizationId: string): Promise<StepOutput> {
  const profile = await profileOf(db, organizationId);
  const missing = missingProfileFields(profile);
  const emptyOptional = (['competitors', 'valueProps'] as const).filter((f) => profile[f].length === 0);
  // Your own pages, but not Recon's own briefs stored as sources: they restate sources, not what you publish.
  const ownPages = `(${scopeExpression(organizationId, { include: [profile.domain ?? ''], exclude: [] })} NOT ${columnPhrase('title', OWN_BRIEF_TITLE)})`;
  const own = await ownSourceCount(db, ownPages);
  const ownSources = own.count;
  const ownLabel = own.capped ? `${ownSources}+` : String(ownSources);
  const entries = [...new Set([...profile.icp.industries, ...profile.icp.personas])];
  const unmentioned: string[] = [];
  for (let i = 0; i < entries.length; i += ENTRIES_PER_STATEMENT) {
    const chunk = entries.slice(i, i + ENTRIES_PER_STATEMENT);
    const found = await capTermCounts(db, ownPages, chunk, 1);
    unmentioned.push(...chunk.filter((_, j) => found[j] === 0));
  }
  const score = clamp(100 - 15 * missing.length - 5 * emptyOptional.length - (ownSources === 0 ? 10 : 0) - Math.min(5 * unmentioned.length, 30));
  const fixes: Fix[] = [];
  if (missing.length) {
    fixes.push({ priority: 'high', impact: missing.length, action: `Fill in the missing profile fields: ${missing.join(', ')}.`, where: `PUT /api/v1/profile (fields ${missing.join(', ')}), or the dashboard page /dashboard/onboarding` });
  }
  if (emptyOptional.length) {
    fixes.push({ priority: 'low', impact: emptyOptional.length, action: `Add ${emptyOptional.join(' and ')} to the profile, so research can relate findings to them.`, where: `PUT /api/v1/profile (fields ${emptyOptional.join(', ')}), or /dashboard/onboarding` });
  }
  if (ownSources === 0) {
    fixes.push({
      priority: 'medium',
      action: `Add your own pages (${profile.domain ?? 'your domain'}: home, pricing, customers) so research knows what you say about yourself; Recon's own briefs do not count.`,
      where: 'POST /api/v1/oms/sources with the pages\' URLs, or POST /api/v1/oms/objects/import',
    });
  }
  if (unmentioned.length) {
    fixes.push({
      priority: 'medium',
      impact: unmentioned.length,
      action: `Your own pages never mention ${unmentioned.join(', ')}; either say so on your site or correct the ICP.`,
      where: `your website, then POST /api/v1/oms/sources with the page's URL; or PUT /api/v1/profile (fields icp.industries, icp.personas)`,
    });
  }
  return output(score, `${missing.length} required field(s) missing; ${ownLabel} own source(s); ${unmentioned.length} ICP entr${unmentioned.length === 1 ? 'y' : 'ies'} your pages never mention.`, [
    `- Required fields missing: ${missing.length ? missing.join(', ') : 'none'}`,
    `- Optional lists empty: ${emptyOptional.length ? emptyOptional.join(', ') : 'none'}`,
    `- Sources on ${profile.domain ?? 'your domain'}: ${ownLabel}${own.capped ? ` (counted among the first ${OWN_PASSAGES_READ.toLocaleString('en-US')} passages of your pages)` : ''}`,
    `- ICP industries and personas none of your pages mention: ${unmentioned.length ? unmentioned.join(', ') : 'none'}`,
  ], fixes);
}

/**
 * Go-to-market: the six gtm-audit areas for the organization's own company; the score is the mean
 * of the areas with evidence (none: unscored). Each area's best cited point is quoted.
 */
async function auditGoToMarket(db: Db, organizationId: string): Promise<StepOutput> {
  const profile = await profileOf(db, organizationId);
  const company = { key: profile.domain!, name: profile.companyName };
  const sources: ResearchSource[] = [];
  const findings: StepOutput['findings'] = [];
  const details: string[] = [];
  const fixes: Fix[] = [];
  const scores: number[] = [];
  const areas = await assessAreas(db, organizationId, company);
  for (const area of GTM_AUDIT_AREAS) {
    const result = areas[area];
    if (result.score !== null) scores.push(result.score);
    details.push(`- ${AREAS[area].title}: ${result.score === null ? 'no evidence found' : `${result.score}/100`} (${result.summary})`, ...result.details.map((line) => `  ${line}`));
    const best = result.findings[0];
    if (best) {
      const source = result.sources[best.source]!;
      let index = sources.findIndex((s) => s.url === source.url);
      if (index === -1) index = sources.push(source) - 1;
      findings.push({ sentence: best.sentence, source: index });
    }
    fixes.push(...result.fixes.filter((f) => f.priority === 'high').map((f) => ({ ...f, action: `${AREAS[area].title}: ${f.action}` })));
  }
  const label = escapeInline(company.name ?? company.key);
  if (scores.length === 0) {
    return output(null, `No evidence found about ${label} in any gtm-audit area.`, details, [
      {
        priority: 'high',
        action: `Add your own pages (${escapeInline(company.key)}: home, pricing, customers, comparisons) so research and audits know what you say about yourself.`,
        where: 'POST /api/v1/oms/sources (by URL) or POST /api/v1/oms/objects/import',
      },
    ]);
  }
  const score = Math.round(scores.reduce((a, b) => a + b, 0) / scores.length);
  return output(score, `Mean of the ${scores.length} gtm-audit area(s) with evidence for ${label}.`, details, fixes, { findings, sources });
}

/** The data step checks at most this many objects of each type (company, person, source), and this many links. */
export const DATA_SAMPLE = 10_000;

/** Each data problem names at most this many objects (or links, or domains) to fix. */
export const DATA_EXAMPLES = 5;

/**
 * Data: objects missing key properties (company name, source date, person name), sources published
 * over two years ago, companies that share a normalized domain, and links to objects that do not
 * exist, each checked over at most DATA_SAMPLE objects of a type (the first by key) and DATA_SAMPLE
 * links, and said so when more exist. The score loses the share of checked objects with a problem,
 * and 5 points per dangling link (at most 30).
 */
async function auditData(db: Db, organizationId: string): Promise<StepOutput> {
  const counts = await countDataProblems(db, organizationId, {
    sample: DATA_SAMPLE,
    staleBefore: new Date(Date.now() - 730 * DAY).toISOString().slice(0, 10),
    examples: DATA_EXAMPLES,
  });
  const { missing, stale, duplicates, dangling } = counts;
  if (counts.total === 0) {
    return output(null, 'No objects yet.', ['- The OMS holds no companies, people or sources (briefs Recon wrote are not counted).'], [
      { priority: 'high', action: 'Load your companies and sources so research has something to work from (your own briefs do not count).', where: 'POST /api/v1/oms/sources (by URL) or POST /api/v1/oms/objects/import' },
    ]);
  }
  const cap = DATA_SAMPLE.toLocaleString('en-US');
  const total = counts.total > DATA_SAMPLE ? `${cap}+` : String(counts.total);
  const examined = counts.examined.company + counts.examined.person + counts.examined.source;
  const sampledTypes = DATA_TYPES.filter((type) => counts.examined[type] >= DATA_SAMPLE);
  const problemShare = examined ? (missing + stale + duplicates) / examined : 0;
  const score = clamp(100 * (1 - problemShare) - Math.min(5 * dangling, 30));
  const { examples } = counts;
  const named = (list: string[], count: number) => `${list.map((key) => `\`${key}\``).join(', ')}${count > list.length ? ` and ${count - list.length} more` : ''}`;
  const fixes: Fix[] = [];
  if (missing) {
    fixes.push({
      priority: 'medium',
      impact: missing,
      action: `Add the missing key properties (company and person names, source dates) of ${missing} object(s): ${named(examples.missing, missing)}.`,
      where: 'POST /api/v1/oms/objects/import (re-import those lines with `name` or `publishedAt`), or POST /api/v1/oms/actions `update_properties` on each object',
    });
  }
  if (duplicates) {
    fixes.push({
      priority: 'high',
      impact: duplicates,
      action: `Merge ${duplicates} set(s) of companies that share a domain: ${named(examples.duplicates, duplicates)}.`,
      where: 'POST /api/v1/oms/actions `delete_object` on the extra company of each domain, keeping the one keyed by the bare domain',
    });
  }
  if (dangling) {
    fixes.push({
      priority: 'medium',
      impact: dangling,
      action: `Import the objects that ${dangling} link(s) point to, or drop those links: ${named(examples.dangling, dangling)}.`,
      where: 'POST /api/v1/oms/objects/import (the missing objects), or POST /api/v1/oms/actions `unlink`',
    });
  }
  if (stale) {
    fixes.push({
      priority: 'low',
      impact: stale,
      action: `Refresh ${stale} source(s) published over two years ago, oldest first: ${named(examples.stale, stale)}.`,
      where: 'POST /api/v1/oms/sources with each URL (fetches the page again), or POST /api/v1/oms/objects/import',
    });
  }
  const bounds: string[] = [];
  if (sampledTypes.length) bounds.push(`- Checked the first ${cap} ${sampledTypes.map((t) => (t === 'company' ? 'companies' : t === 'person' ? 'people' : 'sources')).join(', ')} by key, not all: the counts below are for those.`);
  if (counts.links >= DATA_SAMPLE) bounds.push(`- Checked ${cap} links, not all: the dangling count is for those.`);
  return output(score, `${total} objects; ${missing} missing key properties, ${stale} stale, ${duplicates} duplicate domain(s), ${dangling} dangling link(s).`, [
    `- Objects: ${total}`,
    ...bounds,
    `- Missing key properties: ${missing}`,
    `- Sources published over two years ago: ${stale}`,
    `- Companies sharing a normalized domain: ${duplicates}`,
    `- Links to objects that do not exist: ${dangling}`,
  ], fixes);
}

/** The keys step reads at most this many active keys (the oldest first). */
export const KEYS_READ = 500;

/** Keys: active keys never used, unused for 90 days, or older than 90 days; 10 points off each. */
async function auditKeys(db: Db, organizationId: string): Promise<StepOutput> {
  const results = await listActiveKeys(db, organizationId, KEYS_READ);
  const cutoff = new Date(Date.now() - 90 * DAY).toISOString();
  const neverUsed = results.filter((k) => !k.lastUsedAt);
  const idle = results.filter((k) => k.lastUsedAt && k.lastUsedAt < cutoff);
  const old = results.filter((k) => k.createdAt < cutoff);
  const fixes: Fix[] = [];
  for (const key of [...neverUsed, ...idle]) {
    fixes.push({
      priority: 'medium',
      action: `Revoke key ${key.id} ("${key.name}"): ${key.lastUsedAt ? 'unused for 90 days' : 'never used'}.`,
      where: `the dashboard page /dashboard/settings/keys (key ${key.id}), or npm run keys -- revoke ${key.id}`,
    });
  }
  for (const key of old) {
    fixes.push({ priority: 'low', action: `Rotate key ${key.id} ("${key.name}"), created ${key.createdAt.slice(0, 10)}: create a replacement, switch to it, revoke the old one.`, where: `the dashboard page /dashboard/settings/keys (create, then revoke ${key.id}), or npm run keys -- create --org <slug> --name "${key.name}", then npm run keys -- revoke ${key.id}` });
  }
  const score = clamp(100 - 10 * (neverUsed.length + idle.length + old.length));
  const shown = results.length >= KEYS_READ ? `${KEYS_READ}+` : String(results.length);
  return output(score, `${shown} active key(s): ${neverUsed.length} never used, ${idle.length} idle 90+ days, ${old.length} older than 90 days.`, [
    `- Active keys: ${shown}${results.length >= KEYS_READ ? ` (the oldest ${KEYS_READ} were checked)` : ''}`,
    `- Never used: ${neverUsed.map((k) => k.id).join(', ') || 'none'}`,
    `- Unused for 90 days: ${idle.map((k) => k.id).join(', ') || 'none'}`,
    `- Older than 90 days: ${old.map((k) => k.id).join(', ') || 'none'}`,
  ], fixes);
}

/** A pending approval request is flagged once it has waited this long (it expires at 7 days). */
export const APPROVAL_WAIT_DAYS = 3;
/** The approvals step names at most this many requests (the oldest first); the count covers all. */
export const APPROVALS_SHOWN = 10;

/**
 * Approval requests: pending requests that have waited longer than APPROVAL_WAIT_DAYS, the oldest
 * first, each with the fix (decide it before it expires). A worklist, not a quality measure: unscored.
 */
async function auditApprovals(db: Db, organizationId: string): Promise<StepOutput> {
  const now = Date.now();
  const { count, oldest } = await waitingApprovalRequests(
    db,
    organizationId,
    new Date(now - APPROVAL_WAIT_DAYS * DAY).toISOString(),
    new Date(now).toISOString(),
    APPROVALS_SHOWN,
  );
  const fixes: Fix[] = oldest.map((request) => ({
    priority: 'medium',
    action: `Decide approval request ${request.id} (${request.action}, requested by key ${request.requestedBy} on ${request.createdAt.slice(0, 10)}) before it expires 7 days after it was made.`,
    where: `POST /api/v1/oms/actions/${request.id}/approve or /reject, with a key that has oms:approve (not the requesting key)`,
  }));
  const more = count > oldest.length ? [`- Showing the oldest ${oldest.length} of ${count}.`] : [];
  return output(null, `${count} approval request(s) pending for more than ${APPROVAL_WAIT_DAYS} days.`, [
    `- Pending for more than ${APPROVAL_WAIT_DAYS} days: ${count}`,
    ...more,
    ...oldest.map((r) => `- ${r.id}: ${r.action}, requested ${r.createdAt.slice(0, 10)} by key ${r.requestedBy}`),
  ], fixes);
}

/** The watches step examines at most this many watches (the newest first). */
export const WATCHES_READ = 10_000;
/** It names at most this many watches in each list (failing, dangling, capped, nearest their cap). */
export const WATCHES_SHOWN = 10;
/** An open watch that has spent this share of its cap is listed as nearing it. */
export const WATCH_NEAR_CAP = 0.8;

const target = (w: AuditedWatch) => `${w.targetType} ${w.targetKey}`;
const spend = (w: AuditedWatch) => `spent ${formatMicros(w.spentMicros)} of ${formatMicros(w.costCapMicros)} (${Math.round((100 * w.spentMicros) / w.costCapMicros)}%)`;

/**
 * Research watches: failing watches (five failed executions in a row), watches whose target no
 * longer exists (they can only fail), capped watches, the charged executions whose findings added
 * or removed a cited claim, and spend against caps, per watch (the open
 * watches nearest their cap) and in total, over the newest WATCHES_READ watches, naming at most
 * WATCHES_SHOWN per list. 20 points off per open watch that is failing or dangling; capped and
 * cancelled watches cost nothing. No watches: unscored.
 */
async function auditWatchesStep(db: Db, organizationId: string): Promise<StepOutput> {
  const audit = await auditWatches(db, organizationId, WATCHES_READ, WATCHES_SHOWN);
  if (audit.examined === 0) return output(null, 'No research watches.', ['- Your organization has no research watches.'], []);
  const { byStatus } = audit;
  const open = byStatus.active + byStatus.failing;
  const score = clamp(100 - 20 * (byStatus.failing + audit.danglingActive));
  const more = audit.examined >= WATCHES_READ ? `${WATCHES_READ.toLocaleString('en-US')}+` : String(audit.examined);
  const nearing = audit.nearestCap.filter((w) => w.spentMicros >= WATCH_NEAR_CAP * w.costCapMicros);
  const fixes: Fix[] = [];
  for (const w of audit.danglingShown) {
    fixes.push({
      priority: w.status === 'capped' ? 'low' : 'high',
      action: `Watch ${w.id} (${w.status}) watches ${target(w)}, which no longer exists: cancel it, or import the ${w.targetType} again.`,
      where: `DELETE /api/v1/oms/watches?id=${w.id}, or POST /api/v1/oms/objects/import`,
    });
  }
  for (const w of audit.failing.filter((f) => !audit.danglingShown.some((d) => d.id === f.id))) {
    fixes.push({
      priority: 'high',
      action: `Watch ${w.id} on ${target(w)} is failing (5 or more failed executions in a row; it keeps trying on its schedule): read why, then fix its query or source policy, or cancel it.`,
      where: `GET /api/v1/oms/watches/executions?id=${w.id}`,
    });
  }
  for (const w of nearing) {
    const left = Math.floor((w.costCapMicros - w.spentMicros) / (TIER_PRICE_MICROS[w.tier as WatchTier] ?? w.costCapMicros));
    fixes.push({
      priority: 'low',
      action: `Watch ${w.id} on ${target(w)} has ${spend(w)}: ${left} more execution(s) before it is capped. Plan a new watch with a larger cap if you need it longer.`,
      where: 'POST /api/v1/oms/watches',
    });
  }
  for (const w of audit.capped.filter((c) => !audit.danglingShown.some((d) => d.id === c.id))) {
    fixes.push({ priority: 'low', action: `Watch ${w.id} on ${target(w)} is capped (${spend(w)}) and never runs again: create a new watch with a larger cap if you still need it.`, where: 'POST /api/v1/oms/watches' });
  }
  const names = (rows: AuditedWatch[], count: number, line: (w: AuditedWatch) => string) => [
    ...rows.map((w) => `  - ${w.id}: ${line(w)}`),
    ...(count > rows.length ? [`  - and ${count - rows.length} more (the newest ${rows.length} are named)`] : []),
  ];
  return output(
    score,
    `${more} watch(es): ${byStatus.active} active, ${byStatus.failing} failing, ${byStatus.capped} capped, ${byStatus.cancelled} cancelled; ${audit.dangling} whose target no longer exists; ${formatMicros(audit.spentMicros)} spent; ${audit.executionsWithChanges} execution(s) with changes.`,
    [
      `- Watches: ${more}${audit.examined >= WATCHES_READ ? ` (the newest ${WATCHES_READ.toLocaleString('en-US')} were examined)` : ''}: ${byStatus.active} active, ${byStatus.failing} failing, ${byStatus.capped} capped, ${byStatus.cancelled} cancelled`,
      `- Spent in total: ${formatMicros(audit.spentMicros)}; the ${open} open (active or failing) watch(es): ${formatMicros(audit.openSpentMicros)} of their ${formatMicros(audit.openCapMicros)} caps, ${formatMicros(audit.openCapMicros - audit.openSpentMicros)} left`,
      `- Executions with changes (their brief added or removed a cited claim since the execution before): ${audit.executionsWithChanges} of ${audit.executions} charged execution(s)`,
      `- Failing: ${byStatus.failing}`,
      ...names(audit.failing, byStatus.failing, (w) => `${target(w)}, ${spend(w)}, last run ${w.lastRunAt ?? 'never'}`),
      `- Target no longer exists: ${audit.dangling}`,
      ...names(audit.danglingShown, audit.dangling, (w) => `${target(w)} (${w.status})`),
      `- Capped: ${byStatus.capped}`,
      ...names(audit.capped, byStatus.capped, (w) => `${target(w)}, ${spend(w)}`),
      `- Open watches nearest their cap: ${audit.nearestCap.length ? '' : 'none has spent anything yet'}`.trimEnd(),
      ...audit.nearestCap.map((w) => `  - ${w.id}: ${target(w)} (${w.tier}, ${w.status}), ${spend(w)}`),
    ],
    fixes,
  );
}

const STEPS: Record<AuditStep, (db: Db, organizationId: string) => Promise<StepOutput>> = {
  profile: auditProfile,
  'go-to-market': auditGoToMarket,
  data: auditData,
  keys: auditKeys,
  approvals: auditApprovals,
  watches: auditWatchesStep,
};

export const auditPlan: RunPlan = {
  kind: 'audit',
  async executeStep(_env, run, step, work) {
    const execute = STEPS[step as AuditStep];
    if (!execute) throw new Error(`unknown audit step ${step}`);
    return execute(work.db, run.organizationId);
  },
  render(run) {
    return renderReport(run, {
      title: `Organization audit: ${run.target}`,
      stepTitle: (step) => STEP_TITLES[step as AuditStep] ?? step,
      method:
        'Sales profile: 15 points off per missing required field, 5 per empty optional list, 10 when none of your sources is on your domain, 5 per ICP industry or persona your pages never mention (at most 30). ' +
        'Go-to-market: the mean of the gtm-audit area scores (the share of each area\'s rubric points your sources show met) for your own company, over the areas with evidence. ' +
        'Data: the share of objects with missing key properties, stale dates or a duplicate domain is taken off, and 5 points per dangling link (at most 30); each problem names up to 5 of its objects. ' +
        "Recon's own briefs are never evidence of coverage: `brief` objects are not counted as your data, and sources titled \"Research brief: ...\" (briefs stored back as sources) count neither as your pages nor as evidence. " +
        'API keys: 10 points off per active key never used, unused for 90 days, or older than 90 days. ' +
        'Approval requests: every request still pending more than 3 days after it was made (it expires at 7) is listed to decide, the oldest first; not scored. ' +
        'Research watches: 20 points off per open watch that is failing (5 failed executions in a row) or whose target no longer exists; capped watches, executions with changes and spend against caps are listed, not scored; unscored without watches. ' +
        'The overall score is the mean of the scored areas. Recommendations are ordered by impact: high before medium before low, then the fix that concerns more objects first, then in report order.',
    });
  },
};
