import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createWith, executionsOf, fireDueAlarm, marketOrganization, stubOf, untilExecutions } from './helpers.ts';

async function retryDueIn(id: string): Promise<number | null> {
  return runInDurableObject(stubOf(id), (_i, state) => {
    const row = state.storage.sql.exec<{ time: number }>(`SELECT time FROM cf_agents_jobs WHERE fn = 'retryExecution'`).toArray();
    if (row.length > 1) throw new Error('more than one retry scheduled');
    return row[0] ? Math.round((row[0].time - Date.now()) / 1000) : null;
  });
}

describe('failed executions', () => {
  it('are not charged, are retried with backoff, make the watch failing at five in a row, and a success makes it active again', async () => {
    const org = await marketOrganization();
    let broken = true;
    const id = await createWith(org, (real) => async (...args) => {
      if (broken) throw new Error('provider down');
      return real(...args);
    });
    const [first] = await untilExecutions(id, 1);
    expect(first).toMatchObject({ outcome: 'failed', costMicros: 0, briefKey: null, changes: [], error: 'The research failed: provider down' });
    expect(await stubOf(id).get()).toMatchObject({ status: 'active', spentMicros: 0, executions: 0, lastRunAt: first!.finishedAt });
    expect(await retryDueIn(id)).toBeGreaterThanOrEqual(58);
    expect(await retryDueIn(id)).toBeLessThanOrEqual(60);

    // Failures 2, 3, 4: the retry waits 2, 4, 8 minutes.
    for (const [n, wait] of [[2, 120], [3, 240], [4, 480]] as const) {
      const outcome = await stubOf(id).runNow();
      expect(outcome.ran && outcome.execution.outcome).toBe('failed');
      expect((await stubOf(id).get())!.status).toBe('active');
      expect(await retryDueIn(id)).toBeGreaterThanOrEqual(wait - 2);
      expect(await retryDueIn(id)).toBeLessThanOrEqual(wait);
      expect(await executionsOf(id)).toHaveLength(n);
    }

    // The fifth: failing, no more backoff; it keeps its schedule.
    await stubOf(id).runNow();
    const watch = (await stubOf(id).get())!;
    expect(watch).toMatchObject({ status: 'failing', spentMicros: 0, executions: 0 });
    expect(watch.nextRunAt).not.toBeNull();
    expect(await retryDueIn(id)).toBeNull();
    const row = await env.DB.prepare('SELECT status, spent_micros FROM watches WHERE id = ?').bind(id).first();
    expect(row).toEqual({ status: 'failing', spent_micros: 0 });

    // The provider is back: the next scheduled execution succeeds and the watch is active again.
    broken = false;
    expect(await fireDueAlarm(id)).toBe(true);
    const [latest] = await executionsOf(id);
    expect(latest).toMatchObject({ outcome: 'succeeded', costMicros: 3000 });
    expect(await stubOf(id).get()).toMatchObject({ status: 'active', spentMicros: 3000, executions: 1 });
    expect(await env.DB.prepare('SELECT status, spent_micros FROM watches WHERE id = ?').bind(id).first()).toEqual({ status: 'active', spent_micros: 3000 });
  });

  it('a success ends the backoff: the pending retry is removed', async () => {
    const org = await marketOrganization();
    let broken = true;
    const id = await createWith(org, (real) => async (...args) => {
      if (broken) throw new Error('provider down');
      return real(...args);
    });
    await untilExecutions(id, 1);
    expect(await retryDueIn(id)).not.toBeNull();
    broken = false;
    const outcome = await stubOf(id).runNow();
    expect(outcome.ran && outcome.execution.outcome).toBe('succeeded');
    expect(await retryDueIn(id)).toBeNull();
  });
});
