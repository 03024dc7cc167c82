import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

interface RpcErrorAnswer {
  jsonrpc: string;
  id: null;
  error: { code: number; message: string; data: { error: string; message: string; requestId: string } };
}

const toolsCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

async function expectInvalidRequest(response: Response): Promise<RpcErrorAnswer> {
  expect(response.status).toBe(400);
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = await response.json<RpcErrorAnswer>();
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  expect(body.error.message).toMatch(/batch/i);
  expect(body.error.message).toMatch(/one JSON-RPC message per request/);
  expect(body.error.data).toEqual({ error: 'invalid_input', message: expect.any(String), requestId: response.headers.get('X-Request-Id') });
  return body;
}

describe('MCP refuses JSON-RPC batches (none since protocol 2025-06-18)', () => {
  it('answers an array of 100 tools/call requests with 400 and -32600, and runs none of them', async () => {
    const org = await createOrganization();
    const batch = Array.from({ length: 100 }, (_, i) => toolsCall(i + 1, 'gtm-audit', { focus: ['pricing'] }));
    await expectInvalidRequest(await mcpRpc(batch, { key: org.key }));
    const runs = await (await call('/api/v1/runs', { key: org.key })).json<{ runs: unknown[] }>();
    expect(runs.runs).toEqual([]);
  });

  it('answers an empty array with the same -32600', async () => {
    const org = await createOrganization();
    await expectInvalidRequest(await mcpRpc([], { key: org.key }));
  });

  it('refuses a one-element array too, even an initialize', async () => {
    const org = await createOrganization();
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    await expectInvalidRequest(await mcpRpc([initialize], { key: org.key }));
  });

  it('spends no rate-limit token on a refused batch', async () => {
    const org = await createOrganization();
    // One more batch than the command budget (60 a minute): were they charged, the call after would be 429.
    for (let i = 0; i < 61; i++) expect((await mcpRpc([toolsCall(1, 'help', {})], { key: org.key })).status).toBe(400);
    const single = await mcpRpc(toolsCall(2, 'help', {}), { key: org.key });
    expect(single.status).toBe(200);
    expect(await single.json()).toMatchObject({ result: { content: [{ type: 'text' }] } });
  });

  it('still asks for a key first', async () => {
    const response = await mcpRpc([toolsCall(1, 'help', {})]);
    expect(response.status).toBe(401);
  });
});
