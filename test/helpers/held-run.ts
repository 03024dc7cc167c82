import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { RunObject } from '../../src/runs/run-object.ts';
import { RUN_PLANS } from '../../src/runs/plans.ts';

/**
 * A gtm-audit run of `organizationId` whose step never finishes (the real object, storage and D1
 * mirror; only its plan's step is held), so a test can act on it while it is surely running. It
 * ends when the test cancels it.
 */
export async function heldRun(organizationId: string): Promise<string> {
  const stub = env.RUNS.get(env.RUNS.newUniqueId());
  await runInDurableObject(stub, (instance: RunObject) => {
    instance.plans = { ...RUN_PLANS, 'gtm-audit': { ...RUN_PLANS['gtm-audit'], executeStep: () => new Promise(() => {}) } };
  });
  const id = (await runInDurableObject(stub, (_instance, state) => state.id.toString())) as string;
  await stub.start({ id, kind: 'gtm-audit', organizationId, target: 'acme.com', args: {}, steps: ['pricing'] });
  return id;
}
