import { describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../src/ground/errors.ts';
import { toRpcError } from '../../src/mcp/json-rpc-error.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string; data?: { error: string; message: string; details?: unknown; requestId?: string } };
}

async function rpc(key: string, method: string, params: unknown): Promise<{ answer: RpcAnswer; requestId: string }> {
  const response = await mcpRpc({ jsonrpc: '2.0', id: 1, method, params }, { key, headers: { 'Mcp-Protocol-Version': '2025-11-25' } });
  return { answer: await response.json<RpcAnswer>(), requestId: response.headers.get('X-Request-Id')! };
}

const UNKNOWN_ID = 'f'.repeat(64);

describe('MCP task errors go through one funnel: our code and message, the REST body as data', () => {
  it.each([
    ['tasks/get', { taskId: UNKNOWN_ID }],
    ['tasks/result', { taskId: UNKNOWN_ID }],
    ['tasks/cancel', { taskId: UNKNOWN_ID }],
    ['tasks/list', {}],
    ['tools/call', { name: 'gtm-audit', arguments: {}, task: {} }],
  ])('%s without the commands scope: access_denied as REST says it, not a bare -32603', async (method, params) => {
    const org = await createOrganization({ scopes: ['oms:read'] });
    const rest = await (await call('/api/v1/runs', { key: org.key })).json<{ error: string; message: string }>();
    expect(rest.error).toBe('access_denied');
    const { answer, requestId } = await rpc(org.key, method, params);
    expect(answer.error).toEqual({
      code: -32000,
      message: `Error access_denied: ${rest.message}`,
      data: { error: 'access_denied', message: rest.message, requestId },
    });
  });

  it('tasks/list with a cursor it never gave out: invalid_input with the cursor named, as GET /api/v1/runs says', async () => {
    const org = await createOrganization();
    const rest = await (await call('/api/v1/runs?cursor=bogus', { key: org.key })).json<{ error: string; message: string; details: unknown }>();
    expect(rest.error).toBe('invalid_input');
    const { answer, requestId } = await rpc(org.key, 'tasks/list', { cursor: 'bogus' });
    expect(answer.error).toEqual({
      code: -32602,
      message: `Error invalid_input: ${rest.message}`,
      data: { error: 'invalid_input', message: rest.message, details: rest.details, requestId },
    });
  });

  it.each(['tasks/get', 'tasks/result', 'tasks/cancel'])('%s of an unknown task: not_found with our message (-32602, as MCP asks)', async (method) => {
    const org = await createOrganization();
    const { answer, requestId } = await rpc(org.key, method, { taskId: UNKNOWN_ID });
    const message = `No async run ${UNKNOWN_ID} in your organization.`;
    expect(answer.error).toEqual({ code: -32602, message: `Error not_found: ${message}`, data: { error: 'not_found', message, requestId } });
  });

  it('masks an unexpected error as internal with the request id, and logs its detail', () => {
    const logged: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    const error = toRpcError(new Error('D1_ERROR: no such column: secret_detail'), 'req-123');
    spy.mockRestore();
    const message = 'Something went wrong on our side; quote request id req-123 if you report it.';
    expect({ code: error.code, message: error.message, data: error.data }).toEqual({
      code: -32603,
      message: `Error internal: ${message}`,
      data: { error: 'internal', message, requestId: 'req-123' },
    });
    expect(logged.join('\n')).toContain('secret_detail');
    expect(logged.join('\n')).toContain('req-123');
  });

  it('keeps a DomainError thrown as-is: code, message and details', () => {
    const error = toRpcError(new DomainError('invalid_input', 'Bad.', { details: [{ path: 'x', message: 'no' }] }), 'req-1');
    expect({ code: error.code, message: error.message, data: error.data }).toEqual({
      code: -32602,
      message: 'Error invalid_input: Bad.',
      data: { error: 'invalid_input', message: 'Bad.', details: [{ path: 'x', message: 'no' }], requestId: 'req-1' },
    });
  });
});
