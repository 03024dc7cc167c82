import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { WatchObject } from '../../src/watches/watch-object.ts';
import { noChangeCounts, type ExecutionRecord, type WatchView } from '../../src/ground/schemas/watch.ts';
import type { PreparedExecution, WatchToResearch } from '../../src/watches/execution.ts';
import { randomId } from '../../src/ground/api-key.ts';
import { call, createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import type { ObjectDb } from '../../src/db/d1-sessions.ts';

/** An organization with the small test market (acme.com, globex.com and their sources). */
export async function marketOrganization(options: Parameters<typeof createOrganization>[0] = {}): Promise<TestOrganization> {
  const org = await createOrganization(options);
  await importMarket(org.key);
  return org;
}

export const GLOBEX_WATCH = { target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 9000 };

/** Globex's pricing page, and the sentence stating its price before and after a change. */
export const PRICING_URL = 'https://globex.com/pricing';
export const OLD_PRICE = 'Globex pricing starts at $99 per seat per month on the Team plan.';
export const NEW_PRICE = 'Globex pricing starts at $129 per seat per month on the Team plan.';

/** Imports Globex's pricing page (again) through the import endpoint, stating its price with `priceSentence`. */
export async function importPricingPage(key: string, priceSentence: string): Promise<void> {
  const page = {
    type: 'source',
    key: PRICING_URL,
    properties: { title: 'Globex pricing', publishedAt: '2026-06-01', content: `${priceSentence} Enterprise plans are quoted per contract.` },
  };
  const response = await call('/api/v1/oms/objects/import', { key, method: 'POST', rawBody: JSON.stringify(page), headers: { 'Content-Type': 'application/x-ndjson' } });
  if (response.status !== 200) throw new Error(`import failed: ${response.status} ${await response.text()}`);
}

/** A watch on Globex's pricing. */
export const GLOBEX_PRICING_WATCH = { target: { type: 'company', key: 'globex.com' }, query: 'Globex pricing', frequency: '1d', tier: 'lite', costCapMicros: 30_000 };

/** POST /api/v1/oms/watches/run?id=; 200 expected. */
export async function runNow(key: string, id: string): Promise<ExecutionRecord> {
  return json<ExecutionRecord>(await call(`/api/v1/oms/watches/run?id=${id}`, { key, method: 'POST' }), 200);
}

export async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** POST /api/v1/oms/watches; 201 expected. */
export async function createWatch(key: string, body: object = GLOBEX_WATCH): Promise<WatchView> {
  return json<WatchView>(await call('/api/v1/oms/watches', { key, body }), 201);
}

export function stubOf(id: string): DurableObjectStub<WatchObject> {
  return env.WATCHES.getByName(id);
}

export async function until(condition: () => Promise<boolean>, what = 'condition'): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${what} never held`);
}

export async function executionsOf(id: string): Promise<ExecutionRecord[]> {
  return (await stubOf(id).executionsPage(1000)).executions;
}

/** Waits until the watch has `count` execution records (its first one runs on its own alarm at creation). */
export async function untilExecutions(id: string, count: number): Promise<ExecutionRecord[]> {
  await until(async () => (await executionsOf(id)).length >= count, `${count} execution(s) of ${id}`);
  return executionsOf(id);
}

/** Creates a watch and waits for its first (automatic) execution to finish. */
export async function createAndSettle(key: string, body: object = GLOBEX_WATCH): Promise<WatchView> {
  const watch = await createWatch(key, body);
  await untilExecutions(watch.id, 1);
  return (await stubOf(watch.id).get())!;
}

/**
 * Makes every execution schedule of the watch due now and fires its alarm, as the platform does
 * when the time comes (Agent runs only due schedules). The alarm itself is left at (or set to) a
 * later time, so the platform does not fire it on its own meanwhile. Returns whether an alarm ran.
 */
export async function fireDueAlarm(id: string): Promise<boolean> {
  const stub = stubOf(id);
  await runInDurableObject(stub, async (_instance: WatchObject, state) => {
    state.storage.sql.exec(`UPDATE cf_agents_jobs SET time = ? WHERE fn IN ('scheduledExecution', 'retryExecution')`, Date.now());
    if ((await state.storage.getAlarm()) === null) await state.storage.setAlarm(Date.now() + 3_600_000);
  });
  return runDurableObjectAlarm(stub);
}

type Prepare = (env: Env, db: ObjectDb, watch: WatchToResearch, briefKey: string) => Promise<PreparedExecution>;

/** Replaces the research half of executions on this watch's object (the rest is the real object). */
export async function replacePrepare(id: string, wrap: (real: Prepare) => Prepare): Promise<void> {
  await runInDurableObject(stubOf(id), (instance: WatchObject) => {
    instance.research = wrap(instance.research);
  });
}

export interface Held {
  promise: Promise<void>;
  release: () => void;
}

export function held(): Held {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

/**
 * Creates a watch straight on its object (as the operation does after validating), with the
 * research half replaced first, so that even the first execution (which runs at once) uses it.
 */
export async function createWith(
  org: TestOrganization,
  wrap: (real: Prepare) => Prepare,
  init: Partial<{ frequency: string; tier: 'lite' | 'base'; costCapMicros: number; webhook: { url: string } | null }> = {},
): Promise<string> {
  const id = randomId('wch');
  await replacePrepare(id, wrap);
  await stubOf(id).create({
    id,
    organizationId: org.id,
    target: { type: 'company', key: 'globex.com' },
    query: null,
    frequency: init.frequency ?? '1d',
    tier: init.tier ?? 'lite',
    costCapMicros: init.costCapMicros ?? 9000,
    sourcePolicy: { include: [], exclude: [] },
    webhook: init.webhook ?? null,
    createdAt: new Date().toISOString(),
  });
  return id;
}

/** A prepare that throws, as a research provider that is down would. */
export const failing = (): Prepare => async () => {
  throw new Error('provider down');
};

/** Executions whose research waits for `gate` (only the first `count` calls wait; the rest run at once). */
export function gated(gate: Held, count = 1): (real: Prepare) => Prepare {
  let calls = 0;
  return (real) => async (...args) => {
    if (calls++ < count) await gate.promise;
    return real(...args);
  };
}

/** Whether the object has an execution in flight (its price reserved). */
export async function inFlight(id: string): Promise<number> {
  return runInDurableObject(stubOf(id), (_i, state) => state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM watch_inflight').one().n);
}

/** The web-change part of the findings of a watch whose company has no site read here (no page, role or entry known). */
export const NO_WEB_CHANGE = { changes: [], changeCounts: noChangeCounts() };
