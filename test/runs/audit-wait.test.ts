import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/ground/errors.ts';
import { waitForRun } from '../../src/operations/runs/runs.ts';
import type { RunObject } from '../../src/runs/run-object.ts';
import { RUN_PLANS } from '../../src/runs/plans.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { plansWithSteps } from '../helpers/run-plans.ts';
import { importMarket } from '../helpers/market.ts';
import { requestDbOver } from '../helpers/request-db.ts';

/**
 * Starts an audit through the API and makes its later steps wait for `held`. The run starts at
 * once, so on a loaded machine it can get far before the hold is in place: a run with fewer than
 * two steps pending (one may be running already) is left to finish, and another is started.
 */
async function startHeldAudit(key: string, held: Promise<void>): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = await call('/api/v1/audit', { key, body: {} });
    const id = started.headers.get('X-Audit-Id')!;
    const pending = await runInDurableObject(env.RUNS.get(env.RUNS.idFromString(id)), async (instance: RunObject) => {
      instance.plans = plansWithSteps('audit', async (...args) => (await held, RUN_PLANS.audit.executeStep(...args)));
      const run = await instance.read();
      return run!.status === 'running' ? run!.steps.filter((step) => step.status === 'pending').length : 0;
    });
    if (pending >= 2) return id;
  }
  throw new Error('every audit finished before its steps could be held');
}

describe('POST /api/v1/audit', () => {
  it('with ?wait=true returns the finished audit inline, readable later by its id', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const response = await call('/api/v1/audit?wait=true', { key: org.key, body: {} });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Run-Status')).toBe('completed');
    const markdown = await response.text();
    expect(markdown).toMatch(/^# Organization audit/);
    const id = response.headers.get('X-Audit-Id')!;
    const later = await call(`/api/v1/audit?id=${id}`, { key: org.key });
    expect(await later.text()).toBe(markdown);
  });

  it('takes wait as a body field too, and starts without waiting by default', async () => {
    const org = await createOrganization();
    const waited = await call('/api/v1/audit', { key: org.key, body: { wait: true } });
    expect(waited.status).toBe(200);
    const started = await call('/api/v1/audit', { key: org.key, body: {} });
    expect(started.status).toBe(202);
    expect(started.headers.get('X-Audit-Id')).toMatch(/^[0-9a-f]{64}$/);
    expect((await call('/api/v1/audit', { key: org.key, body: { wait: 'yes' } })).status).toBe(400);
    expect((await call('/api/v1/audit?wait=maybe', { key: org.key, body: {} })).status).toBe(400);
  });

  it('answers 504 with the run id once the wait limit passes, and the run still completes', async () => {
    const org = await createOrganization();
    // Hold the run at a step for a while, as a slow step would.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const id = await startHeldAudit(org.key, held);
    const principal = { organization: { id: org.id, slug: org.slug, name: org.slug }, keyId: org.keyId, scopes: ['commands'] as const };
    const ctx = { env: { ...env, AUDIT_WAIT_TIMEOUT_MS: '1000' }, db: requestDbOver(), principal, requestId: 'test' };
    const error = await waitForRun(ctx, 'audit', id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(504);
    expect((error as DomainError).run).toEqual({ id, kind: 'audit' });

    release();
    const done = await waitForRun({ ...ctx, env }, 'audit', id);
    expect(done.status).toBe('completed');
  });
});
