import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { WatchView } from '../../src/ground/schemas/watch.ts';
import { call } from '../helpers/fixtures.ts';
import { createWatch, executionsOf, fireDueAlarm, json, marketOrganization, stubOf, untilExecutions } from './helpers.ts';

const FACTS_SOURCE = {
  type: 'source',
  key: 'https://news.example/globex-profile',
  properties: {
    title: 'Globex company profile',
    publishedAt: '2026-06-01',
    content:
      'Globex was founded in 2009, is headquartered in Chicago, Illinois and employs about 1,450 people. ' +
      'Analysts say a rival has 90,000 employees and is headquartered in Springfield.',
  },
};

async function importLines(key: string, lines: object[]) {
  const response = await call('/api/v1/oms/objects/import', {
    key,
    method: 'POST',
    rawBody: lines.map((l) => JSON.stringify(l)).join('\n'),
    headers: { 'Content-Type': 'application/x-ndjson' },
  });
  expect(response.status).toBe(200);
}

async function provenance(key: string, company: string) {
  return json<{
    properties: { name: string; value: unknown; source: { kind: string; id: string; url?: string } }[];
    history: { property: string; from: unknown; to: unknown; source: { kind: string; id: string } }[];
  }>(await call('/api/v1/oms/objects/provenance', { key, body: { type: 'company', key: company } }), 200);
}

async function jobTimes(id: string): Promise<number[]> {
  return runInDurableObject(stubOf(id), (_i, state) =>
    state.storage.sql.exec<{ time: number }>(`SELECT time FROM cf_agents_jobs WHERE fn = 'scheduledExecution' ORDER BY time`).toArray().map((r) => r.time),
  );
}

