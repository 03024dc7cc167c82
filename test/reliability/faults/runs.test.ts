import fc from 'fast-check';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_STEP_RETRIES, type RunObject } from '../../../src/runs/run-object.ts';
import { mirrorRun } from '../../../src/db/runs.ts';
import type { RunRecord, StepOutput } from '../../../src/runs/types.ts';
import { createOrganization } from '../../helpers/fixtures.ts';
import { plansWithSteps } from '../../helpers/run-plans.ts';
import { bringSchedulesForward } from '../../helpers/schedules.ts';
import { FailingD1, FAULT_SEED, Tally } from './support/faults.ts';

/**
 * Asynchronous runs under random fault schedules: any attempt of any step may throw, any write of
 * the run's D1 summary may fail, any alarm may be delivered twice (once by the platform and once
 * more straight after, or twice by the platform), and the run may be cancelled at any point.
 * Every run must end (completed, failed after its retries, or cancelled: never lost), each step
 * must produce its output once, the outcome must be the one the retry policy gives, and the D1
 * summary must end up saying what the run's object says.
 */

const tally = new Tally('runs');
afterAll(() => tally.print());

const OUTPUT: StepOutput = { score: 70, summary: 'fine', details: [], findings: [], sources: [], fixes: [] };
const STEP_NAMES = ['pricing', 'icp', 'positioning'];

type Delivery = 'once' | 'redelivered' | 'platform-twice';

interface Schedule {
  steps: number;
  /** Per step attempt, in the order attempts happen: true when that attempt throws. */
  stepFails: boolean[];
  /** Per D1 summary write: true when D1 fails it. */
  mirrorFails: boolean[];
  /** How each alarm is delivered, in turn (the last one repeats). */
  deliveries: Delivery[];
  /** Cancel before this alarm (null: never). */
  cancelAt: number | null;
}

const scheduleArbitrary: fc.Arbitrary<Schedule> = fc.record({
  steps: fc.integer({ min: 1, max: 3 }),
  stepFails: fc.array(fc.boolean(), { maxLength: 14 }),
  mirrorFails: fc.array(fc.boolean(), { maxLength: 10 }),
  deliveries: fc.array(fc.constantFrom<Delivery>('once', 'redelivered', 'platform-twice'), { minLength: 1, maxLength: 6 }),
  cancelAt: fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
});

/** What the retry policy gives without a cancel: completed, or failed at the step that ran out of attempts. */
function expectedStatus(schedule: Schedule): 'completed' | 'failed' {
  let at = 0;
  for (let step = 0; step < schedule.steps; step++) {
    for (let attempt = 1; ; attempt++) {
      const fails = schedule.stepFails[at++] ?? false;
      if (!fails) break;
      if (attempt > MAX_STEP_RETRIES) return 'failed';
    }
  }
  return 'completed';
}

async function d1Row(id: string) {
  return env.DB.prepare('SELECT status, steps_done, finished_at FROM runs WHERE id = ?').bind(id).first<{ status: string; steps_done: number; finished_at: string | null }>();
}

function summaryOf(run: RunRecord) {
  return { status: run.status, steps_done: run.steps.filter((s) => s.status !== 'pending').length, finished_at: run.finishedAt ?? null };
}

/**
 * The run and its alarm once no alarm handler is under way: the platform fires a due alarm on its
 * own too, and while its handler runs the alarm reads as unset. A run that stays running with no
 * alarm for a second is one nothing will ever resume.
 */
