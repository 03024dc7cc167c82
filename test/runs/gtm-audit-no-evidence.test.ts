import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { RUBRIC } from '../../src/runs/rubric.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';

describe('gtm-audit of a company with no sources', () => {
  it('says "no evidence found" in every area, with no score and no advice', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const start = await call('/api/v1/commands/gtm-audit', { key: org.key, body: { company: 'unknown-vendor.io' } });
    const id = start.headers.get('X-Run-Id')!;
    const stub = env.RUNS.get(env.RUNS.idFromString(id));
    for (let i = 0; i < 30 && (await stub.read())?.status === 'running'; i++) await runDurableObjectAlarm(stub);
    const report = await (await call(`/api/v1/runs/gtm-audit/${id}`, { key: org.key })).text();
    expect(report).toContain('overall score n/a');
    const rows = report.split('\n').filter((line) => /^\| (?!Area|---)/.test(line));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row).toMatch(/^\| [\w ]+ \| no evidence found \| No source in your knowledge base is about unknown-vendor\.io\. \|$/);
    expect(report).not.toMatch(/\d+\/100/);
    expect(report).not.toContain('## Recommendations');
    expect(report).not.toContain('Evidence:');
    // No advice to a company we know nothing about: none of the rubric's advice appears.
    for (const { points } of Object.values(RUBRIC)) for (const point of points) expect(report).not.toContain(point.advice);
    expect(report.split('\n## Method\n')[0]).not.toMatch(/publish|consider|offer/i);
  });
});
