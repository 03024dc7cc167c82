import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord, WatchView } from '../../src/ground/schemas/watch.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { json, untilExecutions } from './helpers.ts';

describe('issue 13, done when: on the demo market', () => {
  it("a lite watch on a competitor of Acme Analytics with a 9000 cap, run until it refuses: capped at 9000, three briefs on the target, provenance watch", { timeout: 60_000 }, async () => {
    const org = await createOrganization();
    const imported = await call('/api/v1/oms/objects/import', { key: org.key, method: 'POST', rawBody: env.TEST_KNOWLEDGE_BASE, headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(imported.status).toBe(200);
    const competitors = await json<{ objects: { key: string }[] }>(
      await call('/api/v1/oms/objects/pivot', { key: org.key, body: { type: 'company', key: 'acme.com', link: 'competitors' } }),
      200,
    );
    const target = competitors.objects[0]!.key;
    expect(competitors.objects.map((o) => o.key)).toContain(target);

    const watch = await json<WatchView>(
      await call('/api/v1/oms/watches', { key: org.key, body: { target: { type: 'company', key: target }, frequency: '1d', tier: 'lite', costCapMicros: 9000 } }),
      201,
    );
    await untilExecutions(watch.id, 1);
    const runs: ExecutionRecord[] = [];
    let refusal: Response | undefined;
    for (let i = 0; i < 5 && !refusal; i++) {
      const response = await call(`/api/v1/oms/watches/run?id=${watch.id}`, { key: org.key, method: 'POST' });
      if (response.status === 409) refusal = response;
      else runs.push(await json<ExecutionRecord>(response, 200));
    }
    expect(runs).toHaveLength(2);
    expect(await refusal!.json()).toMatchObject({ error: 'conflict', message: expect.stringContaining('is capped: it spent 9000 of its 9000 micros') });

    const after = await json<WatchView>(await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key }), 200);
    expect(after).toMatchObject({ status: 'capped', spentMicros: 9000, executions: 3, nextRunAt: null });

    const briefs = await json<{ objects: { key: string; properties: { markdown: string } }[] }>(
      await call('/api/v1/oms/objects/pivot', { key: org.key, body: { type: 'company', key: target, link: 'briefs' } }),
      200,
    );
    expect(briefs.objects).toHaveLength(3);
    for (const brief of briefs.objects) expect(brief.properties.markdown).toMatch(/^# Research brief: /);

    const [first] = await untilExecutions(watch.id, 3).then((all) => all.slice(-1));
    expect(first!.changes.length).toBeGreaterThan(0);
    const provenance = await json<{ properties: { name: string; source: { kind: string; id: string; url?: string } }[] }>(
      await call('/api/v1/oms/objects/provenance', { key: org.key, body: { type: 'company', key: target } }),
      200,
    );
    for (const change of first!.changes) {
      const source = provenance.properties.find((p) => p.name === change.property)!.source;
      expect(source).toMatchObject({ kind: 'watch', id: watch.id });
      expect(source.url).toMatch(/^https:\/\//);
    }
  });
});
