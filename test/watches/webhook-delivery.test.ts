import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { executionsOf, failing, json, marketOrganization, stubOf, until } from './helpers.ts';
import { createHooked, deliveryJobs, FakeReceiver, fireDeliveries, HOOK_URL, newSecret, outboxSize, settled, untilDelivery } from './webhook-helpers.ts';

/** The record as sent: the stored one without its delivery state. */
function payloadOf(record: ExecutionRecord): Omit<ExecutionRecord, 'webhook'> {
  const { webhook: _, ...payload } = record;
  return payload;
}

const deliveredAll = (n: number) => (executions: ExecutionRecord[]) => executions.length >= n && executions.every((e) => e.webhook?.state === 'delivered');

describe('watch webhooks: delivery from the watch object', () => {
  it("POSTs each finished execution's record once, signed with the organization's secret, and records the outcome on the execution", async () => {
    const org = await marketOrganization();
    const secret = await newSecret(org);
    const receiver = new FakeReceiver();
    const id = await createHooked(org, receiver);

    const [first] = await untilDelivery(id, deliveredAll(1), 'the first delivery');
    expect(first).toMatchObject({ outcome: 'succeeded', costMicros: 3000 });
    expect(first!.webhook).toEqual({ state: 'delivered', attempts: 1, lastStatus: 200, lastError: null, nextAttemptAt: null });
    expect(receiver.sent).toHaveLength(1);
    const [request] = receiver.sent;
    expect(request!.url).toBe(HOOK_URL);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(first!.id);
    // The independent verifier accepts it, and the payload is the record (without the delivery state).
    expect(new Webhook(secret).verify(request!.body, request!.headers)).toEqual(payloadOf(first!));
    expect(JSON.parse(request!.body)).not.toHaveProperty('webhook');

    // Nothing waits, nothing is armed; the watch shows its webhook, never the secret.
    expect(await outboxSize(id)).toBe(0);
    expect(await deliveryJobs(id)).toEqual([]);
    const watch = (await stubOf(id).get())!;
    expect(watch.webhook).toEqual({ url: HOOK_URL, kinds: [] });
    expect(JSON.stringify(watch)).not.toContain(secret);
    // The executions endpoint shows the outcome too.
    const page = await json<{ executions: ExecutionRecord[] }>(await call(`/api/v1/oms/watches/executions?id=${id}`, { key: org.key }), 200);
    expect(page.executions[0]!.webhook).toMatchObject({ state: 'delivered', attempts: 1 });
  });

  it('sends messages in the order their executions finished, one at a time', async () => {
    const org = await marketOrganization();
    await newSecret(org);
    const receiver = new FakeReceiver();
    receiver.script = ['hang'];
    const id = await createHooked(org, receiver, { costCapMicros: 30_000 });
    await until(async () => receiver.sent.length === 1, 'the first attempt');

    // Two more executions finish while the first message is still being sent.
    const second = await json<ExecutionRecord>(await call(`/api/v1/oms/watches/run?id=${id}`, { key: org.key, method: 'POST' }), 200);
    const third = await json<ExecutionRecord>(await call(`/api/v1/oms/watches/run?id=${id}`, { key: org.key, method: 'POST' }), 200);
    expect(second.webhook).toMatchObject({ state: 'pending', attempts: 0 });
    expect(receiver.sent).toHaveLength(1);

    await receiver.release(id);
    const executions = await untilDelivery(id, deliveredAll(3), 'three deliveries');
    const oldestFirst = executions.map((e) => e.id).reverse();
    expect(oldestFirst.slice(1)).toEqual([second.id, third.id]);
    expect(receiver.sent.map((s) => s.headers['webhook-id'])).toEqual(oldestFirst);
  });

  it('retries a failed attempt 30 s later (±10%) under the same webhook-id, signed with the secret as it is at the retry', async () => {
    const org = await marketOrganization();
    await newSecret(org);
    const receiver = new FakeReceiver();
    receiver.script = [500];
    const before = Date.now();
    const id = await createHooked(org, receiver);
    const [pending] = await untilDelivery(id, (e) => e[0]?.webhook?.attempts === 1, 'the first attempt');
    expect(pending!.webhook).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500: not now' });
    // The fixed jitter (0.5) makes it exactly the policy's 30 s after the attempt.
    const next = Date.parse(pending!.webhook!.nextAttemptAt!);
    expect(next - before).toBeGreaterThanOrEqual(30_000);
    expect(next - Date.now()).toBeLessThanOrEqual(30_000);
    expect(await deliveryJobs(id)).toEqual([Math.ceil(next / 1000) * 1000]);
    expect(await outboxSize(id)).toBe(1);

    const rotated = await newSecret(org);
    await fireDeliveries(id);
    const [delivered] = await executionsOf(id);
    expect(delivered!.webhook).toEqual({ state: 'delivered', attempts: 2, lastStatus: 200, lastError: null, nextAttemptAt: null });
    expect(receiver.sent.map((s) => s.headers['webhook-id'])).toEqual([delivered!.id, delivered!.id]);
    expect(new Webhook(rotated).verify(receiver.sent[1]!.body, receiver.sent[1]!.headers)).toEqual(payloadOf(delivered!));
    expect(() => new Webhook(rotated).verify(receiver.sent[0]!.body, receiver.sent[0]!.headers)).toThrow();
    expect(await outboxSize(id)).toBe(0);
  });

  it('gives up after the sixth failed attempt, whatever the failures, and sends nothing more', async () => {
    const org = await marketOrganization();
    await newSecret(org);
    const receiver = new FakeReceiver();
    receiver.script = [500, 'throw', 503, 404, 302, 500, 200];
    const id = await createHooked(org, receiver);
    await untilDelivery(id, (e) => e[0]?.webhook?.attempts === 1, 'the first attempt');
    for (let attempt = 2; attempt <= 6; attempt++) {
      await fireDeliveries(id);
      expect((await executionsOf(id))[0]!.webhook!.attempts).toBe(attempt);
    }
    const [record] = await executionsOf(id);
    expect(record!.webhook).toEqual({ state: 'gave_up', attempts: 6, lastStatus: 500, lastError: 'HTTP 500: not now', nextAttemptAt: null });
    expect(receiver.sent).toHaveLength(6);
    expect(await outboxSize(id)).toBe(0);
    expect(await deliveryJobs(id)).toEqual([]);
    await fireDeliveries(id);
    expect(receiver.sent).toHaveLength(6);
    // The execution itself is untouched: charged once.
    expect(await stubOf(id).get()).toMatchObject({ spentMicros: 3000, executions: 1 });
  });

  it('delivers failed executions too, and an attempt without an organization secret fails and is retried', async () => {
    const org = await marketOrganization();
    const receiver = new FakeReceiver();
    const id = await createHooked(org, receiver, {}, failing);
    const [pending] = await untilDelivery(id, (e) => e[0]?.webhook?.attempts === 1, 'the first attempt');
    expect(pending).toMatchObject({ outcome: 'failed', costMicros: 0 });
    expect(pending!.webhook).toMatchObject({ state: 'pending', lastStatus: null, lastError: expect.stringContaining('no webhook secret') });
    expect(receiver.sent).toHaveLength(0);

    const secret = await newSecret(org);
    await fireDeliveries(id);
    const [delivered] = await executionsOf(id);
    expect(delivered!.webhook).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(new Webhook(secret).verify(receiver.sent[0]!.body, receiver.sent[0]!.headers)).toMatchObject({ outcome: 'failed', costMicros: 0 });
    await settled(id);
  });
});
