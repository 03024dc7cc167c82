import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { WatchView } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { createAndSettle, executionsOf, fireDueAlarm, json, marketOrganization, stubOf } from './helpers.ts';

async function schedules(id: string): Promise<number> {
  return runInDurableObject(stubOf(id), (_i, state) => state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM cf_agents_jobs WHERE fn IN ('scheduledExecution', 'retryExecution')`).one().n);
}

describe('cancelling a watch', () => {
  it('deletes its schedule, answers the cancelled watch, and is idempotent', async () => {
    const org = await marketOrganization();
    const watch = await createAndSettle(org.key);
    expect(await schedules(watch.id)).toBe(1);

    const cancelled = await json<WatchView>(await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key, method: 'DELETE' }), 200);
    expect(cancelled).toMatchObject({ id: watch.id, status: 'cancelled', nextRunAt: null, spentMicros: 3000, executions: 1 });
    expect(Date.parse(cancelled.cancelledAt!)).toBeGreaterThan(0);
    expect(await schedules(watch.id)).toBe(0);
    const row = await env.DB.prepare('SELECT status, cancelled_at, next_run_at FROM watches WHERE id = ?').bind(watch.id).first();
    expect(row).toEqual({ status: 'cancelled', cancelled_at: cancelled.cancelledAt, next_run_at: null });

    // Again: the same watch, unchanged.
    const again = await json<WatchView>(await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key, method: 'DELETE' }), 200);
    expect(again).toEqual(cancelled);
    expect(await json(await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key }), 200)).toEqual(cancelled);
  });

  it('never executes again: run-now is 409, a stale alarm does nothing', async () => {
    const org = await marketOrganization();
    const watch = await createAndSettle(org.key);
    await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key, method: 'DELETE' });
    const before = (await stubOf(watch.id).get())!;

    const run = await call(`/api/v1/oms/watches/run?id=${watch.id}`, { key: org.key, method: 'POST' });
    expect(run.status).toBe(409);
    expect(await run.json()).toMatchObject({ error: 'conflict', message: expect.stringContaining('is cancelled') });

    // A stale alarm: the platform fires it anyway, and a stale execution callback runs too.
    await runInDurableObject(stubOf(watch.id), (_i, state) => state.storage.setAlarm(Date.now()));
    await runDurableObjectAlarm(stubOf(watch.id));
    await fireDueAlarm(watch.id);
    await runInDurableObject(stubOf(watch.id), (instance) => instance.scheduledExecution(undefined));
    expect(await executionsOf(watch.id)).toHaveLength(1);
    expect(await stubOf(watch.id).get()).toEqual(before);
  });
});
