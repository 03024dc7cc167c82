import { describe, expect, it } from 'vitest';
import { createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

interface RpcAnswer {
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

async function rpc(key: string, body: unknown, version = '2025-11-25'): Promise<{ status: number; answer: RpcAnswer }> {
  const response = await mcpRpc(body, { key, headers: { 'Mcp-Protocol-Version': version } });
  return { status: response.status, answer: await response.json<RpcAnswer>() };
}

// Found by the hostile-input suite (test/reliability/hostile-input/mcp-tools.test.ts): the SDK
// answered these with -32603 internal error and zod's issue list as JSON for the message.
describe('a malformed MCP request is invalid params (-32602), never an internal error', () => {
  it.each([
    ['a task whose ttl is not a number', { name: 'audit', arguments: {}, task: { ttl: { a: 1 } } }, 'params.task.ttl'],
    ['a tool name that is not a string', { name: 42, arguments: {} }, 'params.name'],
    ['arguments that are not an object', { name: 'help', arguments: 'x' }, 'params.arguments'],
  ])('tools/call with %s', async (_what, params, path) => {
    const org = await createOrganization();
    const { status, answer } = await rpc(org.key, { jsonrpc: '2.0', id: 7, method: 'tools/call', params });
    expect(status).toBe(200);
    expect(answer.id).toBe(7);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(new RegExp(`^Invalid tools/call request: .*${path.replace('.', '\\.')}`));
    expect(answer.error?.message).not.toContain('\n');
  });

  it('tasks/get with a task id that is not a string', async () => {
    const org = await createOrganization();
    const { answer } = await rpc(org.key, { jsonrpc: '2.0', id: 'a', method: 'tasks/get', params: { taskId: 5 } });
    expect(answer.error).toMatchObject({ code: -32602, message: expect.stringContaining('params.taskId') });
  });

  it('a task-augmented call under a protocol version without tasks', async () => {
    const org = await createOrganization();
    const { answer } = await rpc(org.key, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'audit', arguments: {}, task: {} } }, '2025-06-18');
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('does not support task creation');
    expect(answer.error?.message).toContain("call it without 'task'");
  });

  it('a well-formed call still reaches the tool', async () => {
    const org = await createOrganization();
    const { answer } = await rpc(org.key, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'help', arguments: {} } });
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ content: [{ type: 'text' }] });
  });
});
