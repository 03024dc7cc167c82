import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord, WatchView } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { executionsOf, fireDueAlarm, json, marketOrganization, stubOf, until } from './helpers.ts';
import { createHooked, FakeReceiver, fireDeliveries, newSecret, outboxSize, untilDelivery } from './webhook-helpers.ts';

describe('watch webhooks never block the watch', () => {
  it('while the receiver hangs, the execution is committed and charged, and run-now, a scheduled execution and a cancel all go through', async () => {
    const org = await marketOrganization();
    await newSecret(org);
    const receiver = new FakeReceiver();
    receiver.script = ['hang'];
    const id = await createHooked(org, receiver, { costCapMicros: 30_000 });
    await until(async () => receiver.sent.length === 1, 'the first attempt, hanging');

    // The execution being delivered is committed and charged, in the object and in D1.
    expect(await stubOf(id).get()).toMatchObject({ spentMicros: 3000, executions: 1, status: 'active' });
    const row = await env.DB.prepare('SELECT spent_micros, executions FROM watches WHERE id = ?').bind(id).first();
    expect(row).toEqual({ spent_micros: 3000, executions: 1 });
    const [first] = await executionsOf(id);
    expect(first).toMatchObject({ outcome: 'succeeded', costMicros: 3000 });
    expect(first!.webhook).toMatchObject({ state: 'pending', attempts: 0 });

    const run = await json<ExecutionRecord>(await call(`/api/v1/oms/watches/run?id=${id}`, { key: org.key, method: 'POST' }), 200);
    expect(run).toMatchObject({ outcome: 'succeeded', costMicros: 3000 });
    expect(await fireDueAlarm(id)).toBe(true);
    expect(await stubOf(id).get()).toMatchObject({ spentMicros: 9000, executions: 3 });
    const cancelled = await json<WatchView>(await call(`/api/v1/oms/watches?id=${id}`, { key: org.key, method: 'DELETE' }), 200);
    expect(cancelled).toMatchObject({ status: 'cancelled', spentMicros: 9000 });
    // Still only the first attempt, still hanging.
    expect(receiver.sent).toHaveLength(1);

    // The receiver answers: the cancelled watch still delivers the three executions that finished before the cancel, in order.
    await receiver.release(id);
    const executions = await untilDelivery(id, (e) => e.length === 3 && e.every((x) => x.webhook?.state === 'delivered'), 'three deliveries');
    expect(receiver.sent.map((s) => s.headers['webhook-id'])).toEqual(executions.map((e) => e.id).reverse());
    expect(await stubOf(id).get()).toMatchObject({ status: 'cancelled', spentMicros: 9000, executions: 3 });
  });

  it('a cancel keeps the retries of executions that finished before it', async () => {
    const org = await marketOrganization();
    await newSecret(org);
    const receiver = new FakeReceiver();
    receiver.script = [503];
    const id = await createHooked(org, receiver);
    await untilDelivery(id, (e) => e[0]?.webhook?.attempts === 1, 'the first attempt');
    expect((await call(`/api/v1/oms/watches?id=${id}`, { key: org.key, method: 'DELETE' })).status).toBe(200);
    expect(await outboxSize(id)).toBe(1);

    await fireDeliveries(id);
    const [record] = await executionsOf(id);
    expect(record!.webhook).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 200 });
    expect(await executionsOf(id)).toHaveLength(1);
  });
});
