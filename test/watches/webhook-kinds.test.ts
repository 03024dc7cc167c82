import { describe, expect, it } from 'vitest';
import type { Change } from '../../src/ground/schemas/changes.ts';
import type { ExecutionRecord } from '../../src/ground/schemas/watch.ts';
import type { PreparedExecution } from '../../src/watches/execution.ts';
import { executionsOf, marketOrganization, runNow } from './helpers.ts';
import { createHooked, FakeReceiver, fireDeliveries, newSecret, settled, untilDelivery } from './webhook-helpers.ts';

/**
 * A webhook that asks for some change kinds only (issue 32): an execution is sent only when it found
 * a change of one of them, so that a price change pages somebody and other changes do not. Every
 * execution is still recorded. The research half is wrapped to report chosen changes.
 */
const change = (kind: Change['kind']): Change => ({ kind, action: 'added', text: `A ${kind} sentence.`, url: `https://globex.com/${kind}`, title: 'Globex' });

describe('a webhook subscribed to pricing changes only', () => {
  it('is sent the executions that found a pricing change, and no other', async () => {
    const org = await marketOrganization();
    await newSecret(org);
    const receiver = new FakeReceiver();
    const found: Change[][] = [[], [change('hiring')], [change('other'), change('pricing')]];
    let n = 0;
    const id = await createHooked(org, receiver, { costCapMicros: 30_000, kinds: ['pricing'] }, (real) => async (env, db, watch, key) => {
      const prepared: PreparedExecution = await real(env, db, watch, key);
      const changes = found[n++] ?? [];
      return { ...prepared, findings: { ...prepared.findings, changes, changeCounts: { ...prepared.findings.changeCounts, total: changes.length } } };
    });
    await untilDelivery(id, (executions) => executions.length >= 1, 'the first execution');
    await runNow(org.key, id);
    const third: ExecutionRecord = await runNow(org.key, id);
    await fireDeliveries(id);
    await settled(id);

    expect(receiver.sent).toHaveLength(1);
    expect((JSON.parse(receiver.sent[0]!.body) as ExecutionRecord).id).toBe(third.id);
    // Every execution is recorded; only the one sent has a delivery.
    const executions = await executionsOf(id);
    expect(executions.map((execution) => execution.webhook?.state ?? 'not sent')).toEqual(['delivered', 'not sent', 'not sent']);
  });
});
