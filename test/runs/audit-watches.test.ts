import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { auditWatches } from '../../src/db/watches.ts';
import type { WatchView } from '../../src/ground/schemas/watch.ts';
import { call, createKey } from '../helpers/fixtures.ts';
import { decide, importLines, requestThroughRest } from '../operations/action-helpers.ts';
import {
  createAndSettle,
  createWith,
  failing,
  fireDueAlarm,
  GLOBEX_PRICING_WATCH,
  importPricingPage,
  json,
  marketOrganization,
  NEW_PRICE,
  OLD_PRICE,
  runNow,
  stubOf,
  untilExecutions,
} from '../watches/helpers.ts';
import { auditReport, section } from './audit-helpers.ts';

const watchOn = (key: string, costCapMicros = 9000) => ({ target: { type: 'company', key }, frequency: '1d', tier: 'lite', costCapMicros });

describe('the audit reviews research watches', () => {
  it("names failing, dangling, capped and nearly capped watches, with spend against caps per watch and in total, and none of another organization's", async () => {
    const org = await marketOrganization();
    const other = await marketOrganization();
    await importLines(org, [{ type: 'company', key: 'initech.com', properties: { name: 'Initech' } }]);

    const capped = await createAndSettle(org.key, watchOn('globex.com', 3000));
    expect(capped.status).toBe('capped');
    const near = await createAndSettle(org.key, watchOn('globex.com', 15_000));
    for (let i = 0; i < 3; i++) await json(await call(`/api/v1/oms/watches/run?id=${near.id}`, { key: org.key, method: 'POST' }), 200);
    const cancelled = await createAndSettle(org.key, watchOn('acme.com'));
    await json(await call(`/api/v1/oms/watches?id=${cancelled.id}`, { key: org.key, method: 'DELETE' }), 200);
    const dangling = await createAndSettle(org.key, watchOn('initech.com'));
    const failingId = await createWith(org, failing);
    for (let i = 0; i < 10 && (await stubOf(failingId).get())!.status !== 'failing'; i++) await fireDueAlarm(failingId);
    expect((await stubOf(failingId).get())!.status).toBe('failing');
    await createAndSettle(other.key, watchOn('globex.com'));

    // Initech goes away (a delete approved by another key): its watch now watches nothing.
    const approver = await createKey(org.id);
    const request = await requestThroughRest(org.key, { action: 'delete_object', params: { type: 'company', key: 'initech.com' } });
    expect((await decide(approver.key, request.id, 'approve')).status).toBe(200);

    const report = await auditReport(org.key);
    const watches = section(report, 'Research watches');
    expect(watches).toContain('Score: **60/100**.');
    expect(watches).toContain('5 watch(es): 2 active, 1 failing, 1 capped, 1 cancelled; 1 whose target no longer exists; 21,000 micros ($0.0210) spent; 0 execution(s) with changes.');
    expect(watches).toContain(
      '- Spent in total: 21,000 micros ($0.0210); the 3 open (active or failing) watch(es): 15,000 micros ($0.0150) of their 33,000 micros ($0.0330) caps, 18,000 micros ($0.0180) left',
    );
    expect(watches).toContain(`  - ${failingId}: company globex.com, spent 0 micros ($0.0000) of 9,000 micros ($0.0090) (0%), last run `);
    expect(watches).toContain(`  - ${dangling.id}: company initech.com (active)`);
    expect(watches).toContain(`  - ${capped.id}: company globex.com, spent 3,000 micros ($0.0030) of 3,000 micros ($0.0030) (100%)`);
    // Open watches nearest their cap: the one at 80% first, then the dangling one at 33%.
    const nearest = watches.slice(watches.indexOf('- Open watches nearest their cap'));
    expect(nearest.indexOf(near.id)).toBeLessThan(nearest.indexOf(dangling.id));
    expect(nearest).toContain(`  - ${near.id}: company globex.com (lite, active), spent 12,000 micros ($0.0120) of 15,000 micros ($0.0150) (80%)`);
    expect(watches).not.toContain(cancelled.id.concat(':'));

    const fixes = section(report, 'Recommendations');
    expect(fixes).toContain(`Watch ${dangling.id} (active) watches company initech.com, which no longer exists: cancel it, or import the company again.`);
    expect(fixes).toContain(`GET /api/v1/oms/watches/executions?id=${failingId}`);
    expect(fixes).toContain(`Watch ${near.id} on company globex.com has spent 12,000 micros ($0.0120) of 15,000 micros ($0.0150) (80%): 1 more execution(s) before it is capped.`);
    expect(fixes).toContain(`Watch ${capped.id} on company globex.com is capped`);
    expect(section(report, 'Method')).toContain('Research watches: 20 points off per open watch that is failing');

    // The other organization's watch is not counted; its own audit sees only it.
    const theirs = section(await auditReport(other.key), 'Research watches');
    expect(theirs).toContain('1 watch(es): 1 active, 0 failing, 0 capped, 0 cancelled; 0 whose target no longer exists; 3,000 micros ($0.0030) spent; 0 execution(s) with changes.');
    expect(theirs).toContain('Score: **100/100**.');
  });

  it('counts the executions with changes (a cited claim added or removed since the execution before), from the D1 mirror', async () => {
    const org = await marketOrganization();
    await importPricingPage(org.key, OLD_PRICE);
    const watch = await createAndSettle(org.key, GLOBEX_PRICING_WATCH);
    expect((await runNow(org.key, watch.id)).findings).toMatchObject({ added: [], removed: [] });
    await importPricingPage(org.key, NEW_PRICE);
    const changed = await runNow(org.key, watch.id);
    expect(changed.findings?.added).toHaveLength(1);
    expect((await runNow(org.key, watch.id)).findings).toMatchObject({ added: [], removed: [] });
    // A failed execution is no change either.
    const failed = await untilExecutions(await createWith(org, failing), 1);
    expect(failed[0]).toMatchObject({ outcome: 'failed', findings: null });

    const row = await env.DB.prepare('SELECT executions, executions_with_changes AS changed FROM watches WHERE id = ?').bind(watch.id).first();
    expect(row).toEqual({ executions: 4, changed: 1 });
    const audit = await auditWatches(env.DB, org.id, 100, 10);
    expect(audit).toMatchObject({ executions: 4, executionsWithChanges: 1 });
    const watches = section(await auditReport(org.key), 'Research watches');
    expect(watches).toContain('spent; 1 execution(s) with changes.');
    expect(watches).toContain('- Executions with changes (their brief added or removed a cited claim since the execution before): 1 of 4 charged execution(s)');
  });

  it('is unscored without watches', async () => {
    const org = await marketOrganization();
    const watches = section(await auditReport(org.key), 'Research watches');
    expect(watches).toContain('Score: **n/a**. No research watches.');
  });

  it('reads a bounded number of watches and names at most the given number per list', async () => {
    const org = await marketOrganization();
    const made: WatchView[] = [];
    for (let i = 0; i < 3; i++) made.push(await createAndSettle(org.key, watchOn('globex.com', 3000)));
    const audit = await auditWatches(env.DB, org.id, 2, 1);
    expect(audit.examined).toBe(2);
    expect(audit.byStatus.capped).toBe(2);
    // The newest two were examined; one is named.
    expect(audit.capped.map((w) => w.id)).toEqual([made[2]!.id]);
    const all = await auditWatches(env.DB, org.id, 100, 10);
    expect(all.capped.map((w) => w.id)).toEqual(made.map((w) => w.id).reverse());
    expect(all.spentMicros).toBe(9000);
  });
});
