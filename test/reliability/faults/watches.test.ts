import fc from 'fast-check';
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WatchObject } from '../../../src/watches/watch-object.ts';
import { TIER_PRICE_MICROS, type ExecutionRecord } from '../../../src/ground/schemas/watch.ts';
import { WEBHOOK_MAX_ATTEMPTS } from '../../../src/watches/webhooks/retry-policy.ts';
import type { TestOrganization } from '../../helpers/fixtures.ts';
import { executionsOf, fireDueAlarm, inFlight, marketOrganization, stubOf, untilExecutions } from '../../watches/helpers.ts';
import { createHooked, FakeReceiver, fireDeliveries, newSecret } from '../../watches/webhook-helpers.ts';
import { changedTables, dataSnapshot, FailingD1, FAULT_SEED, Tally } from './support/faults.ts';
import { answersArbitrary, FakeParallel, PARALLEL_BASE, PARALLEL_KEY, type Answer } from './support/parallel.ts';
import { ObjectDb } from '../../../src/db/d1-sessions.ts';

/** A bookmark store that keeps nothing: each execution's failing session starts at the primary. */
const noKeptBookmark = { get: () => undefined, put: () => {} };

/**
 * Watches under random fault schedules: a sequence of operations (run now, the schedule's alarm,
 * the alarm delivered twice, webhook deliveries, a cancel), each execution with its own faults: the
 * web provider answering 429, 408, 500, 503, 401, HTML, garbage, a cut-off body or dropping the
 * connection, D1 failing on a read, or failing mid-batch when the results are stored (a real
 * statement failing inside the batch, so D1 rolls back what ran before it), and the watch's webhook
 * receiver down (5xx, refused connections). After every operation:
 *   - no double charge: spent = price x executions = price x succeeded execution records;
 *   - the cap holds: spent <= cap, and the watch is capped exactly when the next would pass it;
 *   - no partial writes: a failed execution leaves every D1 data table as it was (but for the web
 *     pages its provider fetched, which join the knowledge base in their own batch by design), and
 *     a succeeded one stored its brief; the D1 mirror row says what the object says;
 *   - no lost watch: nothing is left in flight, and a watch that is not ended keeps its schedule;
 *   - webhooks: a message acknowledged is never sent again; delivered exactly when acknowledged,
 *     given up only after the last attempt; and once the receiver is back, every one is delivered.
 */

const tally = new Tally('watches');
afterAll(() => tally.print());

const fake = new FakeParallel();
beforeAll(() => {
  // The web provider is the outside world: its calls (and only those) go to the fake of its API.
  const real = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new Request(input, init).url;
    return url.startsWith(`${PARALLEL_BASE}/`) ? fake.fetch(input, init) : real(input, init);
  });
});
afterEach(() => {
  fake.script = [];
});
afterAll(() => vi.unstubAllGlobals());

type D1Fault = 'none' | 'read' | { batch: number; after: number };
interface ExecutionFaults {
  provider: Answer[];
  d1: D1Fault;
}
type Receiver = 'up' | 500 | 503 | 404 | 'refused';
type Op =
  | { kind: 'run'; faults: ExecutionFaults }
  | { kind: 'alarm'; twice: 'no' | 'redelivered' | 'platform-twice'; faults: ExecutionFaults }
  | { kind: 'deliver'; receiver: Receiver }
  | { kind: 'cancel' };

const faultsArbitrary: fc.Arbitrary<ExecutionFaults> = fc.record({
  // No hang: the provider's 30 s timeout is policy, covered by provider.test.ts.
  provider: answersArbitrary(['ok', '408', '429', '500', '503', '401', 'html', 'garbage', 'truncated', 'network'], 5),
  d1: fc.oneof(
    { weight: 2, arbitrary: fc.constant<D1Fault>('none') },
    { weight: 1, arbitrary: fc.constant<D1Fault>('read') },
    { weight: 2, arbitrary: fc.record({ batch: fc.integer({ min: 0, max: 12 }), after: fc.integer({ min: 0, max: 3 }) }) },
  ),
});

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('run' as const), faults: faultsArbitrary }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('alarm' as const), twice: fc.constantFrom('no' as const, 'redelivered' as const, 'platform-twice' as const), faults: faultsArbitrary }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deliver' as const), receiver: fc.constantFrom<Receiver>('up', 500, 503, 404, 'refused') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const) }) },
);

