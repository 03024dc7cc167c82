import type { RunKind, RunStatus } from '../ground/run-kinds.ts';
import type { Db } from '../ground/db-session.ts';

/** What the summary row is written from: the parts of a run record (runs/types.ts) it mirrors. */
export interface MirroredRun {
  id: string;
  organizationId: string;
  kind: RunKind;
  target: string;
  status: RunStatus;
  steps: readonly { status: string }[];
  args: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

/**
 * What a run was started with, as listed: the command's validated arguments. A gtm-audit's record
 * also holds `subject` (the company it resolved to), which is derived rather than given, so the
 * listing leaves it out.
 */
export function listedArgs(args: Record<string, unknown>): string {
  const { subject: _derived, ...given } = args;
  return JSON.stringify(given);
}

/**
 * Mirrors a run's summary into D1 (the `runs` table), so an organization's runs can be listed and
 * its running runs counted. The row only moves forward: a row in a terminal state (`completed`,
 * `failed`, `cancelled`) never changes, and a write older (by `updatedAt`) than the row is ignored,
 * so two writes that land out of order cannot leave the row behind the run.
 */
export async function mirrorRun(db: Db, run: MirroredRun): Promise<void> {
  const done = run.steps.filter((s) => s.status !== 'pending').length;
  await db
    .prepare(
      `INSERT INTO runs (id, organization_id, kind, target, status, steps_done, steps_total, created_at, updated_at, finished_at, args)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, steps_done = excluded.steps_done,
         updated_at = excluded.updated_at, finished_at = excluded.finished_at
        WHERE runs.status = 'running' AND excluded.updated_at >= runs.updated_at`,
    )
    .bind(run.id, run.organizationId, run.kind, run.target, run.status, done, run.steps.length, run.createdAt, run.updatedAt, run.finishedAt ?? null, listedArgs(run.args))
    .run();
}

export interface RunSlotClaim {
  id: string;
  organizationId: string;
  kind: string;
  target: string;
  stepsTotal: number;
  createdAt: string;
  /** The run's arguments as `listedArgs` gives them. */
  args: string;
}

/** Which running runs a new run must fit beside. */
export interface RunSlotLimits {
  /** At most this many running runs of `kinds` per organization (this one included). */
  cap: number;
  kinds: readonly string[];
  /** A running row not updated since (ISO time) is a run whose object never started or stopped answering: it holds no slot. */
  freshSince: string;
  /** One running run of this kind per target: a second start finds the first. */
  onePerTarget?: boolean;
}

/** Claimed; or not, with the running run of the same kind and target when that is why. */
export type RunSlotClaimResult = { claimed: true } | { claimed: false; running?: string };

/**
 * Writes the summary row of a new run as `running`, only if the organization has fewer than
 * `limits.cap` running runs of `limits.kinds` (and, with `onePerTarget`, none of the same kind and
 * target). One statement, so two simultaneous starts cannot both take the last slot, nor both
 * start a run of one target.
 */
export async function claimRunSlot(db: Db, run: RunSlotClaim, limits: RunSlotLimits): Promise<RunSlotClaimResult> {
  const onePerTarget = limits.onePerTarget ? 1 : 0;
  const result = await db
    .prepare(
      `INSERT INTO runs (id, organization_id, kind, target, status, steps_done, steps_total, created_at, updated_at, args)
       SELECT ?1, ?2, ?3, ?4, 'running', 0, ?5, ?6, ?6, ?9
        WHERE (SELECT count(*) FROM (SELECT 1 FROM runs
                WHERE organization_id = ?2 AND status = 'running' AND updated_at >= ?7
                  AND kind IN (SELECT value FROM json_each(?10)) LIMIT ?8)) < ?8
          AND (?11 = 0 OR NOT EXISTS (SELECT 1 FROM runs
                WHERE organization_id = ?2 AND status = 'running' AND updated_at >= ?7 AND kind = ?3 AND target = ?4))`,
    )
    .bind(run.id, run.organizationId, run.kind, run.target, run.stepsTotal, run.createdAt, limits.freshSince, limits.cap, run.args, JSON.stringify(limits.kinds), onePerTarget)
    .run();
  if (result.meta.changes === 1) return { claimed: true };
  if (!onePerTarget) return { claimed: false };
  const running = await db
    .prepare(
      `SELECT id FROM runs WHERE organization_id = ?1 AND status = 'running' AND updated_at >= ?2 AND kind = ?3 AND target = ?4
        ORDER BY created_at LIMIT 1`,
    )
    .bind(run.organizationId, limits.freshSince, run.kind, run.target)
    .first<{ id: string }>();
  return running ? { claimed: false, running: running.id } : { claimed: false };
}

/** Removes the row of a run whose object could not be started, so it holds no slot. */
export async function releaseRunSlot(db: Db, id: string): Promise<void> {
  await db.prepare(`DELETE FROM runs WHERE id = ?1 AND steps_done = 0 AND status = 'running'`).bind(id).run();
}

export interface RunSummary {
  id: string;
  kind: RunKind;
  target: string;
  status: RunStatus;
  stepsDone: number;
  stepsTotal: number;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** What the run was started with: the command's validated arguments. */
  args: Record<string, unknown>;
}

/** Which runs a list holds; an absent field does not filter. */
export interface RunFilter {
  kind?: RunKind;
  status?: RunStatus;
}

/**
 * A page of the organization's runs that pass `filter`, newest first, after the (createdAt, id)
 * position given.
 */
export async function listRuns(
  db: Db,
  organizationId: string,
  limit: number,
  after?: { createdAt: string; id: string },
  filter: RunFilter = {},
): Promise<RunSummary[]> {
  const { results } = await db
    .prepare(
      `SELECT id, kind, target, status, steps_done AS stepsDone, steps_total AS stepsTotal,
              created_at AS createdAt, updated_at AS updatedAt, finished_at AS finishedAt, args
         FROM runs
        WHERE organization_id = ?1 AND (?2 IS NULL OR (created_at, id) < (?2, ?3))
          AND (?5 IS NULL OR kind = ?5) AND (?6 IS NULL OR status = ?6)
        ORDER BY created_at DESC, id DESC
        LIMIT ?4`,
    )
    .bind(organizationId, after?.createdAt ?? null, after?.id ?? null, limit, filter.kind ?? null, filter.status ?? null)
    .all<Omit<RunSummary, 'args'> & { args: string }>();
  return results.map((row) => ({ ...row, args: JSON.parse(row.args) as Record<string, unknown> }));
}
