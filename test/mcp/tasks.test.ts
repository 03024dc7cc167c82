import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { heldRun } from '../helpers/held-run.ts';
import { importMarket } from '../helpers/market.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

interface RpcAnswer {
  result?: Record<string, unknown> & { task?: { taskId: string; status: string }; tasks?: { taskId: string }[]; status?: string };
  error?: { code: number; message: string; data?: { error: string } };
}

async function rpc(key: string, method: string, params: unknown): Promise<RpcAnswer> {
  const response = await mcpRpc({ jsonrpc: '2.0', id: 1, method, params }, { key, headers: { 'Mcp-Protocol-Version': '2025-11-25' } });
  return response.json<RpcAnswer>();
}

describe('MCP tasks (2025-11-25) backed by runs', () => {
  it('declares task support on the asynchronous tools only', async () => {
    const org = await createOrganization();
    const { result } = await rpc(org.key, 'tools/list', {});
    const tools = result!.tools as { name: string; execution?: { taskSupport: string } }[];
    expect(tools.filter((t) => t.execution?.taskSupport === 'optional').map((t) => t.name).sort()).toEqual(['audit', 'gtm-audit', 'read-site']);
  });

  it('runs gtm-audit as a task: create, get, result (the REST markdown), list', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const created = await rpc(org.key, 'tools/call', { name: 'gtm-audit', arguments: { focus: ['pricing'] }, task: { ttl: 60_000 } });
    const task = created.result!.task!;
    expect(task.taskId).toMatch(/^[0-9a-f]{64}$/);
    expect(task.status).toBe('working');

    const got = await rpc(org.key, 'tasks/get', { taskId: task.taskId });
    expect(['working', 'completed']).toContain(got.result!.status);

    const result = await rpc(org.key, 'tasks/result', { taskId: task.taskId });
    const text = (result.result!.content as { text: string }[])[0]!.text;
    expect(text).toBe(await (await call(`/api/v1/runs/gtm-audit/${task.taskId}`, { key: org.key })).text());
    expect(result.result!.structuredContent).toEqual({ runId: task.taskId, kind: 'gtm-audit', status: 'completed' });

    const listed = await rpc(org.key, 'tasks/list', {});
    expect(listed.result!.tasks!.map((t) => t.taskId)).toContain(task.taskId);

    const cancelDone = await rpc(org.key, 'tasks/cancel', { taskId: task.taskId });
    expect(cancelDone.error?.message).toMatch(/terminal status: completed/);
  });

  it('cancels a running task, which ends the tasks/result that was waiting for it; a finished one cannot be cancelled', async () => {
    const org = await createOrganization();
    const taskId = await heldRun(org.id);
    expect((await rpc(org.key, 'tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working', ttl: null, pollInterval: 2000 });
    let settled = false;
    const waiting = rpc(org.key, 'tasks/result', { taskId }).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);

    const cancelled = await rpc(org.key, 'tasks/cancel', { taskId });
    expect(cancelled.result).toMatchObject({ _meta: {}, taskId, status: 'cancelled' });
    const ended = await waiting;
    expect(ended.result).toMatchObject({
      structuredContent: { runId: taskId, kind: 'gtm-audit', status: 'cancelled' },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    expect((await rpc(org.key, 'tasks/cancel', { taskId })).error).toMatchObject({ code: -32602, message: 'MCP error -32602: Cannot cancel task in terminal status: cancelled' });
  });

  it("does not find another organization's task", async () => {
    const owner = await createOrganization();
    const other = await createOrganization();
    const created = await rpc(owner.key, 'tools/call', { name: 'audit', arguments: {}, task: {} });
    const taskId = created.result!.task!.taskId;
    const notFound = { code: -32602, message: `Error not_found: No async run ${taskId} in your organization.`, data: { error: 'not_found' } };
    expect((await rpc(other.key, 'tasks/get', { taskId })).error).toMatchObject(notFound);
    expect((await rpc(other.key, 'tasks/result', { taskId })).error).toMatchObject(notFound);
    expect((await rpc(other.key, 'tasks/cancel', { taskId })).error).toMatchObject(notFound);
    expect((await rpc(other.key, 'tasks/list', {})).result!.tasks).toEqual([]);
  });

  it('refuses a task for a tool that answers at once, and reports a bad call as an error', async () => {
    const org = await createOrganization();
    expect((await rpc(org.key, 'tools/call', { name: 'help', arguments: {}, task: {} })).error?.message).toMatch(/does not run as a task/);
    const bad = await rpc(org.key, 'tools/call', { name: 'gtm-audit', arguments: { focus: ['weather'] }, task: {} });
    expect(bad.error?.message).toMatch(/^Error invalid_input: Invalid arguments of gtm-audit: focus\.0 must be one of "positioning", .*, not "weather"\.$/);
  });
});
