/**
 * End to end: a watch with a webhook on the real Worker (wrangler's local runtime, seeded local D1,
 * the demo market, WEBHOOK_ALLOW_LOCAL_HTTP as `npm run dev` sets it) delivers its execution
 * records to a local Node HTTP receiver, which verifies each with the official `standardwebhooks`
 * library using the secret the create answered once. The receiver answers 500 to the first
 * delivery: the record shows the failed attempt, run-now's execution is delivered meanwhile, and
 * the retry comes on the object's own alarm 30 s (±10%) later.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDevServer, type DevServer } from './dev-server.ts';

const ACME_KEY = 'rk_test_acme_0000000000000000000000000000';
const MAX_RECEIVED_BYTES = 1024 * 1024;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  verified: { ok: true; payload: Record<string, unknown> } | { ok: false; error: string };
  answered: number;
}

/** A webhook receiver as an organization would write one: verify first, then act. */
class Receiver {
  readonly received: Received[] = [];
  /** Statuses to answer verified requests with, in order; 200 once they run out. */
  script: number[] = [];
  secret = '';
  url = '';
  private server?: Server;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RECEIVED_BYTES) request.destroy();
        else chunks.push(chunk);
      });
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let verified: Received['verified'];
        try {
          verified = { ok: true, payload: new Webhook(this.secret).verify(body, request.headers as Record<string, string>) as Record<string, unknown> };
        } catch (error) {
          verified = { ok: false, error: error instanceof Error ? error.message : String(error) };
        }
        const answered = verified.ok ? (this.script.shift() ?? 200) : 401;
        this.received.push({ headers: request.headers, body, verified, answered });
        response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'thanks' : 'try later');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

let server: DevServer;
const receiver = new Receiver();

beforeAll(async () => {
  [server] = await Promise.all([startDevServer({ vars: { WEBHOOK_ALLOW_LOCAL_HTTP: 'true' } }), receiver.start()]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), receiver.stop()]);
});

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { Authorization: `Bearer ${ACME_KEY}`, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} never happened`);
}

interface Execution {
  id: string;
  watchId: string;
  outcome: string;
  costMicros: number;
  webhook?: { state: string; attempts: number; lastStatus: number | null; nextAttemptAt: string | null };
}

describe('a watch with a webhook, over HTTP', () => {
  test('the receiver gets each execution record, verified with the secret shown once at create; a failed delivery is retried on the schedule', async () => {
    receiver.script = [500];
    const created = await api<{ id: string; webhook: { url: string }; webhookSecret?: string }>('/api/v1/oms/watches', {
      body: { target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 9000, webhook: { url: `${receiver.url}/hook` } },
    });
    expect(created.status).toBe(201);
    expect(created.body.webhook).toEqual({ url: `${receiver.url}/hook`, kinds: [] });
    expect(created.body.webhookSecret).toMatch(/^whsec_/);
    receiver.secret = created.body.webhookSecret!;
    const id = created.body.id;

    // The first execution runs at once; its delivery is answered 500 and scheduled again.
    await until(() => receiver.received.length === 1, 'the first delivery');
    const [first] = receiver.received;
    expect(first!.verified.ok).toBe(true);
    expect(first!.answered).toBe(500);
    const executions = async () => (await api<{ executions: Execution[] }>(`/api/v1/oms/watches/executions?id=${id}`)).body.executions;
    await until(async () => (await executions())[0]?.webhook?.attempts === 1, 'the first attempt recorded');
    const [record] = await executions();
    expect(record).toMatchObject({ watchId: id, outcome: 'succeeded', costMicros: 3000, webhook: { state: 'pending', attempts: 1, lastStatus: 500 } });
    const { webhook: _, ...sent } = record!;
    expect(first!.verified).toEqual({ ok: true, payload: sent });
    expect(first!.headers['webhook-id']).toBe(record!.id);
    expect(Date.parse(record!.webhook!.nextAttemptAt!) - Date.now()).toBeGreaterThan(15_000);

    // Run now: its record is delivered (200) while the first one waits for its retry.
    const run = await api<Execution>(`/api/v1/oms/watches/run?id=${id}`, { method: 'POST' });
    expect(run.status).toBe(200);
    await until(() => receiver.received.length === 2, 'the run-now delivery');
    const second = receiver.received[1]!;
    expect(second.answered).toBe(200);
    expect(second.headers['webhook-id']).toBe(run.body.id);
    const { webhook: __, ...runSent } = run.body;
    expect(second.verified).toEqual({ ok: true, payload: runSent });
    await until(async () => (await executions())[0]?.webhook?.state === 'delivered', 'the run-now delivery recorded');

    // The secret is never shown again.
    const got = await api<Record<string, unknown>>(`/api/v1/oms/watches?id=${id}`);
    expect(got.body.webhook).toEqual({ url: `${receiver.url}/hook`, kinds: [] });
    expect(JSON.stringify(got.body)).not.toContain(receiver.secret);
    expect(got.body).toMatchObject({ spentMicros: 6000, executions: 2 });

    // The first record's retry comes on the watch object's own alarm, about 30 s after it failed, under the same webhook-id.
    await until(() => receiver.received.length === 3, 'the retry of the first delivery', 45_000);
    const retry = receiver.received[2]!;
    expect(retry.headers['webhook-id']).toBe(record!.id);
    expect(retry.verified).toEqual({ ok: true, payload: sent });
    expect(retry.answered).toBe(200);
    await until(async () => (await executions())[1]?.webhook?.state === 'delivered', 'the retry recorded');
    expect((await executions())[1]!.webhook).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 200 });
  }, 90_000);
});
