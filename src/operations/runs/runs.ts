import { companyName } from '../../db/companies.ts';
import { listRuns as listRunRows, type RunSummary } from '../../db/runs.ts';
import { launchRun } from '../../runs/launch.ts';
import { AUDIT_STEPS, STEP_TITLES } from '../../runs/audit.ts';
import type { RunInit } from '../../runs/run-object.ts';
import { RUN_KINDS, RUN_STATUSES, type RunKind, type RunRecord, type RunStatus } from '../../runs/types.ts';
import { z } from 'zod';
import { readConfig } from '../../ground/config.ts';
import type { CommandResult } from '../definition.ts';
import type { CoreContext } from '../../ground/context.ts';
import { DomainError, rateLimited } from '../../ground/errors.ts';
import { readPageToken, signPageToken } from '../../ground/page-token.ts';
import { assertScope } from '../../ground/scopes.ts';
import type { AuditInput, GtmAuditInput } from '../commands/command-inputs.ts';
import { AREAS, GTM_AUDIT_AREAS, type GtmArea } from '../../runs/gtm-audit.ts';
import type { SalesProfile } from '../../ground/schemas/profile.ts';
import { placementOf } from '../../ground/location-hint.ts';
import { siteReadReportOf, type SiteReadReport } from '../../sites/read/report-data.ts';

/**
 * What a start answers, through either door (the REST 202 body and the MCP tool's text are the
 * same bytes): the run id and both ways to poll it.
 */
export function startedMarkdown(kind: RunKind, id: string): string {
  return `Started ${kind} run ${id}; it is running. ${howToPoll(kind, id)}`;
}

/** How to poll a run, through either door. */
export function howToPoll(kind: RunKind, id: string): string {
  return `Poll it every few seconds until its status is completed: GET /api/v1/runs/${kind}/${id}, or the MCP tool run-status with {"kind": "${kind}", "id": "${id}"}.\n`;
}

/** What a poll answers: the status, and the status line or the final markdown. */
export interface RunView {
  id: string;
  kind: RunKind;
  status: RunStatus;
  markdown: string;
  /** Seconds to wait before polling again, while running. */
  retryAfter?: number;
  createdAt: string;
  updatedAt: string;
  /** What the run looks at (the status line's subject, e.g. `acme.com`). */
  target: string;
  /** Steps finished (done or given up) and steps in all: the run's progress. */
  stepsDone: number;
  stepsTotal: number;
  /** When it reached its final status; null while running. */
  finishedAt: string | null;
  /** A finished site read's report as data. */
  siteRead?: SiteReadReport;
}

const POLL_AFTER_SECONDS = 2;
const RUN_ID = /^[0-9a-f]{64}$/;

function notFound(kind: string, id: string): DomainError {
  return new DomainError('not_found', `No ${kind} run ${id} in your organization.`);
}

/** How many audits (gtm-audit and audit) one organization may have running at once; one more start answers 429. */
export const MAX_RUNNING_RUNS = 3;
export { RUN_SLOT_STALE_MS } from '../../runs/launch.ts';
/** Retry-After of a start refused by the cap: about how long a large audit's run takes. */
const RUN_SLOT_RETRY_SECONDS = 10;
const AUDIT_KINDS: readonly RunKind[] = ['gtm-audit', 'audit'];

/**
 * Starts an audit (launchRun): one of the organization's MAX_RUNNING_RUNS audit slots. Over the
 * cap: 429 `rate_limited` and nothing is written.
 */
async function launch(ctx: CoreContext, init: Omit<RunInit, 'id' | 'createdAt'>, profile: SalesProfile): Promise<CommandResult> {
  const launched = await launchRun(ctx.env, ctx.db, init, { cap: MAX_RUNNING_RUNS, kinds: AUDIT_KINDS }, placementOf(profile.icp.regions));
  if (!launched.started) {
    throw rateLimited(
      RUN_SLOT_RETRY_SECONDS,
      `Your organization already has ${MAX_RUNNING_RUNS} runs going, the most it may run at once; wait for one to finish (GET /api/v1/runs lists them) or cancel one (DELETE /api/v1/runs/{kind}/{id}), then start again.`,
    );
  }
  return { mode: 'async', run: { id: launched.id, kind: init.kind, status: 'running' }, markdown: startedMarkdown(init.kind, launched.id) };
}

