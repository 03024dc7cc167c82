import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliverWebhook, WEBHOOK_MAX_PAYLOAD_BYTES, WEBHOOK_RESPONSE_READ_BYTES } from '../../../src/watches/webhooks/delivery.ts';
import { generateWebhookSecret } from '../../../src/watches/webhooks/signing.ts';

// The receiver is the outside world, so it is the one thing faked here: a fetch that records what
// it was sent and answers as told. The real network path is tested end to end in test/e2e/webhook-delivery.test.ts.

const URL_ = 'https://hooks.example.com/recon';
const EXECUTION = { id: 'exe_1', watchId: 'wat_1', outcome: 'succeeded', costMicros: 3000, changes: [{ property: 'pricing', from: null, to: '€9' }] };

interface Sent {
  url: string;
  init: RequestInit;
  headers: Record<string, string>;
}

function receiver(answer: (sent: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const record = { url: String(input), init: init ?? {}, headers: Object.fromEntries(new Headers(init?.headers).entries()) };
    sent.push(record);
    return answer(record);
  }) as typeof fetch;
  return { sent, fetch: fetcher };
}

describe('deliverWebhook', () => {
  it('POSTs the payload as JSON with the three Standard Webhooks headers, verified by the reference library, and 2xx is ok', async () => {
    const secret = generateWebhookSecret();
    const to = receiver(() => new Response(null, { status: 204 }));
    const now = new Date();
    const result = await deliverWebhook({ url: URL_, secret, messageId: 'exe_1', payload: EXECUTION, fetch: to.fetch, now });
    expect(result).toEqual({ ok: true, status: 204 });
    expect(to.sent).toHaveLength(1);
    const [{ url, init, headers }] = to.sent as [Sent];
    expect(url).toBe(URL_);
    expect(init.method).toBe('POST');
    expect(init.redirect).toBe('manual');
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toMatch(/^Recon-Webhooks\//);
    expect(headers['webhook-id']).toBe('exe_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(init.body).toBe(JSON.stringify(EXECUTION));
    expect(new Webhook(secret).verify(init.body as string, headers)).toEqual(EXECUTION);
  });

  it('keeps the message id across retries and signs each attempt with its own timestamp', async () => {
    const secret = generateWebhookSecret();
    const to = receiver(() => new Response('ok'));
    const first = new Date(Date.now() - 30_000);
    await deliverWebhook({ url: URL_, secret, messageId: 'exe_7', payload: EXECUTION, fetch: to.fetch, now: first });
    await deliverWebhook({ url: URL_, secret, messageId: 'exe_7', payload: EXECUTION, fetch: to.fetch });
    const [a, b] = to.sent as [Sent, Sent];
    expect(a.headers['webhook-id']).toBe(b.headers['webhook-id']);
    expect(Number(b.headers['webhook-timestamp']) - Number(a.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(29);
    expect(a.headers['webhook-signature']).not.toBe(b.headers['webhook-signature']);
    for (const attempt of [a, b]) expect(new Webhook(secret).verify(attempt.init.body as string, attempt.headers)).toEqual(EXECUTION);
  });

  it('reports a non-2xx answer with its status and the start of its body, as one short line', async () => {
    const to = receiver(() => new Response('Internal\n\n   error:   database down', { status: 500 }));
    expect(await deliverWebhook({ url: URL_, secret: generateWebhookSecret(), messageId: 'm', payload: {}, fetch: to.fetch })).toEqual({
      ok: false,
      status: 500,
      error: 'HTTP 500: Internal error: database down',
    });
    const gone = receiver(() => new Response(null, { status: 410 }));
    expect(await deliverWebhook({ url: URL_, secret: generateWebhookSecret(), messageId: 'm', payload: {}, fetch: gone.fetch })).toEqual({
      ok: false,
      status: 410,
      error: 'HTTP 410',
    });
  });

  it('does not follow a redirect: a 3xx is a failed attempt that names where it pointed', async () => {
    const to = receiver(() => new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } }));
    const result = await deliverWebhook({ url: URL_, secret: generateWebhookSecret(), messageId: 'm', payload: {}, fetch: to.fetch });
    expect(result).toEqual({
      ok: false,
      status: 302,
      error: 'HTTP 302 (redirects are not followed; use the final URL, which answered Location: http://169.254.169.254/latest/meta-data)',
    });
    expect(to.sent).toHaveLength(1);
  });

  it('reads at most a small bound of a huge answer and cancels the rest', async () => {
    let pulled = 0;
    let cancelled = false;
    const chunk = new TextEncoder().encode('x'.repeat(100));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const to = receiver(() => new Response(endless, { status: 503 }));
    const result = await deliverWebhook({ url: URL_, secret: generateWebhookSecret(), messageId: 'm', payload: {}, fetch: to.fetch });
    expect(result.ok).toBe(false);
    expect(result.status).toBe(503);
    expect(result.error).toBe(`HTTP 503: ${'x'.repeat(200)}…`);
    expect(pulled).toBeLessThanOrEqual(WEBHOOK_RESPONSE_READ_BYTES + 2 * chunk.byteLength);
    expect(cancelled).toBe(true);
  });

  it('gives up after timeoutMs when the receiver does not answer', async () => {
    const to = receiver(
      ({ init }) =>
        new Promise<Response>((_, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const started = Date.now();
    const result = await deliverWebhook({ url: URL_, secret: generateWebhookSecret(), messageId: 'm', payload: {}, fetch: to.fetch, timeoutMs: 200 });
    expect(result).toEqual({ ok: false, error: 'timed out after 0.2 s' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('never throws: a network failure, a bad secret, a payload that is not JSON or too large are failed attempts', async () => {
    const down = receiver(() => Promise.reject(new TypeError('Network connection lost.')));
    expect(await deliverWebhook({ url: URL_, secret: generateWebhookSecret(), messageId: 'm', payload: {}, fetch: down.fetch })).toEqual({
      ok: false,
      error: 'could not be sent: Network connection lost.',
    });

    const to = receiver(() => new Response('ok'));
    expect(await deliverWebhook({ url: URL_, secret: 'not-a-secret', messageId: 'm', payload: {}, fetch: to.fetch })).toEqual({
      ok: false,
      error: 'could not be sent: A webhook secret starts with whsec_.',
    });
    const notJson = await deliverWebhook({ url: URL_, secret: generateWebhookSecret(), messageId: 'm', payload: { n: 1n }, fetch: to.fetch });
    expect(notJson.ok).toBe(false);
    expect(notJson.error).toMatch(/^the payload is not JSON/);
    const huge = { text: 'x'.repeat(WEBHOOK_MAX_PAYLOAD_BYTES) };
    expect(await deliverWebhook({ url: URL_, secret: generateWebhookSecret(), messageId: 'm', payload: huge, fetch: to.fetch })).toEqual({
      ok: false,
      error: `the payload is ${WEBHOOK_MAX_PAYLOAD_BYTES + 11} bytes, over the ${WEBHOOK_MAX_PAYLOAD_BYTES}-byte limit; not sent`,
    });
    expect(to.sent).toHaveLength(0);
  });
});
