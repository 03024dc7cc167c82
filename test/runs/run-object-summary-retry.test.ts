import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { mirrorRun } from '../../src/db/runs.ts';
import type { RunObject } from '../../src/runs/run-object.ts';
import type { StepOutput } from '../../src/runs/types.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { plansWithSteps } from '../helpers/run-plans.ts';
import { bringSchedulesForward } from '../helpers/schedules.ts';

const OUTPUT: StepOutput = { score: 70, summary: 'fine', details: [], findings: [], sources: [], fixes: [] };

// Found by the fault suite (test/reliability/faults/runs.test.ts): when the D1 summary of an ended
// run failed twice in a row (the final write, then its retry from the alarm), the alarm threw and
// nothing re-armed it, so D1 listed the completed run as running for good.
it('an ended run whose D1 summary keeps failing re-arms its alarm until D1 takes the summary', async () => {
  const org = await createOrganization();
  const stub = env.RUNS.get(env.RUNS.newUniqueId());
  let failures = 0;
  const id = await runInDurableObject(stub, (instance: RunObject, state) => {
    instance.plans = plansWithSteps('gtm-audit', async () => OUTPUT);
    instance.mirror = async (db, run) => {
      // D1 is down for the final summary and its next two retries.
      if (run.status !== 'running' && failures < 3) {
        failures++;
        throw new Error('D1_ERROR: Network connection lost.');
      }
      await mirrorRun(db, run);
    };
    return state.id.toString();
  });
  await stub.start({ id, kind: 'gtm-audit', organizationId: org.id, target: 'acme.com', args: {}, steps: ['pricing'] });
  const row = () => env.DB.prepare('SELECT status FROM runs WHERE id = ?').bind(id).first<{ status: string }>();

  for (let i = 0; i < 100 && (await row())?.status === 'running'; i++) {
    const alarm = await runInDurableObject(stub, (_i, state) => state.storage.getAlarm());
    if (alarm === null) {
      // The platform may be running the alarm right now: only an alarm still unset a moment later is lost.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = await runInDurableObject(stub, (_i, state) => state.storage.getAlarm());
      if (again === null && (await row())?.status === 'running') throw new Error(`the run is ${(await stub.read())!.status} but D1 says running and no alarm is set`);
      continue;
    }
    await bringSchedulesForward(stub);
    await runDurableObjectAlarm(stub);
  }
  expect(failures).toBe(3);
  expect((await stub.read())!.status).toBe('completed');
  expect(await row()).toEqual({ status: 'completed' });
});
