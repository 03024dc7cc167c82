import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { createWith, executionsOf, fireDueAlarm, gated, held, inFlight, marketOrganization, stubOf, until, untilExecutions } from './helpers.ts';

async function briefsAbout(key: string, company: string): Promise<string[]> {
  const response = await call('/api/v1/oms/objects/pivot', { key, body: { type: 'company', key: company, link: 'briefs' } });
  return ((await response.json()) as { objects: { key: string }[] }).objects.map((o) => o.key);
}

async function mirror(id: string) {
  return env.DB.prepare('SELECT status, spent_micros AS spent, executions FROM watches WHERE id = ?').bind(id).first();
}

describe('executions racing', () => {
  it('a run-now during a scheduled execution that holds the last of the budget is refused; the cap is never passed', async () => {
    const org = await marketOrganization();
    const gate = held();
    // Cap for exactly one lite execution; the first (scheduled) one waits in research.
    const id = await createWith(org, gated(gate), { costCapMicros: 5000 });
    await until(async () => (await inFlight(id)) === 1, 'the first execution in flight');

    const run = await call(`/api/v1/oms/watches/run?id=${id}`, { key: org.key, method: 'POST' });
    expect(run.status).toBe(409);
    expect(await run.json()).toMatchObject({ error: 'conflict', message: expect.stringContaining('holds the rest of its budget') });
    // A scheduled execution coming due meanwhile is skipped too.
    await fireDueAlarm(id);

    gate.release();
    await untilExecutions(id, 1);
    expect(await executionsOf(id)).toHaveLength(1);
    expect(await stubOf(id).get()).toMatchObject({ status: 'capped', spentMicros: 3000, executions: 1, nextRunAt: null });
    expect(await mirror(id)).toEqual({ status: 'capped', spent: 3000, executions: 1 });
    expect((await call(`/api/v1/oms/watches/run?id=${id}`, { key: org.key, method: 'POST' })).status).toBe(409);
  });

  it('an alarm and a run-now that both fit the budget both run and are both charged, once each, up to the cap', async () => {
    const org = await marketOrganization();
    const gate = held();
    const id = await createWith(org, gated(gate, 2), { costCapMicros: 6000 });
    await until(async () => (await inFlight(id)) === 1, 'the scheduled execution in flight');
    const runNow = call(`/api/v1/oms/watches/run?id=${id}`, { key: org.key, method: 'POST' });
    await until(async () => (await inFlight(id)) === 2, 'both executions in flight');
    // A third cannot reserve: 2 x 3000 are promised of 6000.
    expect((await stubOf(id).runNow()).ran).toBe(false);

    gate.release();
    const answered = (await (await runNow).json()) as ExecutionRecord;
    expect(answered).toMatchObject({ outcome: 'succeeded', costMicros: 3000 });
    const executions = await untilExecutions(id, 2);
    expect(executions.map((e) => e.outcome)).toEqual(['succeeded', 'succeeded']);
    expect(new Set(executions.map((e) => e.briefKey)).size).toBe(2);
    expect(await stubOf(id).get()).toMatchObject({ status: 'capped', spentMicros: 6000, executions: 2 });
    expect(await mirror(id)).toEqual({ status: 'capped', spent: 6000, executions: 2 });
    expect(await inFlight(id)).toBe(0);
  });
});

describe('a cancel racing an execution', () => {
  it('wins over an execution still researching: nothing is stored or charged after the cancel', async () => {
    const org = await marketOrganization();
    const gate = held();
    const id = await createWith(org, gated(gate));
    await until(async () => (await inFlight(id)) === 1, 'the first execution in flight');

    const cancelled = await call(`/api/v1/oms/watches?id=${id}`, { key: org.key, method: 'DELETE' });
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled', spentMicros: 0 });
    gate.release();

    const [execution] = await untilExecutions(id, 1);
    expect(execution).toMatchObject({ outcome: 'failed', costMicros: 0, briefKey: null, error: expect.stringContaining('cancelled while this execution ran') });
    expect(await stubOf(id).get()).toMatchObject({ status: 'cancelled', spentMicros: 0, executions: 0 });
    expect(await mirror(id)).toEqual({ status: 'cancelled', spent: 0, executions: 0 });
    expect(await briefsAbout(org.key, 'globex.com')).toEqual([]);
    expect(await inFlight(id)).toBe(0);
  });

  it('lands after a charge that commits: the execution stays whole and the watch is cancelled', async () => {
    const org = await marketOrganization();
    const gate = held();
    // The results commit only once the gate opens: the charge is in the object, the D1 batch pending.
    const id = await createWith(org, (real) => async (...args) => {
      const prepared = await real(...args);
      return { ...prepared, commit: async (also) => { await gate.promise; await prepared.commit(also); } };
    });
    await until(async () => (await stubOf(id).get())!.spentMicros === 3000, 'the charge');
    const cancelled = (await (await call(`/api/v1/oms/watches?id=${id}`, { key: org.key, method: 'DELETE' })).json()) as { status: string; spentMicros: number };
    expect(cancelled).toMatchObject({ status: 'cancelled', spentMicros: 3000 });
    gate.release();

    const [execution] = await untilExecutions(id, 1);
    expect(execution).toMatchObject({ outcome: 'succeeded', costMicros: 3000 });
    expect(await briefsAbout(org.key, 'globex.com')).toEqual([execution!.briefKey]);
    expect(await stubOf(id).get()).toMatchObject({ status: 'cancelled', spentMicros: 3000, executions: 1 });
    // The execution's batch carried an older version of the row: the cancel's stays.
    await until(async () => (await mirror(id))?.status === 'cancelled', 'the mirror');
    expect(await mirror(id)).toEqual({ status: 'cancelled', spent: 3000, executions: 1 });
  });
});

describe('a commit that fails', () => {
  it('is not charged: the reserved charge is given back and nothing is stored', async () => {
    const org = await marketOrganization();
    const id = await createWith(org, (real) => async (...args) => {
      const prepared = await real(...args);
      return { ...prepared, commit: async () => Promise.reject(new Error('D1 batch failed')) };
    });
    const [execution] = await untilExecutions(id, 1);
    expect(execution).toMatchObject({ outcome: 'failed', costMicros: 0, error: 'Storing the results failed: D1 batch failed' });
    expect(await stubOf(id).get()).toMatchObject({ status: 'active', spentMicros: 0, executions: 0 });
    expect(await mirror(id)).toEqual({ status: 'active', spent: 0, executions: 0 });
    expect(await briefsAbout(org.key, 'globex.com')).toEqual([]);
  });
});
