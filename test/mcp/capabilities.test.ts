import { describe, expect, it } from 'vitest';
import { createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

interface RpcAnswer {
  result?: { capabilities?: Record<string, unknown>; protocolVersion?: string; tools?: { name: string; execution?: unknown }[] };
  error?: { code: number; message: string };
}

async function rpc(key: string, version: string, method: string, params: unknown = {}): Promise<RpcAnswer> {
  const response = await mcpRpc({ jsonrpc: '2.0', id: 1, method, params }, { key, headers: { 'Mcp-Protocol-Version': version } });
  return response.json<RpcAnswer>();
}

const initialize = (key: string, protocolVersion: string) =>
  rpc(key, protocolVersion, 'initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } });

describe('capabilities follow the negotiated protocol version', () => {
  it.each(['2025-03-26', '2025-06-18'])('under %s: tools, prompts, resources and logging, no tasks anywhere', async (version) => {
    const org = await createOrganization();
    const { result } = await initialize(org.key, version);
    expect(result!.protocolVersion).toBe(version);
    expect(result!.capabilities).toEqual({ tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false, subscribe: false }, logging: {} });

    const listed = await rpc(org.key, version, 'tools/list');
    expect(listed.result!.tools!.filter((tool) => tool.execution !== undefined)).toEqual([]);
    expect((await rpc(org.key, version, 'tasks/list')).error).toMatchObject({ code: -32601 });
    expect((await rpc(org.key, version, 'tasks/get', { taskId: 'x' })).error).toMatchObject({ code: -32601 });
    const call = await rpc(org.key, version, 'tools/call', { name: 'audit', arguments: {}, task: {} });
    // The SDK refuses a task-augmented call when the tasks capability is not declared.
    expect(call.error).toMatchObject({ message: expect.stringContaining('does not support task creation') });
  });

  it('under 2025-11-25: tasks too, and the asynchronous tools declare task support', async () => {
    const org = await createOrganization();
    const { result } = await initialize(org.key, '2025-11-25');
    expect(result!.capabilities).toEqual({
      tools: { listChanged: false },
      prompts: { listChanged: false },
      resources: { listChanged: false, subscribe: false },
      logging: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    const listed = await rpc(org.key, '2025-11-25', 'tools/list');
    expect(listed.result!.tools!.filter((tool) => tool.execution !== undefined).map((tool) => tool.name).sort()).toEqual(['audit', 'gtm-audit', 'read-site']);
  });

  it('answers an initialize asking for an unknown version with the latest that has initialize, tasks included', async () => {
    const org = await createOrganization();
    // As clients send it: no Mcp-Protocol-Version header before a version is negotiated.
    const response = await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }, { key: org.key });
    const { result } = await response.json<RpcAnswer>();
    expect(result!.protocolVersion).toBe('2025-11-25');
    expect(result!.capabilities).toHaveProperty('tasks');
  });

  it('refuses an initialize sent with a 2026 header (the 2026-07-28 revision has no initialize): 400, -32020, its id', async () => {
    const org = await createOrganization();
    const response = await mcpRpc({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }, { key: org.key, headers: { 'Mcp-Protocol-Version': '2026-07-28' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32020 } });
  });
});
