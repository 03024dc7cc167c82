import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { LEGACY_RUN_KEY } from '../../src/db/run-object-storage.ts';
import type { RunObject } from '../../src/runs/run-object.ts';
import type { RunRecord, StepOutput } from '../../src/runs/types.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { plansWithSteps } from '../helpers/run-plans.ts';

const OUTPUT: StepOutput = { score: 70, summary: 'fine', details: [], findings: [], sources: [], fixes: [] };

/**
 * A run accepted by the earlier RunObject (its state one key-value record under `run`, advanced
 * by raw alarms) and still going at a deploy: the new object moves the record into its SQLite the
 * first time it starts, and the alarm the old one left resumes the run where it stopped.
 */
it('resumes a run stored by the earlier version of the object, from the step it had reached', async () => {
  const org = await createOrganization();
  const stub = env.RUNS.get(env.RUNS.newUniqueId());
  const calls: string[] = [];
  const id = await runInDurableObject(stub, (instance: RunObject, state) => {
    instance.plans = plansWithSteps('gtm-audit', async (_env, _run, step) => {
      calls.push(step);
      return OUTPUT;
    });
    const id = state.id.toString();
    const legacy: RunRecord = {
      id,
      kind: 'gtm-audit',
      organizationId: org.id,
      target: 'acme.com',
      args: {},
      status: 'running',
      steps: [
        { name: 'pricing', status: 'done', attempts: 1, output: OUTPUT, error: 'D1 is busy', finishedAt: '2026-11-20T10:00:01.000Z' },
        { name: 'icp', status: 'pending', attempts: 0 },
      ],
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:01.000Z',
    };
    // What the earlier object had stored, and its alarm.
    state.storage.kv.put(LEGACY_RUN_KEY, legacy);
    return id;
  });
  await runInDurableObject(stub, (_i, state) => state.storage.setAlarm(Date.now()));

  for (let i = 0; i < 20 && (await stub.read())?.status === 'running'; i++) await runDurableObjectAlarm(stub);
  const run = (await stub.read())!;
  expect(run.id).toBe(id);
  expect(run.status).toBe('completed');
  expect(calls).toEqual(['icp']);
  expect(run.steps.map((s) => [s.name, s.status])).toEqual([['pricing', 'done'], ['icp', 'done']]);
  expect(run.steps[0]!.output).toEqual(OUTPUT);
  expect(await runInDurableObject(stub, (_i, state) => state.storage.kv.get(LEGACY_RUN_KEY))).toBeUndefined();
  expect(await env.DB.prepare('SELECT status, steps_done FROM runs WHERE id = ?').bind(id).first()).toEqual({ status: 'completed', steps_done: 2 });
});

it('reads a finished run stored by the earlier version of the object', async () => {
  const stub = env.RUNS.get(env.RUNS.newUniqueId());
  const legacy = await runInDurableObject(stub, (_i, state) => {
    const record: RunRecord = {
      id: state.id.toString(),
      kind: 'audit',
      organizationId: 'org_legacy',
      target: 'Acme',
      args: {},
      status: 'cancelled',
      steps: [{ name: 'profile', status: 'pending', attempts: 2, error: 'slow' }],
      result: '**Cancelled**',
      createdAt: '2026-11-20T10:00:00.000Z',
      updatedAt: '2026-11-20T10:00:05.000Z',
      finishedAt: '2026-11-20T10:00:05.000Z',
    };
    state.storage.kv.put(LEGACY_RUN_KEY, record);
    return record;
  });
  expect(await stub.read()).toEqual(legacy);
  expect(await stub.cancel()).toEqual(legacy);
});
