import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';
import { startEarlyInWindow } from '../helpers/rate-window.ts';

/**
 * Every refusal on /api/mcp, before or around the MCP transport, is a JSON-RPC error body that an
 * MCP client can show, with the HTTP status and headers the contract gives (401 + WWW-Authenticate,
 * 413, 429 + Retry-After).
 */

interface RpcErrorAnswer {
  jsonrpc: '2.0';
  id: number | string | null;
  error: { code: number; message: string; data: Record<string, unknown> & { error: string; message: string; requestId: string } };
}

const toolsList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const toolsCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A documentation-range address no other test uses (failed authentications are counted per address). */
function freshAddress(): string {
  const [a, b] = crypto.getRandomValues(new Uint8Array(2));
  return `203.0.${a}.${b}`;
}

async function rpcError(response: Response, status: number): Promise<RpcErrorAnswer> {
  expect(response.status).toBe(status);
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = await response.json<RpcErrorAnswer>();
  expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  expect(body.error.data.requestId).toBe(response.headers.get('X-Request-Id'));
  return body;
}

describe('refusals on /api/mcp are JSON-RPC errors a client can show', () => {
  it('answers a missing key with 401, WWW-Authenticate: Bearer, and what to send and where keys come from', async () => {
    const body = await rpcError(await mcpRpc(toolsList(1), { headers: { 'CF-Connecting-IP': freshAddress() } }), 401);
    expect(body.id).toBe(1);
    expect(body.error.message).toMatch(/^Error unauthorized: Missing API key/);
    expect(body.error.message).toContain('Authorization: Bearer rk_');
    expect(body.error.message).toMatch(/organization's admin/);
    expect(body.error.message).not.toContain('npm run keys');
    expect(body.error.data).toMatchObject({ error: 'unauthorized' });
  });

  it('answers an unknown key with 401 and the same hint, and keeps WWW-Authenticate', async () => {
    const response = await mcpRpc(toolsList(2), {
      key: `rk_live_${'x'.repeat(43)}`,
      headers: { 'CF-Connecting-IP': freshAddress() },
    });
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer /);
    const body = await rpcError(response, 401);
    expect(body.error.message).toMatch(/^Error unauthorized: Invalid API key/);
    expect(body.error.message).toContain('Authorization: Bearer rk_');
    expect(body.error.message).toMatch(/organization's admin/);
  });

  it('answers a body over 256 KiB with 413 as a JSON-RPC error', async () => {
    const org = await createOrganization();
    const huge = toolsCall(3, 'research', { topic: 'x', userContext: 'y'.repeat(300 * 1024) });
    const body = await rpcError(await mcpRpc(huge, { key: org.key }), 413);
    expect(body.error.data).toMatchObject({ error: 'payload_too_large' });
    expect(body.error.message).toMatch(/256 KiB/);
  });

  it("answers the key's 61st command call in a minute with 429, Retry-After and the request's id", { timeout: 30_000 }, async () => {
    const org = await createOrganization();
    await startEarlyInWindow(8_000);
    for (let i = 0; i < 60; i++) expect((await mcpRpc(toolsCall(i, 'help'), { key: org.key })).status).toBe(200);

    const response = await mcpRpc(toolsCall(61, 'help'), { key: org.key });
    expect(response.headers.get('Retry-After')).toBe('60');
    const body = await rpcError(response, 429);
    expect(body.id).toBe(61);
    expect(body.error.message).toMatch(/^Rate limited: retry in 60 s\. /);
    expect(body.error.data).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 60, bucket: 'commands' });
    // Reads have their own budget: listing tools still works.
    expect((await mcpRpc(toolsList(62), { key: org.key })).status).toBe(200);
  });

  it('answers an address that sent too many unknown keys with 429 and when to retry', { timeout: 30_000 }, async () => {
    const address = freshAddress();
    await startEarlyInWindow(5_000);
    let response: Response | undefined;
    let last = -1;
    for (let i = 0; i < 40; i++) {
      last = i;
      response = await mcpRpc(toolsList(i), { key: `rk_live_${String(i).padStart(43, 'y')}`, headers: { 'CF-Connecting-IP': address } });
      if (response.status === 429) break;
      expect(response.status).toBe(401);
    }
    const seconds = Number(response!.headers.get('Retry-After'));
    expect(seconds).toBeGreaterThan(0);
    const body = await rpcError(response!, 429);
    // Refused before the body was read, and still answered by the request's id.
    expect(body.id).toBe(last);
    expect(body.error.message).toMatch(new RegExp(`^Rate limited: retry in ${seconds} s\\. `));
    expect(body.error.data).toMatchObject({ error: 'rate_limited', retryAfterSeconds: seconds, bucket: 'failed-auth' });
  });

  it('names the missing scope and how to get a key with it, on both doors, without an operator command', async () => {
    const org = await createOrganization({ scopes: ['oms:read'] });
    const tool = await (await mcpRpc(toolsCall(1, 'help'), { key: org.key })).json<{
      result: { isError: boolean; content: { text: string }[] };
    }>();
    expect(tool.result.isError).toBe(true);
    const text = tool.result.content[0]!.text;
    expect(text).toMatch(/^Error access_denied: .*'commands' scope/);
    expect(text).toContain("the dashboard's API key settings page (/dashboard/settings/keys");
    expect(text).not.toContain('npm run keys');
    const rest = await (await call('/api/v1/commands/help', { key: org.key, body: {} })).json<{ message: string }>();
    expect(text).toBe(`Error access_denied: ${rest.message}`);
  });
});
