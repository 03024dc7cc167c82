import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { RunObject } from '../../src/runs/run-object.ts';
import type { StepOutput } from '../../src/runs/types.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { plansWithSteps } from '../helpers/run-plans.ts';
import { bringSchedulesForward } from '../helpers/schedules.ts';

const OUTPUT: StepOutput = { score: 70, summary: 'fine', details: [], findings: [], sources: [], fixes: [] };

it('with RUN_STEP_PAUSE_MS, a run does one step per advance and schedules the next one at least that long after (none by default)', async () => {
  const org = await createOrganization();
  const stub = env.RUNS.get(env.RUNS.newUniqueId());
  const ran: string[] = [];
  const id = await runInDurableObject(stub, (instance: RunObject, state) => {
    // The Workers test pool leaves the variable unset: no pause.
    expect(instance.stepPauseMs).toBe(0);
    // The longest pause allowed: the platform's own alarm cannot run the next step while the test looks.
    instance.stepPauseMs = 10_000;
    instance.plans = plansWithSteps('gtm-audit', async (_env, _run, step) => {
      ran.push(step);
      return OUTPUT;
    });
    return state.id.toString();
  });
  await stub.start({ id, kind: 'gtm-audit', organizationId: org.id, target: 'acme.com', args: {}, steps: ['pricing', 'icp'] });
  // The first step is due at once: the platform may run its alarm before the test does.
  for (let i = 0; i < 100 && (await stub.read())!.steps[0]!.status === 'pending'; i++) {
    if (!(await runDurableObjectAlarm(stub))) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const after = await stub.read();
  expect(ran).toEqual(['pricing']);
  expect(after!.status).toBe('running');
  const finishedAt = Date.parse(after!.steps[0]!.finishedAt!);
  const next = await runInDurableObject(stub, async (instance: RunObject) => (await instance.listSchedules()).filter((s) => s.callback === 'advance'));
  expect(next).toHaveLength(1);
  expect(next[0]!.time * 1000).toBeGreaterThanOrEqual(finishedAt + 10_000);

  for (let i = 0; i < 100 && (await stub.read())!.status === 'running'; i++) {
    await bringSchedulesForward(stub);
    if (!(await runDurableObjectAlarm(stub))) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(ran).toEqual(['pricing', 'icp']);
  expect((await stub.read())!.status).toBe('completed');
});
