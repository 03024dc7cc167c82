import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { call } from '../helpers/fixtures.ts';

/** Runs the organization audit of `key` to its end and returns the report. */
export async function auditReport(key: string): Promise<string> {
  const id = (await call('/api/v1/audit', { key, body: {} })).headers.get('X-Run-Id')!;
  const stub = env.RUNS.get(env.RUNS.idFromString(id));
  for (let i = 0; i < 50 && (await stub.read())?.status === 'running'; i++) await runDurableObjectAlarm(stub);
  return (await call(`/api/v1/runs/audit/${id}`, { key })).text();
}

/** The report's section `title`, heading included, up to the next section. */
export function section(report: string, title: string): string {
  const start = report.indexOf(`## ${title}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = report.indexOf('\n## ', start + 1);
  return report.slice(start, end === -1 ? undefined : end);
}

/** Imports NDJSON lines into the organization of `key`. */
export async function importLines(key: string, lines: unknown[]): Promise<void> {
  const body = lines.map((line) => JSON.stringify(line)).join('\n');
  const response = await call('/api/v1/oms/objects/import', { key, method: 'POST', rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
  expect(await response.json()).toMatchObject({ failed: 0 });
}
