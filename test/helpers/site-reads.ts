import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { SiteLog } from '../../scripts/lib/site-types.ts';
import { call, type TestOrganization } from './fixtures.ts';
import { resetSiteLog, siteLog } from './sites.ts';

/** A site read run to its end: its id, the final poll's markdown and X-Run-Status. */
export interface FinishedRead {
  id: string;
  report: string;
  status: string | null;
}

/** Advances the run `id` (any kind) on its object's alarms until it is no longer running. */
export async function advanceToEnd(id: string): Promise<void> {
  const stub = env.RUNS.get(env.RUNS.idFromString(id));
  // Each alarm runs one `advance`; while a slice is still working, none is armed yet: wait a little.
  for (let i = 0; i < 3_000 && (await stub.read())?.status === 'running'; i++) {
    if (!(await runDurableObjectAlarm(stub))) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts a read through POST /api/v1/oms/sites and advances its object until it ends. */
export async function readSiteToEnd(org: TestOrganization, body: Record<string, unknown>): Promise<FinishedRead> {
  const start = await call('/api/v1/oms/sites', { key: org.key, body });
  expect(start.status).toBe(202);
  expect(start.headers.get('X-Run-Status')).toBe('running');
  const id = start.headers.get('X-Run-Id')!;
  expect(start.headers.get('Location')).toBe(`/api/v1/runs/site-read/${id}`);
  await advanceToEnd(id);
  const done = await call(`/api/v1/runs/site-read/${id}`, { key: org.key });
  expect(done.status).toBe(200);
  return { id, report: await done.text(), status: done.headers.get('X-Run-Status') };
}

/** A read of `domain` by `org` to its end, from an empty request log, and the site's log after it. */
export async function readWithLog(org: TestOrganization, domain: string, body: Record<string, unknown> = {}): Promise<{ read: FinishedRead; log: SiteLog }> {
  await resetSiteLog(domain);
  const read = await readSiteToEnd(org, { domain, ...body });
  return { read, log: await siteLog(domain) };
}
