import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/ground/api-key.ts';
import type { CoreContext } from '../../src/ground/context.ts';
import { handleMcpPost } from '../../src/mcp/server.ts';
import { answerToolsList } from '../../src/mcp/tools-list.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';
import { requestDbOver } from '../helpers/request-db.ts';

const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

function contextWith(scopes: readonly Scope[]): CoreContext {
  return { env, db: requestDbOver(), principal: { keyId: 'key_test', scopes, organization: { id: 'org_test', slug: 'test', name: 'Test' } }, requestId: 'req-test' };
}

function mcpRequest(body: unknown, version?: string): Request {
  return new Request('https://recon.test/api/mcp', {
    method: 'POST',
    headers: { ...HEADERS, ...(version ? { 'Mcp-Protocol-Version': version } : {}) },
    body: JSON.stringify(body),
  });
}

/** What the one server answers (the path every other MCP request takes: the SDK v2's 2025 lane). */
async function sdkAnswer(ctx: CoreContext, body: unknown, version?: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await handleMcpPost(ctx, mcpRequest(body, version), body);
  return { status: response.status, type: response.headers.get('Content-Type'), text: await response.text() };
}

const scopeSets: Scope[][] = Array.from({ length: 2 ** SCOPES.length }, (_, bits) => SCOPES.filter((_, i) => bits & (1 << i)));

describe('tools/list answered from the list serialized once per isolate', () => {
  it("is byte for byte the SDK server's answer, for every scope set and protocol version", async () => {
    for (const version of [undefined, ...SUPPORTED_PROTOCOL_VERSIONS]) {
      for (const scopes of scopeSets) {
        for (const id of [1, 'a-string-id', 0]) {
          const body = { jsonrpc: '2.0', id, method: 'tools/list' };
          const ctx = contextWith(scopes);
          const withTasks = (version ?? '2025-03-26') >= '2025-11-25';
          const fast = answerToolsList(ctx.principal, mcpRequest(body, version), body, withTasks);
          expect(fast, `answered without the SDK (${version}, ${scopes.join(' ')})`).toBeDefined();
          const expected = await sdkAnswer(ctx, body, version);
          expect({ status: fast!.status, type: fast!.headers.get('Content-Type'), text: await fast!.text() }).toEqual(expected);
          // Served again from the cache: the same text.
          expect(await answerToolsList(ctx.principal, mcpRequest(body, version), body, withTasks)!.text()).toBe(expected.text);
        }
      }
    }
  });

  it('leaves every other request to the SDK: params, other ids, extra members, other headers', () => {
    const principal = contextWith(SCOPES).principal;
    const plain = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const notPlain: unknown[] = [
      { ...plain, params: { cursor: 'abc' } },
      { ...plain, params: { _meta: { progressToken: 1 } } },
      { ...plain, params: [] },
      { ...plain, id: 1.5 },
      { ...plain, id: null },
      { jsonrpc: '2.0', method: 'tools/list' },
      { ...plain, extra: true },
      { ...plain, jsonrpc: '1.0' },
      { ...plain, method: 'tools/call' },
      [plain],
      undefined,
    ];
    for (const body of notPlain) expect(answerToolsList(principal, mcpRequest(plain), body, true), JSON.stringify(body)).toBeUndefined();
    const withHeaders = (headers: Record<string, string>) =>
      new Request('https://recon.test/api/mcp', { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(plain) });
    const refusedHeaders: Record<string, string>[] = [{ Accept: 'application/json' }, { 'Content-Type': 'text/plain' }, { 'Mcp-Protocol-Version': '1999-01-01' }];
    for (const headers of refusedHeaders) {
      expect(answerToolsList(principal, withHeaders(headers), plain, true), JSON.stringify(headers)).toBeUndefined();
    }
  });

  it('answers through the Worker as the SDK does, and the SDK still refuses what it refuses', async () => {
    const org = await createOrganization();
    const body = { jsonrpc: '2.0', id: 7, method: 'tools/list' };
    const response = await mcpRpc(body, { key: org.key, headers: { 'Mcp-Protocol-Version': '2025-11-25' } });
    const expected = await sdkAnswer(contextWith(SCOPES), body, '2025-11-25');
    expect({ status: response.status, type: response.headers.get('Content-Type'), text: await response.text() }).toEqual(expected);

    const withCursor = await mcpRpc({ ...body, params: { cursor: 'x' } }, { key: org.key, headers: { 'Mcp-Protocol-Version': '2025-11-25' } });
    expect(await withCursor.text()).toBe(expected.text);
    const badVersion = await mcpRpc(body, { key: org.key, headers: { 'Mcp-Protocol-Version': '1999-01-01' } });
    expect(badVersion.status).toBe(400);
  });
});