describe('a watch executing', () => {
  it('runs its first execution at once, charges exactly the tier price, stores a brief about the target and mirrors D1', async () => {
    const org = await marketOrganization();
    const created = await createWatch(org.key);
    expect(created).toMatchObject({ status: 'active', spentMicros: 0, executions: 0, lastRunAt: null, cancelledAt: null, query: null });
    expect(Date.parse(created.nextRunAt!)).toBeLessThanOrEqual(Date.now());

    const [first] = await untilExecutions(created.id, 1);
    expect(first).toMatchObject({ watchId: created.id, outcome: 'succeeded', costMicros: 3000, briefKey: first!.id });
    const watch = await json<WatchView>(await call(`/api/v1/oms/watches?id=${created.id}`, { key: org.key }), 200);
    expect(watch).toMatchObject({ status: 'active', spentMicros: 3000, executions: 1, lastRunAt: first!.finishedAt });
    // Next: one period after this execution.
    expect(Date.parse(watch.nextRunAt!) - Date.parse(first!.finishedAt)).toBeGreaterThan(86_400_000 - 5_000);
    expect(Date.parse(watch.nextRunAt!) - Date.parse(first!.finishedAt)).toBeLessThanOrEqual(86_400_000 + 1_000);
    const row = await env.DB.prepare('SELECT spent_micros, executions, status, next_run_at FROM watches WHERE id = ?').bind(created.id).first();
    expect(row).toEqual({ spent_micros: 3000, executions: 1, status: 'active', next_run_at: watch.nextRunAt });

    // The brief: pivotable from the target, citing its sources, written by the watch.
    const briefs = await json<{ objects: { key: string; properties: { topic: string; tier: string } }[] }>(
      await call('/api/v1/oms/objects/pivot', { key: org.key, body: { type: 'company', key: 'globex.com', link: 'briefs' } }),
      200,
    );
    expect(briefs.objects.map((b) => b.key)).toEqual([first!.briefKey]);
    expect(briefs.objects[0]!.properties).toMatchObject({ topic: 'Globex', tier: 'lite' });
    const cites = await json<{ objects: unknown[] }>(
      await call('/api/v1/oms/objects/pivot', { key: org.key, body: { type: 'brief', key: first!.briefKey, link: 'cites' } }),
      200,
    );
    expect(cites.objects.length).toBeGreaterThan(0);
  });

  it('writes the facts its cited sentences state, with provenance kind watch, the source URL, and history of what changed', async () => {
    const org = await marketOrganization();
    await importLines(org.key, [{ type: 'company', key: 'globex.com', properties: { name: 'Globex', headquarters: 'Springfield', employees: 900 } }, FACTS_SOURCE]);
    const created = await createWatch(org.key, { target: { type: 'company', key: 'globex.com' }, query: 'Globex founded headquartered employees', frequency: '1d', tier: 'lite', costCapMicros: 9000 });
    const [first] = await untilExecutions(created.id, 1);
    expect(first!.outcome).toBe('succeeded');
    expect(first!.changes).toEqual(
      expect.arrayContaining([
        { property: 'founded', from: null, to: 2009 },
        { property: 'headquarters', from: 'Springfield', to: 'Chicago, Illinois' },
        { property: 'employees', from: 900, to: 1450 },
      ]),
    );
    const object = await json<{ properties: Record<string, unknown> }>(await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'company', key: 'globex.com' } }), 200);
    expect(object.properties).toMatchObject({ name: 'Globex', founded: 2009, headquarters: 'Chicago, Illinois', employees: 1450 });

    const { properties, history } = await provenance(org.key, 'globex.com');
    for (const name of ['founded', 'headquarters', 'employees']) {
      expect(properties.find((p) => p.name === name)?.source).toEqual({ kind: 'watch', id: created.id, url: FACTS_SOURCE.key });
    }
    // The name was not refreshed: its provenance stays the import's.
    expect(properties.find((p) => p.name === 'name')?.source.kind).toBe('import');
    expect(history.find((h) => h.property === 'headquarters' && h.source.kind === 'watch')).toMatchObject({ from: 'Springfield', to: 'Chicago, Illinois', source: { id: created.id } });

    // The same facts again change nothing and add no history.
    const second = await json<{ changes: unknown[]; outcome: string }>(await call(`/api/v1/oms/watches/run?id=${created.id}`, { key: org.key, method: 'POST' }), 200);
    expect(second).toMatchObject({ outcome: 'succeeded', changes: [] });
    expect((await provenance(org.key, 'globex.com')).history.filter((h) => h.source.kind === 'watch')).toHaveLength(history.filter((h) => h.source.kind === 'watch').length);
  });

  it('executes again when its schedule comes due; run-now executes at once without moving the schedule', async () => {
    const org = await marketOrganization();
    const created = await createWatch(org.key, { target: { type: 'company', key: 'globex.com' }, frequency: '6h', tier: 'lite', costCapMicros: 30000 });
    await untilExecutions(created.id, 1);
    const scheduled = await jobTimes(created.id);
    expect(scheduled).toHaveLength(1);

    const run = await json<{ outcome: string; costMicros: number }>(await call(`/api/v1/oms/watches/run?id=${created.id}`, { key: org.key, method: 'POST' }), 200);
    expect(run).toMatchObject({ outcome: 'succeeded', costMicros: 3000 });
    expect(await jobTimes(created.id)).toEqual(scheduled);

    expect(await fireDueAlarm(created.id)).toBe(true);
    const executions = await executionsOf(created.id);
    expect(executions).toHaveLength(3);
    const after = (await stubOf(created.id).get())!;
    expect(after).toMatchObject({ spentMicros: 9000, executions: 3, status: 'active' });
    // The interval moved one period on from the scheduled execution.
    const [next] = await jobTimes(created.id);
    expect(next! - Date.parse(executions[0]!.finishedAt)).toBeGreaterThan(6 * 3600_000 - 5_000);
    expect(Date.parse(after.nextRunAt!)).toBe(Math.floor(next! / 1000) * 1000);
  });
});
