import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { describe, expect, it } from 'vitest';
import { heldRun } from '../helpers/held-run.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { connectModernMcpClient, connectTaskSession, modernRpc } from '../helpers/modern-mcp-client.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { extensions: { [TASKS]: {} } };

interface Task {
  resultType: string;
  taskId: string;
  status: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  result?: { resultType: string; content: { type: string; text: string }[]; isError?: boolean };
}

interface Answer<T> {
  result?: T;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** One 2026-07-28 request of a client that declares the tasks extension (or `capabilities`). */
async function rpc<T = Task>(key: string, method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = WITH_TASKS): Promise<Answer<T>> {
  return (await modernRpc(key, { method, params }, capabilities)).json<Answer<T>>();
}

/** Polls tasks/get until the task leaves `working`; the run advances on its object's alarms. */
async function settle(key: string, taskId: string): Promise<Task> {
  for (let polls = 0; polls < 600; polls++) {
    const { result } = await rpc(key, 'tasks/get', { taskId });
    if (result!.status !== 'working') return result!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${taskId} still working after 600 polls`);
}

describe('the tasks extension (SEP-2663) on 2026-07-28', () => {
  it('the official tasks requester runs gtm-audit as a task to completion, with the markdown REST serves', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const { client, session } = await connectTaskSession(org.key);
    const execution = await session.callTool('gtm-audit', { focus: ['pricing'] });
    expect(execution.kind).toBe('task');
    const { outcome, lastTask } = await execution.settle();
    expect(outcome.status).toBe('completed');
    const result = resultFromTaskOutcome(outcome) as { content: { type: string; text: string }[] };
    const rest = await (await call(`/api/v1/runs/gtm-audit/${lastTask!.taskId}`, { key: org.key })).text();
    expect(result.content[0]!.text).toBe(rest);
    await session.close();
    await client.close();
  });

  it('on the wire: the handle (resultType task), tasks/get while working and once completed', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const created = (await rpc(org.key, 'tools/call', { name: 'gtm-audit', arguments: { focus: ['pricing'] } })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: null, pollIntervalMs: 2000 });
    expect(created.taskId).toMatch(/^[0-9a-f]{64}$/);
    expect(created.result).toBeUndefined();

    const done = await settle(org.key, created.taskId);
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed', taskId: created.taskId, createdAt: created.createdAt });
    const rest = await (await call(`/api/v1/runs/gtm-audit/${created.taskId}`, { key: org.key })).text();
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: rest }] });
    expect(done.result!.isError).toBeUndefined();
  });

  it('cancels a running task, acknowledges a second cancel, and ignores updates for a task that asks nothing', async () => {
    const org = await createOrganization();
    const taskId = await heldRun(org.id);
    expect((await rpc(org.key, 'tasks/get', { taskId })).result!.status).toBe('working');
    expect(await rpc(org.key, 'tasks/cancel', { taskId })).toMatchObject({ result: { resultType: 'complete' } });
    expect((await rpc(org.key, 'tasks/get', { taskId })).result!.status).toBe('cancelled');
    expect(await rpc(org.key, 'tasks/cancel', { taskId })).toMatchObject({ result: { resultType: 'complete' } });
    expect(await rpc(org.key, 'tasks/update', { taskId, inputResponses: { nothing: { action: 'accept' } } })).toMatchObject({ result: { resultType: 'complete' } });
    expect((await rpc(org.key, 'tasks/get', { taskId })).result!.status).toBe('cancelled');
  });

  it("does not know another organization's task, and leaves it running", async () => {
    const owner = await createOrganization();
    const other = await createOrganization();
    const taskId = await heldRun(owner.id);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { error } = await rpc(other.key, method, { taskId, inputResponses: {} });
      expect(error).toMatchObject({ code: -32602, message: `Error not_found: No async run ${taskId} in your organization.`, data: { error: 'not_found' } });
    }
    expect((await rpc(owner.key, 'tasks/get', { taskId })).result!.status).toBe('working');
  });

  it('refuses a task id that is no run id, and one over 200 characters, as invalid params', async () => {
    const org = await createOrganization();
    expect((await rpc(org.key, 'tasks/get', { taskId: 'nonexistent' })).error).toMatchObject({ code: -32602 });
    expect((await rpc(org.key, 'tasks/get', { taskId: 'x'.repeat(201) })).error).toMatchObject({ code: -32602 });
  });

  it('gives a client without the extension the run id to poll, and refuses it tasks/* with -32021', async () => {
    const org = await createOrganization();
    const client = await connectModernMcpClient(org.key);
    const started = await client.callTool({ name: 'audit', arguments: {} });
    expect(started.structuredContent).toMatchObject({ kind: 'audit', status: 'running', poll: { tool: 'run-status' } });
    const runId = (started.structuredContent as { runId: string }).runId;
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { error } = await rpc(org.key, method, { taskId: runId, inputResponses: {} }, {});
      expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    }
    await client.close();
  });

  it('answers a refused start as a tool error, not a task', async () => {
    const org = await createOrganization();
    const { result } = await rpc<{ resultType: string; isError?: boolean; structuredContent?: { error: string } }>(org.key, 'tools/call', { name: 'gtm-audit', arguments: { focus: ['nonsense'] } });
    expect(result).toMatchObject({ resultType: 'complete', isError: true, structuredContent: { error: 'invalid_input' } });
  });
});