/** The receiver, down or up as the schedule says; it records the messages it acknowledged. */
class Receiving extends FakeReceiver {
  mode: Receiver = 'up';
  readonly acknowledged: string[] = [];
  override readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const id = request.headers.get('webhook-id')!;
    if (this.mode === 'refused') {
      tally.fault('webhook receiver refuses');
      throw new TypeError('connection refused');
    }
    if (this.mode !== 'up') {
      tally.fault(`webhook receiver ${this.mode}`);
      return new Response('down', { status: this.mode });
    }
    this.acknowledged.push(id);
    return new Response('ok');
  };
}

let org: TestOrganization;
beforeAll(async () => {
  org = await marketOrganization();
  await newSecret(org);
});

async function briefKeys(ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { results } = await env.DB.prepare(`SELECT key FROM objects WHERE organization_id = ? AND type = 'brief' AND key IN (${ids.map(() => '?').join(',')})`)
    .bind(org.id, ...ids)
    .all<{ key: string }>();
  return new Set(results.map((r) => r.key));
}

/**
 * The watch, its executions and the messages acknowledged, read once the object is quiet: no
 * delivery under way, no execution holding a reservation, and no alarm due. The platform fires due
 * alarms on its own: an execution that queues a webhook message schedules its delivery for now, and
 * that alarm, fired by the platform while the test's next operation makes the execution due, runs
 * the execution itself, beside or instead of the test's. Waiting for quiet keeps the operations
 * apart; a lost reservation is never released, so `check` still finds it (after about 10 s).
 */
