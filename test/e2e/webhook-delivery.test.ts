/**
 * End to end: a webhook secret made by the real Worker (wrangler's local runtime, seeded local D1)
 * signs deliveries that a local Node HTTP receiver verifies with the official `standardwebhooks`
 * library; the receiver answers 500 once and then 200, so delivery goes through the retry path.
 * deliverWebhook runs here in Node with Node's own fetch, over a real socket. (The watch object
 * that calls it on each execution is wired in after the watch core lands.)
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deliverWebhook } from '../../src/watches/webhooks/delivery.ts';
import { nextDelivery } from '../../src/watches/webhooks/retry-policy.ts';
import { checkWebhookUrl } from '../../src/watches/webhooks/url-policy.ts';
import { startDevServer, type DevServer } from './dev-server.ts';

const ACME_KEY = 'rk_test_acme_0000000000000000000000000000';
const MAX_RECEIVED_BYTES = 1024 * 1024;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the reference library made of it: the payload, or why it refused. */
  verified: { ok: true; payload: unknown } | { ok: false; error: string };
  answered: number;
}

/** A webhook receiver as an organization would write one: verify first, then act. */
class Receiver {
  readonly received: Received[] = [];
  /** Statuses to answer, in order, to verified requests; 200 once they run out. */
  script: number[] = [];
  secret = '';
  private server?: Server;
  url = '';

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
        const path = request.url ?? '/';
        if (path === '/hang') return; // never answers
        if (path === '/moved') {
          response.writeHead(302, { location: '/hook' }).end();
          this.received.push({ path, headers: request.headers, body: '', verified: { ok: false, error: 'redirected' }, answered: 302 });
          return;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        let verified: Received['verified'];
        try {
          verified = { ok: true, payload: new Webhook(this.secret).verify(body, request.headers as Record<string, string>) };
        } catch (error) {
          verified = { ok: false, error: error instanceof Error ? error.message : String(error) };
        }
        const answered = verified.ok ? (this.script.shift() ?? 200) : 401;
        this.received.push({ path, headers: request.headers, body, verified, answered });
        response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'thanks' : `no: ${verified.ok ? 'try later' : verified.error}`);
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
  [server] = await Promise.all([startDevServer({ knowledgeBase: false }), receiver.start()]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), receiver.stop()]);
});

async function newSecret(): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/oms/webhooks/secret`, { method: 'POST', headers: { Authorization: `Bearer ${ACME_KEY}` } });
  expect(response.status).toBe(201);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return ((await response.json()) as { secret: string }).secret;
}

const EXECUTION = {
  id: 'exe_e2e_1',
  watchId: 'wat_e2e',
  startedAt: '2026-11-23T12:00:00.000Z',
  finishedAt: '2026-11-23T12:00:04.000Z',
  outcome: 'succeeded',
  costMicros: 3000,
  briefKey: 'exe_e2e_1',
  changes: [{ property: 'pricing', from: null, to: 'From €49 a month' }],
};

describe('watch webhooks over HTTP', () => {
  test('the local receiver is allowed in development only', () => {
    expect(checkWebhookUrl(`${receiver.url}/hook`, { allowLocalHttp: true })).toEqual({ ok: true, url: `${receiver.url}/hook` });
    expect(checkWebhookUrl(`${receiver.url}/hook`, { allowLocalHttp: false }).ok).toBe(false);
  });

  test('a delivery answered 500 is retried under the same webhook-id, and the retry is verified by the receiver and delivered', async () => {
    receiver.secret = await newSecret();
    receiver.script = [500];
    receiver.received.length = 0;
    const url = checkWebhookUrl(`${receiver.url}/hook`, { allowLocalHttp: true });
    if (!url.ok) throw new Error(url.message);

    const outcomes = [];
    let attempt = 1;
    for (;;) {
      const result = await deliverWebhook({ url: url.url, secret: receiver.secret, messageId: EXECUTION.id, payload: EXECUTION });
      outcomes.push(result);
      const next = nextDelivery(attempt, result.ok, new Date(), () => 0.5);
      if (next.kind !== 'retry') break;
      // The watch object would arm its alarm for next.at (30 s later for the first retry); here the retry goes at once.
      expect(next.at.getTime() - Date.now()).toBeGreaterThan(25_000);
      attempt = next.attempt;
    }

    expect(outcomes).toEqual([
      { ok: false, status: 500, error: 'HTTP 500: no: try later' },
      { ok: true, status: 200 },
    ]);
    expect(receiver.received).toHaveLength(2);
    for (const request of receiver.received) {
      expect(request.verified).toEqual({ ok: true, payload: EXECUTION });
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toBe(EXECUTION.id);
    }
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 200]);
  });

  test('after a rotation, a delivery signed with the old secret is refused by the receiver and reported as failed', async () => {
    const old = await newSecret();
    receiver.secret = await newSecret();
    receiver.received.length = 0;
    const stale = await deliverWebhook({ url: `${receiver.url}/hook`, secret: old, messageId: 'exe_e2e_2', payload: EXECUTION });
    expect(stale).toEqual({ ok: false, status: 401, error: 'HTTP 401: no: No matching signature found' });
    const fresh = await deliverWebhook({ url: `${receiver.url}/hook`, secret: receiver.secret, messageId: 'exe_e2e_2', payload: EXECUTION });
    expect(fresh).toEqual({ ok: true, status: 200 });
  });

  test('a redirect is not followed, and a receiver that never answers times out', async () => {
    receiver.received.length = 0;
    const moved = await deliverWebhook({ url: `${receiver.url}/moved`, secret: receiver.secret, messageId: 'exe_e2e_3', payload: EXECUTION });
    expect(moved).toEqual({ ok: false, status: 302, error: 'HTTP 302 (redirects are not followed; use the final URL, which answered Location: /hook)' });
    expect(receiver.received.map((r) => r.path)).toEqual(['/moved']);

    const started = Date.now();
    const hung = await deliverWebhook({ url: `${receiver.url}/hang`, secret: receiver.secret, messageId: 'exe_e2e_4', payload: EXECUTION, timeoutMs: 500 });
    expect(hung).toEqual({ ok: false, error: 'timed out after 0.5 s' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
