import type { CoreContext } from '../ground/context.ts';
import { DomainError } from '../ground/errors.ts';
import { readConfig } from '../ground/config.ts';
import { getRun, type RunView } from '../operations/runs/runs.ts';
import { SERVER_INFO } from './server-info.ts';
import { declaresTasks, detailedTaskOf, TASKS_EXTENSION } from './tasks-extension.ts';

/**
 * Task status notifications of the tasks extension (SEP-2663): a 2026-07-28 `subscriptions/listen`
 * whose filter names `taskIds` gets an SSE stream that acknowledges the tasks it will report on (the
 * caller's own, at most MAX_TASKS), then sends `notifications/tasks` with the whole task (as tasks/get
 * answers it) each time one changes, a keep-alive comment every MCP_SSE_KEEPALIVE_MS, and ends with the
 * subscription's result once every task reached a final status (or after MAX_STREAM_MS: the client
 * listens again). The SDK's own listen router serves list-change filters only and knows no task ids;
 * Recon declares no list changes, so a listen with task ids is served here whole.
 */

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';
/** Task ids one subscription may name: a subscription reads each of its runs every poll. */
export const MAX_TASKS = 20;
/** The longest one stream stays open. */
const MAX_STREAM_MS = 15 * 60_000;

interface ListenMessage {
  id: string | number;
  method: 'subscriptions/listen';
  params: { notifications: { taskIds: unknown[] }; _meta?: Record<string, unknown> };
}

/**
 * Whether a request is a 2026-07-28 listen that asks for task notifications (then served here): its
 * body names task ids, and its headers say what the body says (else the SDK refuses it).
 */
export function isTaskListen(message: unknown, headers: Headers): message is ListenMessage {
  if (typeof message !== 'object' || message === null) return false;
  const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { notifications?: { taskIds?: unknown } } };
  return (
    method === 'subscriptions/listen' &&
    (typeof id === 'string' || typeof id === 'number') &&
    Array.isArray(params?.notifications?.taskIds) &&
    headers.get('mcp-method') === 'subscriptions/listen' &&
    headers.get('mcp-protocol-version') === '2026-07-28'
  );
}

const rpcError = (id: string | number, code: number, message: string, data?: unknown) =>
  Response.json({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } }, { status: code === -32021 ? 400 : 200 });

/** Serves one task subscription for the caller of `ctx`. */
export async function serveTaskListen(ctx: CoreContext, message: ListenMessage, signal?: AbortSignal): Promise<Response> {
  const { id, params } = message;
  if (!declaresTasks(params._meta)) {
    return rpcError(id, -32021, `Missing required client capability: declare the ${TASKS_EXTENSION} extension to listen for task notifications.`, {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    });
  }
  const requested = params.notifications.taskIds;
  if (requested.length > MAX_TASKS || requested.some((taskId) => typeof taskId !== 'string' || taskId.length === 0 || taskId.length > 200)) {
    return rpcError(id, -32602, `Invalid params: notifications.taskIds must be at most ${MAX_TASKS} task ids (strings of at most 200 characters).`);
  }
  // The caller's tasks only: another organization's run, or no run, is left out of the acknowledgement.
  const known = new Map<string, RunView>();
  for (const taskId of new Set(requested as string[])) {
    try {
      known.set(taskId, await getRun(ctx, undefined, taskId));
    } catch (error) {
      // Not the caller's task (or no task): not acknowledged, never reported.
      if (!(error instanceof DomainError && error.code === 'not_found')) throw error;
    }
  }
  const { MCP_SSE_KEEPALIVE_MS: keepAliveMs, MCP_TASK_NOTIFY_POLL_MS: pollMs } = readConfig(ctx.env);
  return sseStream(signal, async ({ notify, comment, isClosed }) => {
    notify('notifications/subscriptions/acknowledged', { notifications: { taskIds: [...known.keys()] } });
    const sent = new Map<string, string>();
    const report = (view: RunView) => {
      const task = detailedTaskOf(view);
      const version = `${task.status} ${task.lastUpdatedAt} ${task.statusMessage ?? ''}`;
      if (sent.get(view.id) === version) return;
      sent.set(view.id, version);
      notify('notifications/tasks', task);
    };
    for (const view of known.values()) report(view);
    const deadline = Date.now() + MAX_STREAM_MS;
    let lastWrite = Date.now();
    while (!isClosed() && Date.now() < deadline && [...known.values()].some((view) => view.status === 'running')) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, keepAliveMs)));
      if (Date.now() - lastWrite >= keepAliveMs) {
        comment('keepalive');
        lastWrite = Date.now();
      }
      for (const [taskId, view] of known) {
        if (view.status !== 'running') continue;
        const now = await getRun(ctx, undefined, taskId).catch(() => view);
        known.set(taskId, now);
        const before = sent.get(taskId);
        report(now);
        if (sent.get(taskId) !== before) lastWrite = Date.now();
      }
    }
    return { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: id, [SERVER_INFO_META]: SERVER_INFO } };
  }, id);
}

interface StreamWriter {
  notify(method: string, params: Record<string, unknown>): void;
  comment(text: string): void;
  isClosed(): boolean;
}

/** An SSE response whose frames `work` writes; its return value ends the stream as the request's result. */
function sseStream(signal: AbortSignal | undefined, work: (writer: StreamWriter) => Promise<Record<string, unknown>>, id: string | number): Response {
  const encoder = new TextEncoder();
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (frame: string) => {
        if (!closed) controller.enqueue(encoder.encode(frame));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        controller.close();
      };
      signal?.addEventListener('abort', close, { once: true });
      const writer: StreamWriter = {
        notify: (method, params) =>
          write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: { ...(params._meta as object), [SUBSCRIPTION_ID]: id } } })}\n\n`),
        comment: (text) => write(`: ${text}\n\n`),
        isClosed: () => closed,
      };
      work(writer)
        .then((result) => write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`))
        .catch(() => write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'The task subscription failed; listen again.' } })}\n\n`))
        .finally(close);
    },
    cancel() {
      closed = true;
    },
  });
  return new Response(stream, { status: 200, headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' } });
}