async function quiet(id: string, receiver: Receiving) {
  for (let i = 0; ; i++) {
    await runInDurableObject(stubOf(id), (instance: WatchObject) => instance.deliveriesSettled());
    const acknowledged = [...receiver.acknowledged];
    const watch = (await stubOf(id).get())!;
    const executions = await executionsOf(id);
    const busy = await runInDurableObject(stubOf(id), async (instance: WatchObject, state) => {
      const delivering = (instance as unknown as { delivering: unknown }).delivering !== null;
      const reserved = state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM watch_inflight').one().n > 0;
      const alarm = await state.storage.getAlarm();
      return delivering || reserved || (alarm !== null && alarm <= Date.now());
    });
    if ((!busy && acknowledged.length === receiver.acknowledged.length) || i >= 1000) return { watch, executions, acknowledged };
    if (busy) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function check(id: string, price: number, cap: number, receiver: Receiving): Promise<ExecutionRecord[]> {
  const { watch, executions, acknowledged } = await quiet(id, receiver);
  const succeeded = executions.filter((e) => e.outcome === 'succeeded');
  // No double charge; the cap holds.
  expect(watch.spentMicros).toBe(price * watch.executions);
  expect(watch.executions).toBe(succeeded.length);
  expect(watch.spentMicros).toBeLessThanOrEqual(cap);
  if (watch.status !== 'cancelled') expect(watch.status === 'capped').toBe(watch.spentMicros + price > cap);
  // Briefs: stored for each succeeded execution, for no failed one.
  const briefs = await briefKeys(executions.map((e) => e.id));
  for (const execution of executions) expect(briefs.has(execution.id), `${execution.outcome} execution ${execution.id}: ${execution.error ?? ''}`).toBe(execution.outcome === 'succeeded');
  // The mirror says what the object says.
  const row = await env.DB.prepare('SELECT spent_micros, executions, status FROM watches WHERE id = ?').bind(id).first();
  expect(row).toEqual({ spent_micros: watch.spentMicros, executions: watch.executions, status: watch.status });
  // Nothing lost: nothing in flight, and a watch that has not ended keeps its schedule.
  expect(await inFlight(id)).toBe(0);
  const scheduled = await runInDurableObject(stubOf(id), (_i, state) =>
    state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM cf_agents_jobs WHERE fn = 'scheduledExecution'`).one().n,
  );
  expect(scheduled > 0).toBe(watch.status === 'active' || watch.status === 'failing');
  // Webhooks: acknowledged at most once; delivered exactly when acknowledged; given up only after the last attempt.
  const counts = new Map<string, number>();
  for (const ack of acknowledged) counts.set(ack, (counts.get(ack) ?? 0) + 1);
  for (const [message, n] of counts) expect(n, `message ${message} acknowledged ${n} times`).toBe(1);
  for (const execution of executions) {
    expect(execution.webhook!.state === 'delivered').toBe(counts.has(execution.id));
    if (execution.webhook!.state === 'gave_up') expect(execution.webhook!.attempts).toBe(WEBHOOK_MAX_ATTEMPTS);
  }
  return executions;
}

describe('watches under random fault schedules', () => {
  it('charge once per success, keep the cap, write all or nothing, lose no watch and deliver every webhook once', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('lite' as const, 'base' as const),
        fc.integer({ min: 1, max: 5 }),
        fc.array(opArbitrary, { minLength: 2, maxLength: 7 }),
        async (tier, affordable, ops) => {
          tally.schedules++;
          const price = TIER_PRICE_MICROS[tier];
          const cap = price * affordable + Math.floor(price / 3);
          const receiver = new Receiving();
          const d1 = new FailingD1();
          // The faults of the next execution; each execution takes them and leaves none for the next.
          let next: ExecutionFaults = { provider: [], d1: 'none' };
          const id = await createHooked(org, receiver, { tier, costCapMicros: cap }, (real) => async (runEnv, _objectDb, watch, briefKey) => {
            const faults = next;
            next = { provider: [], d1: 'none' };
            fake.script = [...faults.provider];
            tally.fault('web provider answer', faults.provider.filter((a) => a !== 'ok').length);
            if (faults.d1 === 'read') {
              d1.armed = { readFails: true };
              tally.fault('D1 read fails');
            } else if (faults.d1 !== 'none') {
              d1.armed = { batchFailsAt: faults.d1.batch, batchesBefore: faults.d1.after };
            } else d1.armed = {};
            // The execution's D1 work goes through a session of the failing binding (its sessions are the binding itself).
            const failing = new ObjectDb({ DB: d1.db }, noKeptBookmark);
            return real({ ...runEnv, RESEARCH_PROVIDER: 'parallel', PARALLEL_API_KEY: PARALLEL_KEY } as Env, failing, watch, briefKey);
          });
          await untilExecutions(id, 1);
          let seen = await check(id, price, cap, receiver);

          for (const op of ops) {
            const before = await dataSnapshot({ besideFetchedSources: true });
            const batchBefore = d1.fired.batch;
            if (op.kind === 'run') {
              next = op.faults;
              await stubOf(id).runNow();
            } else if (op.kind === 'alarm') {
              next = op.faults;
              await fireDueAlarm(id);
              if (op.twice === 'redelivered') {
                tally.fault('alarm delivered twice');
                await runInDurableObject(stubOf(id), (instance: WatchObject) => instance.alarm());
              } else if (op.twice === 'platform-twice') {
                tally.fault('alarm delivered twice');
                await runInDurableObject(stubOf(id), (_i, state) => state.storage.setAlarm(Date.now()));
                await runDurableObjectAlarm(stubOf(id));
              }
            } else if (op.kind === 'deliver') {
              receiver.mode = op.receiver;
              await fireDeliveries(id);
            } else {
              await stubOf(id).cancel();
            }
            tally.fault('D1 batch fails mid-way', d1.fired.batch - batchBefore);
            const executions = await check(id, price, cap, receiver);
            const fresh = executions.filter((e) => !seen.some((s) => s.id === e.id));
            // A failed (or refused) execution writes nothing to D1's data tables: no brief, link,
            // property or provenance (the web pages its provider fetched excepted, kept by design).
            if (!fresh.some((e) => e.outcome === 'succeeded')) {
              expect(changedTables(before, await dataSnapshot({ besideFetchedSources: true })), `after ${JSON.stringify(op)}: ${fresh.map((e) => e.error).join('; ')}`).toEqual([]);
            }
            seen = executions;
          }

          // The receiver comes back: every message still waiting is delivered, once.
          receiver.mode = 'up';
          for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i++) await fireDeliveries(id);
          const end = await check(id, price, cap, receiver);
          for (const execution of end) expect(['delivered', 'gave_up']).toContain(execution.webhook!.state);
          await stubOf(id).cancel();
        },
      ),
      {
        seed: FAULT_SEED,
        numRuns: 20,
        endOnFailure: true,
        // Always tried: the brief's batch failing after the fetched pages' batch committed.
        examples: [['lite', 3, [{ kind: 'run', faults: { provider: [], d1: { batch: 2, after: 3 } } }, { kind: 'run', faults: { provider: [], d1: 'none' } }]]],
      },
    );
    // The executions did reach the web provider (the fake of its API), not only the embedded engine.
    console.log(`[reliability] faults/watches: the web provider was called ${fake.calls} times`);
    expect(fake.calls).toBeGreaterThan(0);
  });
});