async function settled(stub: DurableObjectStub<RunObject>): Promise<{ run: RunRecord; alarm: number | null }> {
  for (let i = 0; ; i++) {
    const run = (await stub.read())!;
    const alarm = await runInDurableObject(stub, (_i, state) => state.storage.getAlarm());
    if (alarm !== null || i >= 50) return { run, alarm };
    if (run.status !== 'running' && JSON.stringify(await d1Row(run.id)) === JSON.stringify(summaryOf(run))) return { run, alarm };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('runs under random fault schedules', () => {
  it('every run ends as the retry policy says, each step runs to an output once, and the D1 summary catches up', { timeout: 120_000 }, async () => {
    const org = await createOrganization();
    await fc.assert(
      fc.asyncProperty(scheduleArbitrary, async (schedule) => {
        tally.schedules++;
        const d1 = new FailingD1();
        let stepCall = 0;
        let mirrorCall = 0;
        const produced = new Map<string, number>();
        const stub = env.RUNS.get(env.RUNS.newUniqueId());
        const id = await runInDurableObject(stub, (instance: RunObject, state) => {
          instance.plans = plansWithSteps('gtm-audit', async (_env, _run, step) => {
            if (schedule.stepFails[stepCall++]) {
              tally.fault('step throws');
              throw new Error(`step ${step} failed (injected)`);
            }
            produced.set(step, (produced.get(step) ?? 0) + 1);
            return OUTPUT;
          });
          instance.mirror = async (_db, run) => {
            if (schedule.mirrorFails[mirrorCall++]) {
              d1.armed.runFails = true;
              tally.fault('D1 summary write fails');
            }
            await mirrorRun(d1.db, run);
          };
          return state.id.toString();
        });
        const steps = STEP_NAMES.slice(0, schedule.steps);
        await stub.start({ id, kind: 'gtm-audit', organizationId: org.id, target: 'acme.com', args: {}, steps });

        let cancelled = false;
        let alarms = 0;
        for (;;) {
          if (alarms > 60) throw new Error(`run ${id} did not settle: ${JSON.stringify(await stub.read())}`);
          if (schedule.cancelAt === alarms) {
            await stub.cancel();
            cancelled = true;
          }
          const { run, alarm } = await settled(stub);
          if (run.status !== 'running') {
            const row = await d1Row(id);
            // Ended, summarized, and nothing left to fire (a leftover alarm on an ended run only writes the summary again).
            if (JSON.stringify(row) === JSON.stringify(summaryOf(run)) && alarm === null) break;
            // The object ended but D1 still says otherwise: something must be set to write it again.
            if (alarm === null && JSON.stringify(row) !== JSON.stringify(summaryOf(run))) {
              tally.lost++;
              throw new Error(`run ${id} is ${run.status} but its D1 summary says ${JSON.stringify(row)} and no alarm will write it again`);
            }
          } else if (alarm === null) {
            tally.lost++;
            throw new Error(`run ${id} is running with no alarm set: it would never resume`);
          }
          // Bring the alarm forward (a backoff), then deliver it as the schedule says.
          await bringSchedulesForward(stub);
          const delivery = schedule.deliveries[Math.min(alarms, schedule.deliveries.length - 1)]!;
          alarms++;
          await runDurableObjectAlarm(stub).catch(() => tally.fault('alarm handler threw'));
          if (delivery === 'redelivered') {
            tally.fault('alarm delivered twice');
            await runInDurableObject(stub, (instance: RunObject) => instance.alarm()).catch(() => undefined);
          } else if (delivery === 'platform-twice') {
            tally.fault('alarm delivered twice');
            await runInDurableObject(stub, (_i, state) => state.storage.setAlarm(Date.now()));
            await runDurableObjectAlarm(stub).catch(() => undefined);
          }
        }

        const run = (await stub.read())!;
        if (!cancelled) expect(run.status).toBe(expectedStatus(schedule));
        else expect(['cancelled', 'completed', 'failed']).toContain(run.status);
        // Each step produced its output at most once; a done step's output is stored.
        for (const step of run.steps) {
          expect(produced.get(step.name) ?? 0).toBeLessThanOrEqual(1);
          if (step.status === 'done') expect(step.output).toEqual(OUTPUT);
        }
        if (run.status === 'completed') expect(run.steps.every((s) => s.status === 'done')).toBe(true);
        // No alarm is left on an ended run, and the summary says what the object says.
        expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).toBeNull();
        expect(await d1Row(id)).toEqual(summaryOf(run));
      }),
      { seed: FAULT_SEED, numRuns: 60 },
    );
  });
});
