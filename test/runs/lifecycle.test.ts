import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';

/** Fires the run's alarms until it stops running (alarms may also fire on their own). */
async function driveToEnd(id: string): Promise<void> {
  const stub = env.RUNS.get(env.RUNS.idFromString(id));
  for (let i = 0; i < 50; i++) {
    const run = await stub.read();
    if (run && run.status !== 'running') return;
    await runDurableObjectAlarm(stub);
  }
  throw new Error('run did not finish');
}

describe('gtm-audit runs', () => {
  it('starts with 202 and run headers, polls with a step line, and completes with a scored, cited report', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const start = await call('/api/v1/commands/gtm-audit', { key: org.key, body: { focus: ['pricing', 'icp', 'competition'] } });
    expect(start.status).toBe(202);
    const id = start.headers.get('X-Run-Id')!;
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(start.headers.get('X-Run-Status')).toBe('running');
    expect(start.headers.get('Location')).toBe(`/api/v1/runs/gtm-audit/${id}`);
    expect(start.headers.get('X-Audit-Id')).toBeNull();

    const poll = await call(`/api/v1/runs/gtm-audit/${id}`, { key: org.key });
    expect(poll.status).toBe(200);
    if (poll.headers.get('X-Run-Status') === 'running') {
      expect(await poll.text()).toMatch(/^Running gtm-audit for acme\.com: step [1-3] of 3 \((pricing|icp|competition)\)/);
      expect(poll.headers.get('Retry-After')).toBe('2');
    }

    await driveToEnd(id);
    const done = await call(`/api/v1/runs/gtm-audit/${id}`, { key: org.key });
    expect(done.headers.get('X-Run-Status')).toBe('completed');
    const markdown = await done.text();
    expect(markdown).toMatch(/^# GTM audit: Acme Analytics/);
    expect(markdown).toContain('## Scorecard');
    expect(markdown).toMatch(/\| Pricing \| \d+\/100 \|/);
    expect(markdown).toContain('## Recommendations');
    expect(markdown).toContain('## Method');
    expect(markdown).toMatch(/^\[1\] .+, https:\/\/\S+$/m);
  });

  it("answers another organization's run id, a wrong kind and a malformed id with 404", async () => {
    const owner = await createOrganization();
    const other = await createOrganization();
    const start = await call('/api/v1/commands/gtm-audit', { key: owner.key, body: {} });
    const id = start.headers.get('X-Run-Id')!;
    expect((await call(`/api/v1/runs/gtm-audit/${id}`, { key: other.key })).status).toBe(404);
    expect((await call(`/api/v1/runs/audit/${id}`, { key: owner.key })).status).toBe(404);
    expect((await call('/api/v1/runs/gtm-audit/nope', { key: owner.key })).status).toBe(404);
    expect((await call(`/api/v1/runs/gtm-audit/${'0'.repeat(64)}`, { key: owner.key })).status).toBe(404);
    expect((await call(`/api/v1/runs/gtm-audit/${id}`, { key: other.key, method: 'DELETE' })).status).toBe(404);
  });
});

describe('audit runs', () => {
  it('audits the organization: profile, go-to-market, data and keys, with a fix list', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const start = await call('/api/v1/commands/audit', { key: org.key, body: {} });
    expect(start.status).toBe(202);
    const id = start.headers.get('X-Audit-Id')!;
    expect(start.headers.get('X-Run-Id')).toBe(id);
    await driveToEnd(id);
    const done = await call(`/api/v1/audit?id=${id}`, { key: org.key });
    expect(done.headers.get('X-Run-Status')).toBe('completed');
    const markdown = await done.text();
    expect(markdown).toMatch(/^# Organization audit: Acme Analytics/);
    for (const area of ['Sales profile', 'Go-to-market', 'Data in the OMS', 'API keys']) expect(markdown).toContain(`## ${area}`);
    expect(markdown).toMatch(/overall score \d+\/100/);
    expect(markdown).toMatch(/^\d+\. \*\*high\*\* \(Go-to-market\) .* Where: Acme Analytics's .*POST \/api\/v1\/oms\/sources/m);
  });

  it('lists runs newest first with a cursor', async () => {
    const org = await createOrganization();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await call('/api/v1/commands/gtm-audit', { key: org.key, body: { focus: ['pricing'] } })).headers.get('X-Run-Id')!);
      await new Promise((r) => setTimeout(r, 5));
    }
    const first = await (await call('/api/v1/runs?limit=2', { key: org.key })).json<{ runs: { id: string }[]; nextCursor: string }>();
    expect(first.runs.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const second = await (await call(`/api/v1/runs?limit=2&cursor=${first.nextCursor}`, { key: org.key })).json<{ runs: { id: string }[]; nextCursor: null }>();
    expect(second.runs.map((r) => r.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
    expect((await call('/api/v1/runs?cursor=garbage', { key: org.key })).status).toBe(400);
  });
});
