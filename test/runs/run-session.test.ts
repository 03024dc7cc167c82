import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { RunObject } from '../../src/runs/run-object.ts';
import { RUN_PLANS } from '../../src/runs/plans.ts';
import type { RunPlan } from '../../src/runs/types.ts';
import { laterBookmark } from '../../src/ground/db-session.ts';
import { ObjectDb } from '../../src/db/d1-sessions.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { recordingSessions } from '../helpers/recording-sessions.ts';

/**
 * A run object keeps one D1 session across its steps: every step is handed the object's session,
 * and the session's bookmark is kept in the object's storage after each step, so the next step (or
 * the object started again) never reads older data than the step before it wrote.
 */

interface StepSeen {
  step: string;
  sameSession: boolean;
  /** The bookmark the object kept when the step started. */
  keptBefore: string | null;
}

describe("a run object's D1 session", () => {
  it('is handed to every step, and its bookmark is kept after each, never moving back', async () => {
    const org = await createOrganization();
    const stub = env.RUNS.get(env.RUNS.newUniqueId());
    const seen: StepSeen[] = [];
    await runInDurableObject(stub, (instance: RunObject) => {
      const real = RUN_PLANS.audit;
      const recording: RunPlan = {
        ...real,
        async executeStep(runEnv, run, step, work) {
          const keptBefore = instance.db.kept();
          // Each step writes (as a site read's steps do), so the next one must read at least this.
          await work.db.prepare('UPDATE organizations SET name = name WHERE id = ?').bind(org.id).run();
          seen.push({ step, sameSession: work.db === instance.db, keptBefore });
          return real.executeStep(runEnv, run, step, work);
        },
      };
      instance.plans = { ...RUN_PLANS, audit: recording };
      instance.stepPauseMs = 0;
    });
    const id = (await runInDurableObject(stub, (_instance, state) => state.id.toString())) as string;
    await stub.start({ id, kind: 'audit', organizationId: org.id, target: 'Test', args: {}, steps: ['profile', 'keys', 'approvals'] });
    for (let i = 0; i < 20 && (await stub.read())?.status === 'running'; i++) await runDurableObjectAlarm(stub);
    expect((await stub.read())?.status).toBe('completed');

    expect(seen.map((s) => s.step)).toEqual(['profile', 'keys', 'approvals']);
    expect(seen.every((s) => s.sameSession)).toBe(true);
    // The start's summary write was kept before the first step; each step starts from at least what the one before it kept.
    expect(seen[0]!.keptBefore).not.toBeNull();
    for (let i = 1; i < seen.length; i++) {
      const previous = seen[i - 1]!.keptBefore!;
      const now = seen[i]!.keptBefore!;
      expect(now).not.toBe(previous);
      expect(laterBookmark(now, previous)).toBe(now);
    }
  });

  it('continues from the kept bookmark when the object starts again', async () => {
    const org = await createOrganization();
    const stub = env.RUNS.get(env.RUNS.newUniqueId());
    const id = (await runInDurableObject(stub, (_instance, state) => state.id.toString())) as string;
    await stub.start({ id, kind: 'audit', organizationId: org.id, target: 'Test', args: {}, steps: ['profile'] });
    for (let i = 0; i < 20 && (await stub.read())?.status === 'running'; i++) await runDurableObjectAlarm(stub);
    await runInDurableObject(stub, async (instance: RunObject, state) => {
      const kept = instance.db.kept();
      expect(kept).not.toBeNull();
      // A new instance over the same storage (what a restart builds) opens its session from it.
      const { DB, log } = recordingSessions();
      const restarted = new ObjectDb({ DB }, state.storage.kv);
      await restarted.prepare('SELECT 1').first();
      expect(log.starts).toEqual([kept]);
    });
  });
});
