import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import type { WatchObject } from '../../src/watches/watch-object.ts';
import type { ExecutionRecord } from '../../src/ground/schemas/watch.ts';
import { call, type TestOrganization } from '../helpers/fixtures.ts';
import { randomId } from '../../src/ground/api-key.ts';
import type { PreparedExecution, WatchToResearch } from '../../src/watches/execution.ts';
import { executionsOf, stubOf, until } from './helpers.ts';
import type { ChangeKind } from '../../src/ground/schemas/changes.ts';
import type { ObjectDb } from '../../src/db/d1-sessions.ts';

type Prepare = (env: Env, db: ObjectDb, watch: WatchToResearch, briefKey: string) => Promise<PreparedExecution>;
type Wrap = (real: Prepare) => Prepare;

export const HOOK_URL = 'https://hooks.example.com/recon';

export interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A receiver standing in for the outside world: records every request the watch object sends and
 * answers from `script` (a status, 'hang' to never answer until released, or 'throw' for a network
 * error); 200 once the script runs out.
 */
export class FakeReceiver {
  readonly sent: Sent[] = [];
  script: (number | 'hang' | 'throw')[] = [];
  private hung: (() => void)[] = [];

  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    this.sent.push({ url: request.url, headers, body: await request.text() });
    const next = this.script.shift() ?? 200;
    if (next === 'throw') throw new TypeError('connection refused');
    if (next === 'hang') {
      await new Promise<void>((resolve, reject) => {
        this.hung.push(resolve);
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      });
      return new Response('late', { status: 200 });
    }
    return new Response(next === 200 ? 'ok' : 'not now', { status: next });
  };

  /**
   * Answers the hanging requests (200). Resolved inside the watch's object, as a real answer would
   * arrive: the delivery goes on in the object's context, never the test's.
   */
  async release(id: string): Promise<void> {
    await runInDurableObject(stubOf(id), () => {
      for (const resolve of this.hung.splice(0)) resolve();
    });
  }
}

/** The organization's webhook secret, made (or rotated) through the endpoint. */
export async function newSecret(org: TestOrganization): Promise<string> {
  const response = await call('/api/v1/oms/webhooks/secret', { key: org.key, method: 'POST' });
  if (response.status !== 201) throw new Error(`secret: ${response.status} ${await response.text()}`);
  return (await response.json<{ secret: string }>()).secret;
}

/**
 * Creates a watch with a webhook straight on its object (as the operation does after validating),
 * with `receiver` as its outbound fetch, the retry jitter fixed, and the research half wrapped by
 * `wrap` (the real one by default), all set before the first execution (which runs at once).
 */
export async function createHooked(
  org: TestOrganization,
  receiver: FakeReceiver,
  init: Partial<{ frequency: string; tier: 'lite' | 'base'; costCapMicros: number; kinds: ChangeKind[] }> = {},
  wrap: Wrap = (real) => real,
): Promise<string> {
  const id = randomId('wch');
  await runInDurableObject(stubOf(id), (instance: WatchObject) => {
    instance.research = wrap(instance.research);
    instance.webhookFetch = receiver.fetch;
    instance.webhookRandom = () => 0.5;
  });
  await stubOf(id).create({
    id,
    organizationId: org.id,
    target: { type: 'company', key: 'globex.com' },
    query: null,
    frequency: init.frequency ?? '1d',
    tier: init.tier ?? 'lite',
    costCapMicros: init.costCapMicros ?? 9000,
    sourcePolicy: { include: [], exclude: [] },
    webhook: { url: HOOK_URL, ...(init.kinds ? { kinds: init.kinds } : {}) },
    createdAt: new Date().toISOString(),
  });
  return id;
}

/** Sets the receiver on the watch's object (before anything is due, e.g. right after creating the object with another id). */
export async function useReceiver(id: string, receiver: FakeReceiver, random = () => 0.5): Promise<void> {
  await runInDurableObject(stubOf(id), (instance: WatchObject) => {
    instance.webhookFetch = receiver.fetch;
    instance.webhookRandom = random;
  });
}

/** Waits for the delivery under way in the object, if any. */
export async function settled(id: string): Promise<void> {
  await runInDurableObject(stubOf(id), (instance: WatchObject) => instance.deliveriesSettled());
}

/** Messages waiting in the object's outbox. */
export async function outboxSize(id: string): Promise<number> {
  return runInDurableObject(stubOf(id), (_i, state) => state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM watch_webhook_outbox').one().n);
}

/** The `deliverWebhooks` schedules of the object. */
export async function deliveryJobs(id: string): Promise<number[]> {
  return runInDurableObject(stubOf(id), (_i, state) =>
    state.storage.sql.exec<{ time: number }>(`SELECT time FROM cf_agents_jobs WHERE fn = 'deliverWebhooks'`).toArray().map((r) => r.time),
  );
}

/** Makes every waiting message and the delivery schedule due now, fires the alarm, and waits for the delivery to end. */
export async function fireDeliveries(id: string): Promise<void> {
  const stub = stubOf(id);
  await runInDurableObject(stub, async (_instance: WatchObject, state) => {
    const now = Date.now();
    state.storage.sql.exec('UPDATE watch_webhook_outbox SET next_at = ?', now);
    state.storage.sql.exec(`UPDATE cf_agents_jobs SET time = ? WHERE fn = 'deliverWebhooks'`, now);
    if ((await state.storage.getAlarm()) === null) await state.storage.setAlarm(now + 3_600_000);
  });
  await runDurableObjectAlarm(stub);
  await settled(id);
}

/** Waits until the execution records carry a webhook state that `done` accepts. */
export async function untilDelivery(id: string, done: (executions: ExecutionRecord[]) => boolean, what: string): Promise<ExecutionRecord[]> {
  await until(async () => done(await executionsOf(id)), what);
  await settled(id);
  return executionsOf(id);
}
