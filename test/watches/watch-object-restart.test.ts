import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { WatchObject } from '../../src/watches/watch-object.ts';
import { createWith, executionsOf, inFlight, marketOrganization, stubOf, untilExecutions } from './helpers.ts';

describe('a watch object starting again', () => {
  it('turns executions cut off by a restart into failed, uncharged records and frees what they reserved', async () => {
    const org = await marketOrganization();
    const id = await createWith(org, (real) => real, { costCapMicros: 3000 });
    await untilExecutions(id, 1);
    // Cap 3000 spent; pretend an execution was in flight when the object stopped.
    await runInDurableObject(stubOf(id), (_i, state) => {
      state.storage.sql.exec(`INSERT INTO watch_inflight (id, started_at, reserved_micros) VALUES ('wex_cut', '2026-11-23T00:00:00.000Z', 3000)`);
    });
    expect(await inFlight(id)).toBe(1);
    await runInDurableObject(stubOf(id), (instance: WatchObject) => instance.onStart());
    expect(await inFlight(id)).toBe(0);
    const [cut] = await executionsOf(id);
    expect(cut).toMatchObject({ id: 'wex_cut', watchId: id, outcome: 'failed', costMicros: 0, startedAt: '2026-11-23T00:00:00.000Z', error: expect.stringContaining('interrupted') });
    expect(await stubOf(id).get()).toMatchObject({ spentMicros: 3000, executions: 1, status: 'capped' });
  });
});
