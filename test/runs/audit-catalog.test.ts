import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';

describe('the catalog describes the audit it runs', () => {
  it("names exactly the areas the audit's report has a section for", async () => {
    const org = await createOrganization();
    const catalog = await (await call('/api/v1/commands', { key: org.key })).text();
    const entry = /Starts a background audit of your own organization \(([^)]*)\)/.exec(catalog);
    expect(entry).not.toBeNull();
    const named = entry![1]!.split(', ');

    const id = (await call('/api/v1/audit', { key: org.key, body: {} })).headers.get('X-Run-Id')!;
    const stub = env.RUNS.get(env.RUNS.idFromString(id));
    for (let i = 0; i < 50 && (await stub.read())?.status === 'running'; i++) await runDurableObjectAlarm(stub);
    const report = await (await call(`/api/v1/runs/audit/${id}`, { key: org.key })).text();
    const sections = [...report.matchAll(/^## (.+)$/gm)].map((match) => match[1]!);
    const areas = sections.filter((title) => !['Scorecard', 'Recommendations', 'Method', 'Sources'].includes(title));
    expect(named).toEqual(areas);
  });
});
