import { claimRunSlot, listedArgs, releaseRunSlot, type RunSlotLimits } from '../db/runs.ts';
import type { RunInit, RunKind } from './types.ts';
import type { Db } from '../ground/db-session.ts';

/** A running run whose summary has not changed for this long holds no slot (its object is gone). */
export const RUN_SLOT_STALE_MS = 10 * 60_000;

/** Started; joined (a run of the same kind and target was running: its id); or refused by the cap. */
export type LaunchOutcome = { started: true; id: string } | { started: false; running: string } | { started: false; running?: undefined };

/**
 * Starts a run: takes a slot (writing the run's D1 row in the same statement, so simultaneous
 * starts cannot overshoot `cap`), then starts its object. Refused: nothing is written. Every start
 * comes here: the commands through both doors, MCP tasks, site reads on request, on onboarding and
 * before a watch's research. `placement`: the organization's location hint (src/ground/location-hint.ts).
 */
export async function launchRun(
  env: Env,
  db: Db,
  init: Omit<RunInit, 'id' | 'createdAt'>,
  limits: { cap: number; kinds: readonly RunKind[]; onePerTarget?: boolean },
  placement: DurableObjectNamespaceGetDurableObjectOptions = {},
): Promise<LaunchOutcome> {
  const id = env.RUNS.newUniqueId().toString();
  const now = Date.now();
  const createdAt = new Date(now).toISOString();
  const slot: RunSlotLimits = { ...limits, freshSince: new Date(now - RUN_SLOT_STALE_MS).toISOString() };
  const claim = await claimRunSlot(
    db,
    { id, organizationId: init.organizationId, kind: init.kind, target: init.target, stepsTotal: init.steps.length, createdAt, args: listedArgs(init.args) },
    slot,
  );
  if (!claim.claimed) return claim.running ? { started: false, running: claim.running } : { started: false };
  try {
    // The one get that creates the object: `placement` (its location hint) only counts here.
    await env.RUNS.get(env.RUNS.idFromString(id), placement).start({ ...init, id, createdAt });
  } catch (error) {
    await releaseRunSlot(db, id);
    throw error;
  }
  return { started: true, id };
}
