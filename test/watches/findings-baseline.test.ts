import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { createWith, importPricingPage, json, marketOrganization, NEW_PRICE, OLD_PRICE, PRICING_URL, runNow, stubOf, untilExecutions, NO_WEB_CHANGE } from './helpers.ts';

const PRICE_CHANGE = { added: [{ text: NEW_PRICE, url: PRICING_URL }], removed: [{ text: OLD_PRICE, url: PRICING_URL }] };

describe('what a watch execution is compared with', () => {
  it('is the last succeeded execution: a failed research in between has no findings and moves nothing', async () => {
    const org = await marketOrganization();
    await importPricingPage(org.key, OLD_PRICE);
    let calls = 0;
    const id = await createWith(
      org,
      (real) => async (...args) => {
        if (++calls === 2) throw new Error('provider down');
        return real(...args);
      },
      { costCapMicros: 30_000 },
    );
    const [first] = await untilExecutions(id, 1);
    expect(first!.findings).toEqual({ since: null, ...NO_WEB_CHANGE, added: [], removed: [] });

    await importPricingPage(org.key, NEW_PRICE);
    const failed = await runNow(org.key, id);
    expect(failed).toMatchObject({ outcome: 'failed', findings: null });
    const next = await runNow(org.key, id);
    expect(next.findings).toEqual({ since: first!.id, ...NO_WEB_CHANGE, ...PRICE_CHANGE });
  });

  it('is the last committed execution: one whose results could not be stored has no findings, and the next compares with the one before', async () => {
    const org = await marketOrganization();
    await importPricingPage(org.key, OLD_PRICE);
    let commits = 0;
    const id = await createWith(
      org,
      (real) => async (...args) => {
        const prepared = await real(...args);
        return {
          ...prepared,
          async commit(also) {
            if (++commits === 2) throw new Error('D1 unavailable');
            await prepared.commit(also);
          },
        };
      },
      { costCapMicros: 30_000 },
    );
    const [first] = await untilExecutions(id, 1);
    await importPricingPage(org.key, NEW_PRICE);

    const lost = await runNow(org.key, id);
    expect(lost).toMatchObject({ outcome: 'failed', findings: null, error: 'Storing the results failed: D1 unavailable' });
    const next = await runNow(org.key, id);
    expect(next.findings).toEqual({ since: first!.id, ...NO_WEB_CHANGE, ...PRICE_CHANGE });
    // Only the stored change is counted.
    const row = await env.DB.prepare('SELECT executions, executions_with_changes AS changed FROM watches WHERE id = ?').bind(id).first();
    expect(row).toEqual({ executions: 2, changed: 1 });
  });

  it('reads records and ledgers made before findings existed: no findings (null), the count starting at 0', async () => {
    const org = await marketOrganization();
    await importPricingPage(org.key, OLD_PRICE);
    const id = await createWith(org, (real) => real, { costCapMicros: 30_000 });
    await untilExecutions(id, 1);
    // Make the object look as it did before this change: a record without findings, a ledger without the count, no baseline.
    const legacy = { id: 'wex_legacy', watchId: id, startedAt: '2026-11-01T00:00:00.000Z', finishedAt: '2026-11-01T00:00:05.000Z', outcome: 'succeeded', costMicros: 3000, briefKey: 'wex_legacy', changes: [] };
    await runInDurableObject(stubOf(id), (_instance, state) => {
      state.storage.sql.exec('DELETE FROM watch_executions');
      state.storage.sql.exec('DELETE FROM watch_baseline');
      state.storage.sql.exec(`UPDATE watch_record SET record = json_remove(record, '$.executionsWithChanges')`);
      state.storage.sql.exec('INSERT INTO watch_executions (id, record) VALUES (?, ?)', legacy.id, JSON.stringify(legacy));
    });
    const page = await json<{ executions: ExecutionRecord[] }>(await call(`/api/v1/oms/watches/executions?id=${id}`, { key: org.key }), 200);
    expect(page.executions).toEqual([{ ...legacy, findings: null }]);

    // Without a baseline the next execution is a first reading; the one after it reports the change and counts from 0.
    const reading = await runNow(org.key, id);
    expect(reading.findings).toEqual({ since: null, ...NO_WEB_CHANGE, added: [], removed: [] });
    await importPricingPage(org.key, NEW_PRICE);
    expect((await runNow(org.key, id)).findings).toEqual({ since: reading.id, ...NO_WEB_CHANGE, ...PRICE_CHANGE });
    const row = await env.DB.prepare('SELECT executions_with_changes AS changed FROM watches WHERE id = ?').bind(id).first();
    expect(row).toEqual({ changed: 1 });
  });
});
