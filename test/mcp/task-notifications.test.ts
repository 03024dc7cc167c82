import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { serveTaskListen } from '../../src/mcp/task-notifications.ts';
import { createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { heldRun } from '../helpers/held-run.ts';
import { modernRpc } from '../helpers/modern-mcp-client.ts';
import { requestDbOver } from '../helpers/request-db.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'recon-tests-raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
};

interface Frame {
  comment?: string;
  message?: { method?: string; id?: number | string; params?: Record<string, unknown> & { status?: string; taskId?: string; notifications?: { taskIds: string[] } }; result?: Record<string, unknown>; error?: { code: number } };
}

/** Reads an SSE body frame by frame (comments too), as a client would, until `until` says stop or the stream ends. */
async function readFrames(response: Response, until: (frame: Frame) => boolean = () => false, onFrame?: (frame: Frame) => Promise<void>): Promise<Frame[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const frames: Frame[] = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return frames;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const raw = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame: Frame = raw.startsWith(':') ? { comment: raw.slice(1).trim() } : { message: JSON.parse(raw.split('\n').find((line) => line.startsWith('data: '))!.slice(6)) };
      frames.push(frame);
      await onFrame?.(frame);
      if (until(frame)) {
        await reader.cancel();
        return frames;
      }
    }
  }
}

const principalOf = (org: TestOrganization) => ({ organization: { id: org.id, slug: org.slug, name: org.slug }, keyId: org.keyId, scopes: ['commands', 'oms:read'] as const });

describe('task status notifications (subscriptions/listen with taskIds)', () => {
  it("acknowledges the caller's tasks only, reports a cancel as it happens, and ends once every task is final", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const mine = await heldRun(org.id);
    const theirs = await heldRun(other.id);
    const response = await modernRpc(org.key, { method: 'subscriptions/listen', params: { notifications: { taskIds: [mine, theirs, 'nonexistent'] }, _meta: ENVELOPE } });
    expect(response.headers.get('Content-Type')).toBe('text/event-stream');

    let cancelled = false;
    const frames = await readFrames(response, undefined, async (frame) => {
      // Once the subscription reported the task working, cancel it (through tasks/cancel, as a client would).
      if (!cancelled && frame.message?.method === 'notifications/tasks') {
        cancelled = true;
        expect(frame.message.params).toMatchObject({ taskId: mine, status: 'working' });
        await modernRpc(org.key, { method: 'tasks/cancel', params: { taskId: mine } }, { extensions: { [TASKS]: {} } });
      }
    });
    const messages = frames.flatMap((frame) => (frame.message ? [frame.message] : []));
    expect(messages[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: [mine] } } });
    const reported = messages.filter((message) => message.method === 'notifications/tasks').map((message) => [message.params!.taskId, message.params!.status]);
    expect(reported).toEqual([
      [mine, 'working'],
      [mine, 'cancelled'],
    ]);
    expect(messages.at(-1)).toMatchObject({ result: { resultType: 'complete' } });
  });

  it('sends a keep-alive comment while nothing changes (every MCP_SSE_KEEPALIVE_MS)', async () => {
    const org = await createOrganization();
    const taskId = await heldRun(org.id);
    const ctx = { env: { ...env, MCP_SSE_KEEPALIVE_MS: '30', MCP_TASK_NOTIFY_POLL_MS: '10' }, db: requestDbOver(), principal: principalOf(org), requestId: 'test' };
    const response = await serveTaskListen(ctx, { id: 1, method: 'subscriptions/listen', params: { notifications: { taskIds: [taskId] }, _meta: ENVELOPE } });
    const frames = await readFrames(response, (frame) => frame.comment === 'keepalive');
    expect(frames.at(-1)).toEqual({ comment: 'keepalive' });
    expect(frames.filter((frame) => frame.message?.method === 'notifications/tasks')).toHaveLength(1);
  });

  it('refuses a listen for tasks without the extension (-32021), and more than 20 task ids (-32602)', async () => {
    const org = await createOrganization();
    const withoutTasks = { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': {} };
    const refused = await modernRpc(org.key, { method: 'subscriptions/listen', params: { notifications: { taskIds: ['x'] }, _meta: withoutTasks } });
    expect(await refused.json()).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } } });
    const tooMany = await modernRpc(org.key, { method: 'subscriptions/listen', params: { notifications: { taskIds: Array.from({ length: 21 }, (_, i) => `t${i}`) }, _meta: ENVELOPE } });
    expect(await tooMany.json()).toMatchObject({ error: { code: -32602 } });
  });
});
