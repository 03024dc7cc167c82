import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { readPageBaseline, type PageBaselineRow } from '../../src/db/watch-page-baseline.ts';
import type { WatchObject } from '../../src/watches/watch-object.ts';
import { createWith, marketOrganization, runNow, stubOf, untilExecutions } from './helpers.ts';

/**
 * The page baseline a watch compares the company's web with (issue 32) moves only when an execution
 * commits: never on a failed research, never on an execution whose results could not be stored, and
 * never back to an older reading when two executions finish out of order.
 */
const row = (title: string): PageBaselineRow => ({ url: 'https://globex.com/pricing', what: 'page', title, state: 'live', hash: title, seenAt: new Date().toISOString(), sentences: [title], reported: {} });

async function baselineOf(id: string) {
  return runInDurableObject(stubOf(id), (instance: WatchObject) => readPageBaseline(instance.sql.bind(instance)));
}

describe("a watch's page baseline", () => {
  it('is kept by a committed execution only, and never replaced by an older reading', async () => {
    const org = await marketOrganization();
    // Each execution hands in a baseline of its own; the second fails to store its results.
    const plan = [
      { readAt: '2026-11-27T10:00:00.000Z', title: 'first', fails: false },
      { readAt: '2026-11-27T11:00:00.000Z', title: 'second', fails: true },
      { readAt: '2026-11-27T12:00:00.000Z', title: 'third', fails: false },
      { readAt: '2026-11-27T09:00:00.000Z', title: 'older', fails: false },
    ];
    let n = 0;
    const id = await createWith(org, (real) => async (env, db, watch, key) => {
      const step = plan[n++]!;
      const prepared = await real(env, db, watch, key);
      return {
        ...prepared,
        pageBaseline: { meta: { executionId: key, readAt: step.readAt, sequence: n, complete: true }, rows: [row(step.title)] },
        commit: step.fails ? async () => Promise.reject(new Error('D1 is down')) : prepared.commit,
      };
    }, { costCapMicros: 30_000 });
    await untilExecutions(id, 1);
    expect((await baselineOf(id))?.rows.map((r) => r.title)).toEqual(['first']);

    expect((await runNow(org.key, id)).outcome).toBe('failed');
    expect((await baselineOf(id))?.rows.map((r) => r.title)).toEqual(['first']);

    expect((await runNow(org.key, id)).outcome).toBe('succeeded');
    expect((await baselineOf(id))?.rows.map((r) => r.title)).toEqual(['third']);

    // Succeeds, but its reading is older than the one kept: the kept one stays.
    expect((await runNow(org.key, id)).outcome).toBe('succeeded');
    expect((await baselineOf(id))?.meta).toMatchObject({ readAt: '2026-11-27T12:00:00.000Z' });
  });
});
