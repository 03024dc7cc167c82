import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { RunObject } from '../../src/runs/run-object.ts';
import { EVIDENCE_WINDOW } from '../../src/runs/evidence.ts';
import { RUN_PLANS } from '../../src/runs/plans.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importLargeKnowledgeBase } from '../helpers/large-knowledge-base.ts';
import { importMarket } from '../helpers/market.ts';

describe("one organization's large audit does not hold up another's requests", () => {
  it("answers a second organization while the first one's gtm-audit works through a large knowledge base", async () => {
    const big = await createOrganization();
    await importLargeKnowledgeBase(big.key, 3_000);
    const other = await createOrganization();
    await importMarket(other.key);

    // The big organization's run does the real work of each step, then waits (at our signal) before storing it.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stepsRead: string[] = [];
    const stub = env.RUNS.get(env.RUNS.newUniqueId());
    await runInDurableObject(stub, (instance: RunObject) => {
      const real = RUN_PLANS['gtm-audit'];
      instance.plans = {
        ...RUN_PLANS,
        'gtm-audit': {
          ...real,
          async executeStep(runEnv, run, step, work) {
            const output = await real.executeStep(runEnv, run, step, work);
            stepsRead.push(step);
            await gate;
            return output;
          },
        },
      };
    });
    const id = (await runInDurableObject(stub, (_i, state) => state.id.toString())) as string;
    await stub.start({ id, kind: 'gtm-audit', organizationId: big.id, target: 'team.com', args: { subject: { key: 'team.com', name: 'Team' } }, steps: ['pricing', 'icp'] });
    for (let i = 0; i < 500 && stepsRead.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stepsRead).toEqual(['pricing']);

    const research = await call('/api/v1/commands/research', { key: other.key, body: { topic: 'Acme Analytics pricing' } });
    expect(research.status).toBe(200);
    expect(await research.text()).toContain('## Key findings');
    expect((await stub.read())!.status).toBe('running');

    release();
    for (let i = 0; i < 50 && (await stub.read())!.status === 'running'; i++) await runDurableObjectAlarm(stub);
    const done = (await stub.read())!;
    expect(done.status).toBe('completed');
    expect(done.result).toContain(`More than ${EVIDENCE_WINDOW} passages name Team and discuss pricing`);
  });
});