/** Starts a gtm-audit of `company` (default: the caller's own) over the requested areas. */
export async function startGtmAudit(ctx: CoreContext, input: GtmAuditInput, profile: SalesProfile): Promise<CommandResult> {
  const org = ctx.principal.organization.id;
  const key = input.company ?? profile.domain!;
  const name = (await companyName(ctx.db, org, key)) ?? (key === profile.domain ? profile.companyName : undefined);
  return launch(ctx, {
    kind: 'gtm-audit',
    organizationId: org,
    target: key,
    args: { ...input, subject: { key, ...(name ? { name } : {}) } },
    steps: [...(input.focus ?? GTM_AUDIT_AREAS)],
  }, profile);
}

/** Starts the audit of the caller's own organization. */
export async function startAudit(ctx: CoreContext, input: AuditInput, profile: SalesProfile): Promise<CommandResult> {
  return launch(ctx, {
    kind: 'audit',
    organizationId: ctx.principal.organization.id,
    target: profile.companyName ?? ctx.principal.organization.name,
    args: { ...input },
    steps: [...AUDIT_STEPS],
  }, profile);
}

/**
 * The caller's run `id` of `kind` (any kind when `kind` is undefined); 404 for a malformed id,
 * another kind, or another organization; 403 without `commands` unless it is a site read and the key has `oms:write`.
 */
async function readRun(ctx: CoreContext, kind: string | undefined, id: string): Promise<{ run: RunRecord; stub: DurableObjectStub<import('../../runs/run-object.ts').RunObject> }> {
  // Site reads are started with oms:write, so that scope polls and cancels them too; every other run needs commands.
  if (!ctx.principal.scopes.includes('oms:write') || (kind !== undefined && kind !== 'site-read')) assertScope(ctx, 'commands');
  if ((kind !== undefined && !(RUN_KINDS as readonly string[]).includes(kind)) || !RUN_ID.test(id)) throw notFound(kind ?? 'async', id);
  let objectId: DurableObjectId;
  try {
    objectId = ctx.env.RUNS.idFromString(id);
  } catch {
    // Well-formed hex that this namespace never issued.
    throw notFound(kind ?? 'async', id);
  }
  const stub = ctx.env.RUNS.get(objectId);
  const run = await stub.read();
  if (!run || run.organizationId !== ctx.principal.organization.id || (kind !== undefined && run.kind !== kind)) {
    throw notFound(kind ?? 'async', id);
  }
  if (run.kind !== 'site-read') assertScope(ctx, 'commands');
  return { run, stub };
}

export function viewOf(run: RunRecord): RunView {
  const base = {
    id: run.id,
    kind: run.kind,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    target: run.target,
    stepsDone: run.steps.filter((s) => s.status !== 'pending').length,
    stepsTotal: run.steps.length,
    finishedAt: run.status === 'running' ? null : (run.finishedAt ?? run.updatedAt),
  };
  if (run.status !== 'running') {
    const siteRead = siteReadReportOf(run);
    return { ...base, status: run.status, markdown: run.result ?? '', ...(siteRead ? { siteRead } : {}) };
  }
  const index = run.steps.findIndex((s) => s.status === 'pending');
  const step = run.steps[index];
  const line = step
    ? `Running ${run.kind} for ${run.target}: step ${index + 1} of ${run.steps.length} (${step.name}${step.progress ? `: ${step.progress}` : ''})${step.attempts ? `, retry ${step.attempts}` : ''}\n`
    : `Running ${run.kind} for ${run.target}: writing the report\n`;
  return { ...base, status: 'running', markdown: line, retryAfter: POLL_AFTER_SECONDS };
}

/** GET /api/v1/runs/{kind}/{id}, the run-status tool, and MCP tasks (which know only the id: kind undefined). */
export async function getRun(ctx: CoreContext, kind: string | undefined, id: string): Promise<RunView> {
  return viewOf((await readRun(ctx, kind, id)).run);
}

/** One line of a finished audit's scorecard: the step (area), its title and its score (0-100; null: not scored). */
export interface ScoreLine {
  step: string;
  title: string;
  score: number | null;
}

