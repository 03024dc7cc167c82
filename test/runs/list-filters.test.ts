import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { mirrorRun } from '../../src/db/runs.ts';
import type { RunKind, RunRecord, RunStatus } from '../../src/runs/types.ts';
import { call, createOrganization, type TestOrganization } from '../helpers/fixtures.ts';

interface ListedRun {
  id: string;
  kind: string;
  status: string;
  args: Record<string, unknown>;
}
interface RunList {
  runs: ListedRun[];
  nextCursor: string | null;
}
interface ErrorBody {
  error: string;
  message: string;
  details: { path: string; message: string }[];
}

async function list(org: TestOrganization, query: string): Promise<RunList> {
  const response = await call(`/api/v1/runs${query}`, { key: org.key });
  expect(response.status, query).toBe(200);
  return response.json<RunList>();
}

const ids = async (org: TestOrganization, query: string) => (await list(org, query)).runs.map((run) => run.id);

/**
 * Summary rows of the organization's runs in the real D1 table, written by the run objects' own
 * mirror, with statuses no race can change: the list reads only these rows.
 */
async function runRows(org: TestOrganization, rows: [name: string, kind: RunKind, status: RunStatus][]): Promise<Record<string, string>> {
  const named: Record<string, string> = {};
  for (const [index, [name, kind, status]] of rows.entries()) {
    const at = new Date(Date.UTC(2026, 10, 1, 12, index)).toISOString();
    const run: RunRecord = {
      id: env.RUNS.newUniqueId().toString(),
      kind,
      organizationId: org.id,
      target: 'acme.com',
      args: {},
      status,
      steps: [{ name: 'pricing', status: status === 'running' ? 'pending' : 'done', attempts: 0 }],
      createdAt: at,
      updatedAt: at,
      ...(status === 'running' ? {} : { finishedAt: at }),
    };
    await mirrorRun(env.DB, run);
    named[name] = run.id;
  }
  return named;
}

/** Fires the run's alarms until it stops running. */
async function driveToEnd(id: string): Promise<void> {
  const stub = env.RUNS.get(env.RUNS.idFromString(id));
  for (let i = 0; i < 50; i++) {
    if ((await stub.read())?.status !== 'running') return;
    await runDurableObjectAlarm(stub);
  }
  throw new Error('run did not finish');
}

describe('GET /api/v1/runs: filters', () => {
  it('filters by kind, by status and by both, newest first', async () => {
    const org = await createOrganization();
    const run = await runRows(org, [
      ['gtmDone', 'gtm-audit', 'completed'],
      ['auditCancelled', 'audit', 'cancelled'],
      ['gtmRunning', 'gtm-audit', 'running'],
      ['gtmFailed', 'gtm-audit', 'failed'],
      ['auditRunning', 'audit', 'running'],
    ]);
    expect(await ids(org, '')).toEqual([run.auditRunning, run.gtmFailed, run.gtmRunning, run.auditCancelled, run.gtmDone]);
    expect(await ids(org, '?kind=gtm-audit')).toEqual([run.gtmFailed, run.gtmRunning, run.gtmDone]);
    expect(await ids(org, '?kind=audit')).toEqual([run.auditRunning, run.auditCancelled]);
    expect(await ids(org, '?status=running')).toEqual([run.auditRunning, run.gtmRunning]);
    expect(await ids(org, '?status=failed')).toEqual([run.gtmFailed]);
    expect(await ids(org, '?kind=gtm-audit&status=running')).toEqual([run.gtmRunning]);
    expect(await ids(org, '?status=cancelled&kind=audit')).toEqual([run.auditCancelled]);
    expect(await ids(org, '?kind=audit&status=completed')).toEqual([]);
  });

  it('pages a filtered list, and refuses its cursor under another filter', async () => {
    const org = await createOrganization();
    const run = await runRows(org, [
      ['gtmOld', 'gtm-audit', 'completed'],
      ['audit', 'audit', 'completed'],
      ['gtmNew', 'gtm-audit', 'completed'],
    ]);
    const first = await list(org, '?kind=gtm-audit&limit=1');
    expect(first.runs.map((r) => r.id)).toEqual([run.gtmNew]);
    const cursor = encodeURIComponent(first.nextCursor!);
    const second = await list(org, `?kind=gtm-audit&limit=1&cursor=${cursor}`);
    expect(second.runs.map((r) => r.id)).toEqual([run.gtmOld]);
    expect(second.nextCursor).toBeNull();

    for (const other of ['', 'kind=audit&', 'status=completed&', 'kind=gtm-audit&status=completed&']) {
      const refused = await call(`/api/v1/runs?${other}limit=1&cursor=${cursor}`, { key: org.key });
      expect(refused.status, other).toBe(400);
      expect((await refused.json<ErrorBody>()).details, other).toEqual([{ path: 'cursor', message: 'invalid or expired page token' }]);
    }
  });

  it('refuses an unknown kind or status with 400 naming the allowed values, and an unknown parameter', async () => {
    const org = await createOrganization();
    const kind = await call('/api/v1/runs?kind=research', { key: org.key });
    expect(kind.status).toBe(400);
    const kindBody = await kind.json<ErrorBody>();
    expect(kindBody.error).toBe('invalid_input');
    expect(kindBody.details.map((d) => d.path)).toEqual(['kind']);
    for (const value of ['"gtm-audit"', '"audit"']) expect(kindBody.message).toContain(value);

    const status = await call('/api/v1/runs?status=done', { key: org.key });
    expect(status.status).toBe(400);
    const statusBody = await status.json<ErrorBody>();
    expect(statusBody.details.map((d) => d.path)).toEqual(['status']);
    for (const value of ['running', 'completed', 'failed', 'cancelled']) expect(statusBody.message).toContain(`"${value}"`);

    const unknown = await call('/api/v1/runs?state=running', { key: org.key });
    expect(unknown.status).toBe(400);
    expect((await unknown.json<ErrorBody>()).details).toEqual([{ path: 'state', message: "unknown field 'state' (did you mean 'status'?)" }]);
  });
});

describe('GET /api/v1/runs: arguments', () => {
  it('shows each run with the arguments it was started with', async () => {
    const org = await createOrganization();
    const started: Record<string, string> = {};
    for (const [name, command, body] of [
      ['named', 'gtm-audit', { company: 'https://www.Globex.com/about', focus: ['pricing'] }],
      ['own', 'gtm-audit', { focus: ['icp', 'content'], userContext: 'board meeting on Friday' }],
      ['audit', 'audit', {}],
    ] as const) {
      const response = await call(`/api/v1/commands/${command}`, { key: org.key, body });
      expect(response.status).toBe(202);
      started[name] = response.headers.get('X-Run-Id')!;
    }
    for (const id of Object.values(started)) await driveToEnd(id);

    const byId = new Map((await list(org, '')).runs.map((run) => [run.id, run]));
    // The validated input: the company normalized, nothing derived (the resolved subject) added.
    expect(byId.get(started.named!)?.args).toEqual({ company: 'globex.com', focus: ['pricing'] });
    expect(byId.get(started.own!)?.args).toEqual({ focus: ['icp', 'content'], userContext: 'board meeting on Friday' });
    expect(byId.get(started.audit!)?.args).toEqual({});
  });
});
