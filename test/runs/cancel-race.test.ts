import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { mirrorRun } from '../../src/db/runs.ts';
import type { RunObject } from '../../src/runs/run-object.ts';
import { RUN_PLANS } from '../../src/runs/plans.ts';
import type { RunPlan, RunRecord, StepOutput } from '../../src/runs/types.ts';

const OUTPUT: StepOutput = { score: 80, summary: 'ok', details: [], findings: [], sources: [], fixes: [] };

interface Held {
  promise: Promise<void>;
  release: () => void;
}

function held(): Held {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

/**
 * A run object with the real storage and the real D1 mirror, whose gtm-audit steps run `step`;
 * `delayMirror`, when given, is awaited before a mirror write the test wants to land late (the
 * write itself is the real one).
 */
async function runWith(step: RunPlan['executeStep'], steps: string[], delayMirror?: (run: RunRecord) => Promise<void> | undefined) {
  const stub = env.RUNS.get(env.RUNS.newUniqueId());
  await runInDurableObject(stub, (instance: RunObject) => {
    instance.plans = { ...RUN_PLANS, 'gtm-audit': { ...RUN_PLANS['gtm-audit'], executeStep: step } };
    if (delayMirror) {
      instance.mirror = async (db, run) => {
        await delayMirror(run);
        await mirrorRun(db, run);
      };
    }
  });
  const id = (await runInDurableObject(stub, (_instance, state) => state.id.toString())) as string;
  await stub.start({ id, kind: 'gtm-audit', organizationId: 'org_race', target: 'acme.com', args: {}, steps });
  return { stub, id };
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition never held');
}

async function mirrored(id: string) {
  return env.DB.prepare(`SELECT status, steps_done AS stepsDone FROM runs WHERE id = ?`).bind(id).first<{ status: string; stepsDone: number }>();
}

describe('a cancel is never lost', () => {
  it('discards the output of a step that finishes after the cancel; the record and the D1 row say cancelled', async () => {
    const step = held();
    const { stub, id } = await runWith(async () => {
      await step.promise;
      return OUTPUT;
    }, ['pricing']);
    await until(async () => (await mirrored(id))?.status === 'running');

    const cancelled = await stub.cancel();
    expect(cancelled!.status).toBe('cancelled');
    step.release();
    // The alarm that ran the step finishes: wait until nothing is in flight any more.
    await until(async () => (await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())) === null);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const after = await stub.read();
    expect(after!.status).toBe('cancelled');
    expect(after!.steps[0]).toMatchObject({ status: 'pending' });
    expect(after!.steps[0]!.output).toBeUndefined();
    expect(after!.result).toBe(cancelled!.result);
    expect(await mirrored(id)).toEqual({ status: 'cancelled', stepsDone: 0 });
  });

  it("is not undone by the run's own completion, nor by a mirror write that lands after it", async () => {
    // The last step is stored as done; its D1 summary write is held back; a cancel arrives then.
    const mirrorWrite = held();
    let heldOnce = false;
    const { stub, id } = await runWith(
      async () => OUTPUT,
      ['pricing'],
      (run) => {
        if (heldOnce || run.status !== 'running' || run.steps[0]!.status !== 'done') return undefined;
        heldOnce = true;
        return mirrorWrite.promise;
      },
    );
    await until(async () => heldOnce);
    const cancelled = await stub.cancel();
    expect(cancelled!.status).toBe('cancelled');
    expect(cancelled!.result).toContain('**Cancelled**');
    mirrorWrite.release();
    await until(async () => (await runInDurableObject(stub, (_i, state) => state.storage.getAlarm())) === null);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const after = await stub.read();
    expect(after!.status).toBe('cancelled');
    expect(after!.result).toBe(cancelled!.result);
    expect((await mirrored(id))!.status).toBe('cancelled');
    // A terminal run stays as it is.
    expect(await stub.cancel()).toEqual(after);
  });
});
