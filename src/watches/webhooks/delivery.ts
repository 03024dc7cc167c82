import { readBody } from '../../ground/body-reading.ts';
import { signWebhook } from './signing.ts';
import { messageOf } from '../../ground/errors.ts';

/**
 * One webhook delivery attempt: POST the payload as JSON, signed the Standard Webhooks way, and
 * report what happened. It never throws, never follows a redirect (a 3xx is a failed attempt, so a
 * checked public URL cannot bounce the request elsewhere), gives up after `timeoutMs`, and reads at
 * most 512 bytes of the receiver's answer (for the error message), then drops the rest.
 *
 * What to retry, and when, is the caller's (the watch object's): see retry-policy.ts. A delivery
 * never blocks or undoes the execution it reports, nor its charge.
 */

/** The longest a receiver may take to answer: 10 s, as Standard Webhooks senders commonly allow. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The largest body Recon sends; an execution record is far smaller. */
export const WEBHOOK_MAX_PAYLOAD_BYTES = 256 * 1024;
/** How much of a receiver's answer is read, for the error message of a failed attempt. */
export const WEBHOOK_RESPONSE_READ_BYTES = 512;
const ERROR_SNIPPET_CHARS = 200;

export const WEBHOOK_USER_AGENT = 'Recon-Webhooks/1 (+https://www.standardwebhooks.com)';

export interface DeliveryInput {
  /** A URL that passed checkWebhookUrl. */
  url: string;
  /** The organization's `whsec_` secret, as it is at this attempt. */
  secret: string;
  /** The message id (`webhook-id`): unique per message, the same on every retry of it (e.g. the execution id). */
  messageId: string;
  /** The JSON payload; sent as `JSON.stringify(payload)`, the exact string signed. */
  payload: unknown;
  /** Outbound fetch (default: the global one); tests pass their own. */
  fetch?: typeof fetch;
  /** Default and maximum WEBHOOK_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The attempt's time (default: now); `webhook-timestamp` is its unix seconds. */
  now?: Date;
}

export interface DeliveryResult {
  /** True when the receiver answered 2xx. */
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why the attempt failed, for a person: `HTTP 500: <start of the answer>`, `timed out after 10 s`, ... */
  error?: string;
}

export async function deliverWebhook(input: DeliveryInput): Promise<DeliveryResult> {
  const timeoutMs = Math.min(Math.max(1, Math.floor(input.timeoutMs ?? WEBHOOK_TIMEOUT_MS)), WEBHOOK_TIMEOUT_MS);
  let body: string;
  try {
    body = JSON.stringify(input.payload) ?? 'null';
  } catch (error) {
    return { ok: false, error: `the payload is not JSON (${describe(error)})` };
  }
  const size = new TextEncoder().encode(body).byteLength;
  if (size > WEBHOOK_MAX_PAYLOAD_BYTES) return { ok: false, error: `the payload is ${size} bytes, over the ${WEBHOOK_MAX_PAYLOAD_BYTES}-byte limit; not sent` };

  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const signature = await signWebhook({
      secret: input.secret,
      messageId: input.messageId,
      timestamp: Math.floor((input.now ?? new Date()).getTime() / 1000),
      body,
    });
    const response = await (input.fetch ?? fetch)(input.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, ...signature },
      body,
      redirect: 'manual',
      signal,
    });
    if (response.status >= 200 && response.status < 300) {
      response.body?.cancel().catch(() => {});
      return { ok: true, status: response.status };
    }
    const snippet = await readStart(response.body, WEBHOOK_RESPONSE_READ_BYTES);
    const redirect = response.status >= 300 && response.status < 400 ? ` (redirects are not followed; use the final URL${locationOf(response)})` : '';
    return { ok: false, status: response.status, error: `HTTP ${response.status}${redirect}${snippet ? `: ${snippet}` : ''}` };
  } catch (error) {
    if (signal.aborted) return { ok: false, error: `timed out after ${timeoutMs / 1000} s` };
    return { ok: false, error: `could not be sent: ${describe(error)}` };
  }
}

/** The first `limit` bytes of a body as one short line of text; the rest is cancelled, never read. */
async function readStart(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  // A body that breaks off: what was read is enough for a message.
  const { bytes } = await readBody(body, limit);
  const text = new TextDecoder().decode(bytes).replace(/\s+/g, ' ').trim();
  return text.length > ERROR_SNIPPET_CHARS ? `${text.slice(0, ERROR_SNIPPET_CHARS)}…` : text;
}

function locationOf(response: Response): string {
  const location = response.headers.get('location');
  return location ? `, which answered Location: ${location.slice(0, ERROR_SNIPPET_CHARS)}` : '';
}

function describe(error: unknown): string {
  return messageOf(error).slice(0, ERROR_SNIPPET_CHARS);
}
