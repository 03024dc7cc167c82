import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_STEP_RETRIES, type RunObject } from '../../src/runs/run-object.ts';
import { RUN_PLANS } from '../../src/runs/plans.ts';
import type { RunPlan, StepOutput } from '../../src/runs/types.ts';
import { bringSchedulesForward } from '../helpers/schedules.ts';

const OUTPUT: StepOutput = { score: 80, summary: 'ok', details: [], findings: [], sources: [], fixes: [] };

/** A run object whose gtm-audit plan runs `step` instead of the real research. */
async function runWith(step: RunPlan['executeStep']) {
  const stub = env.RUNS.get(env.RUNS.newUniqueId());
  await runInDurableObject(stub, (instance: RunObject) => {
    instance.plans = { ...RUN_PLANS, 'gtm-audit': { ...RUN_PLANS['gtm-audit'], executeStep: step } };
  });
  const id = (await runInDurableObject(stub, (_instance, state) => state.id.toString())) as string;
  await stub.start({ id, kind: 'gtm-audit', organizationId: 'org_test', target: 'acme.com', args: {}, steps: ['pricing', 'icp'] });
  return stub;
}

/** Fires alarms until the run stops running; `runDurableObjectAlarm` runs one only if it is due. */
async function drive(stub: DurableObjectStub<RunObject>) {
  for (let i = 0; i < 20; i++) {
    const run = await stub.read();
    if (run!.status !== 'running') return run!;
    // Bring a backed-off retry forward, so tests do not wait for it.
    await bringSchedulesForward(stub);
    await runDurableObjectAlarm(stub);
  }
  throw new Error('run did not finish');
}

describe('RunObject', () => {
  it('runs each step once, persisting its output before the next, and completes', async () => {
    const calls: string[] = [];
    const stub = await runWith(async (_env, _run, step) => {
      calls.push(step);
      return OUTPUT;
    });
    const run = await drive(stub);
    expect(run.status).toBe('completed');
    expect(calls).toEqual(['pricing', 'icp']);
    expect(run.steps.map((s) => s.status)).toEqual(['done', 'done']);
    expect(run.result).toContain('| Pricing | 80/100 | ok |');
  });

  it('retries a step that throws, keeping the result once it succeeds', async () => {
    let attempts = 0;
    const stub = await runWith(async (_env, _run, step) => {
      if (step === 'pricing' && ++attempts < 3) throw new Error('D1 is busy');
      return OUTPUT;
    });
    const run = await drive(stub);
    expect(run.status).toBe('completed');
    expect(run.steps[0]).toMatchObject({ name: 'pricing', status: 'done', attempts: 2 });
  });

  it(`fails the run after ${MAX_STEP_RETRIES} retries, saying which step failed, why, and whether retrying helps`, async () => {
    const stub = await runWith(async (_env, _run, step) => {
      if (step === 'icp') throw new Error('the knowledge base is unreadable');
      return OUTPUT;
    });
    const run = await drive(stub);
    expect(run.status).toBe('failed');
    expect(run.steps[1]).toMatchObject({ status: 'failed', attempts: MAX_STEP_RETRIES + 1 });
    expect(run.result).toContain('**This run failed** at step 2 of 2 (Ideal customer profile) after 4 attempts: the knowledge base is unreadable.');
    expect(run.result).toContain('Retrying helps if the cause was temporary');
    expect(run.result).toContain('| Pricing | 80/100 |');
  });

  it('does not run a step twice when its alarm is delivered twice', async () => {
    const calls: string[] = [];
    const stub = await runWith(async (_env, _run, step) => {
      calls.push(step);
      return OUTPUT;
    });
    // A redelivered alarm: the alarm handler runs again although the step it ran is stored as done.
    await runInDurableObject(stub, async (instance: RunObject) => {
      await instance.alarm();
      await instance.alarm();
      await instance.alarm();
      await instance.alarm();
    });
    expect(calls).toEqual(['pricing', 'icp']);
    expect((await stub.read())!.status).toBe('completed');
  });

  it('cancels a running run, removing its alarm and keeping finished steps; a finished run stays as it is', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stub = await runWith(async (_env, _run, step) => {
      if (step === 'icp') await held;
      return OUTPUT;
    });
    // Alarms fire on their own: wait until pricing is done and icp is in flight.
    for (let i = 0; i < 100 && (await stub.read())!.steps[0]!.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 10));
    const cancelled = await stub.cancel();
    release();
    expect(cancelled!.status).toBe('cancelled');
    expect(cancelled!.result).toContain('**Cancelled** after 1 of 2 steps');
    expect(await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())).toBeNull();
    // The step that was in flight finishes, but does not undo the cancel.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await stub.read();
    expect(after!.status).toBe('cancelled');
    expect(after!.steps[1]!.status).toBe('pending');
    expect(await stub.cancel()).toEqual(after);
  });
});