/** What a scorecard says for a step without a score, by run kind (as the report's markdown says it). */
export const UNSCORED: Readonly<Record<RunKind, string>> = { 'gtm-audit': 'no evidence found', audit: 'n/a', 'site-read': 'n/a' };

/**
 * The scorecard of a run, as data: each step that finished with an output, in the report's order,
 * with the title and score the report's scorecard table shows (runs/report.ts). Empty for a
 * site read and for a run with no step done.
 */
export function scorecardOf(run: RunRecord): ScoreLine[] {
  if (run.kind === 'site-read') return [];
  const title = (step: string) =>
    (run.kind === 'gtm-audit' ? AREAS[step as GtmArea]?.title : STEP_TITLES[step as keyof typeof STEP_TITLES]) ?? step;
  return run.steps.filter((s) => s.status === 'done' && s.output).map((s) => ({ step: s.name, title: title(s.name), score: s.output!.score }));
}

/** A run as getRun answers it, with its scorecard as data (the dashboard draws it as a chart). */
export async function getRunWithScorecard(ctx: CoreContext, kind: string | undefined, id: string): Promise<{ view: RunView; scorecard: ScoreLine[] }> {
  const { run } = await readRun(ctx, kind, id);
  return { view: viewOf(run), scorecard: scorecardOf(run) };
}

/** DELETE /api/v1/runs/{kind}/{id}: cancels a running run; a finished one is returned unchanged. */
export async function cancelRun(ctx: CoreContext, kind: string | undefined, id: string): Promise<RunView> {
  const { stub } = await readRun(ctx, kind, id);
  const run = await stub.cancel();
  return viewOf(run!);
}

/**
 * Waits for a run to finish, up to AUDIT_WAIT_TIMEOUT_MS, polling its object; then 504 `timeout`
 * with the run id (the run goes on and can be polled).
 */
export async function waitForRun(ctx: CoreContext, kind: RunKind, id: string, pollMs = 100): Promise<RunView> {
  const deadline = Date.now() + readConfig(ctx.env).AUDIT_WAIT_TIMEOUT_MS;
  for (;;) {
    const view = await getRun(ctx, kind, id);
    if (view.status !== 'running') return view;
    if (Date.now() + pollMs > deadline) {
      throw new DomainError('timeout', `The ${kind} run ${id} is still running after the server's wait limit; poll GET /api/v1/runs/${kind}/${id}.`, {
        run: { id, kind },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Where a page of runs ends: the keyset position the next page starts after. */
const RunsPosition = z.tuple([z.string().max(64), z.string().max(100)]);

/** Every run status, for validating a filter (the compiler checks that none is missing). */

/** Which runs GET /api/v1/runs lists: both optional, each one of its allowed values. */
export const RunFilter = z.object({
  kind: z.enum(RUN_KINDS).optional().describe('Only runs of this kind: gtm-audit, audit or site-read.'),
  status: z.enum(RUN_STATUSES).optional().describe('Only runs in this status: running, completed, failed or cancelled.'),
});
export type RunFilter = z.output<typeof RunFilter>;

/**
 * The page-token list name of a filtered list, e.g. `runs:gtm-audit:running` (`*`: not filtered), so
 * a cursor is only taken back by the list that gave it out. The unfiltered list is `runs`.
 */
function listName(filter: RunFilter): string {
  return filter.kind || filter.status ? `runs:${filter.kind ?? '*'}:${filter.status ?? '*'}` : 'runs';
}

/**
 * GET /api/v1/runs (and MCP tasks/list, unfiltered): the organization's runs that pass `filter`,
 * newest first, each with the arguments it was started with, and a cursor to the next page.
 */
export async function listRuns(
  ctx: CoreContext,
  limit: number,
  cursor?: string,
  filter: RunFilter = {},
): Promise<{ runs: RunSummary[]; nextCursor: string | null }> {
  assertScope(ctx, 'commands');
  const scope = { organizationId: ctx.principal.organization.id, list: listName(filter) };
  const after = cursor ? await readPageToken(ctx.env, cursor, scope, RunsPosition, 'cursor') : undefined;
  const rows = await listRunRows(ctx.db, scope.organizationId, limit + 1, after && { createdAt: after[0], id: after[1] }, filter);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { runs: page, nextCursor: rows.length > limit && last ? await signPageToken(ctx.env, scope, [last.createdAt, last.id]) : null };
}
