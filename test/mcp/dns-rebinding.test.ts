import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

// The Workers-pool tests call https://recon.test; vitest.config.ts adds it to both allow-lists.
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A POST to /api/mcp at any URL, e.g. as a rebinding page at http://evil.example would send it. */
function post(url: string, headers: Record<string, string>, body: string = JSON.stringify(INITIALIZE)): Promise<Response> {
  return exports.default.fetch(
    new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body,
    }),
  );
}

interface RpcErrorAnswer {
  jsonrpc: string;
  id: number | null;
  error: { code: number; message: string; data: { error: string; message: string; requestId: string } };
}

/** `id`: the refused request's id (read from a copy of its body), null when the body has none that can be read. */
async function expectForbidden(response: Response, variable: 'MCP_ALLOWED_HOSTS' | 'MCP_ALLOWED_ORIGINS', id: number | null = 1): Promise<void> {
  expect(response.status).toBe(403);
  const body = await response.json<RpcErrorAnswer>();
  expect(body).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32000 } });
  expect(body.error.message).toMatch(/^Error access_denied: /);
  expect(body.error.message).toContain(variable);
  expect(body.error.data).toEqual({
    error: 'access_denied',
    message: body.error.message.replace('Error access_denied: ', ''),
    requestId: response.headers.get('X-Request-Id'),
  });
}

describe('DNS-rebinding protection on /api/mcp: Host and Origin against allow-lists', () => {
  it('refuses a rebinding page that controls both Host and Origin', async () => {
    const org = await createOrganization();
    const response = await post('http://evil.example/api/mcp', { Authorization: `Bearer ${org.key}`, Origin: 'http://evil.example' });
    await expectForbidden(response, 'MCP_ALLOWED_HOSTS');
  });

  it('refuses Host: evil.example on a request to an allowed URL', async () => {
    const org = await createOrganization();
    await expectForbidden(await mcpRpc(INITIALIZE, { key: org.key, headers: { Host: 'evil.example' } }), 'MCP_ALLOWED_HOSTS');
  });

  it.each(['http://evil.example', 'https://recon.test.evil.example', 'null', 'http://recon.test'])(
    'refuses Origin: %s',
    async (origin) => {
      const org = await createOrganization();
      await expectForbidden(await mcpRpc(INITIALIZE, { key: org.key, headers: { Origin: origin } }), 'MCP_ALLOWED_ORIGINS');
    },
  );

  it('refuses before anything else: before the key, before parsing, and writes nothing', async () => {
    await expectForbidden(await post('http://evil.example/api/mcp', {}), 'MCP_ALLOWED_HOSTS');
    await expectForbidden(await post('http://evil.example/api/mcp', {}, '{"jsonrpc": "2.0", '), 'MCP_ALLOWED_HOSTS', null);
    const org = await createOrganization();
    const start = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'audit', arguments: {} } });
    await expectForbidden(await post('https://recon.test/api/mcp', { Authorization: `Bearer ${org.key}`, Origin: 'http://evil.example' }, start), 'MCP_ALLOWED_ORIGINS');
    const runs = await (await call('/api/v1/runs', { key: org.key })).json<{ runs: unknown[] }>();
    expect(runs.runs).toEqual([]);
  });

  it('refuses GET and DELETE from a disallowed host too', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await exports.default.fetch(new Request('http://evil.example/api/mcp', { method }));
      await expectForbidden(response, 'MCP_ALLOWED_HOSTS', null);
    }
  });

  it('accepts requests without Origin (agents, CLIs) and from an allowed Origin', async () => {
    const org = await createOrganization();
    expect((await mcpRpc(INITIALIZE, { key: org.key })).status).toBe(200);
    expect((await mcpRpc(INITIALIZE, { key: org.key, headers: { Origin: 'https://recon.test' } })).status).toBe(200);
    expect((await mcpRpc(INITIALIZE, { key: org.key, headers: { Origin: 'https://RECON.test' } })).status).toBe(200);
  });

  it('accepts the local development hosts on any port, as wrangler.toml configures them', async () => {
    const org = await createOrganization();
    for (const host of ['localhost', 'localhost:8787', '127.0.0.1:54321', '[::1]:8787', 'LOCALHOST:9000']) {
      const response = await post(`http://${host}/api/mcp`, { Authorization: `Bearer ${org.key}`, Origin: `http://${host}` });
      expect(response.status, host).toBe(200);
    }
  });

  it('is configured from wrangler.toml and vitest.config.ts', () => {
    expect(env.MCP_ALLOWED_HOSTS.split(',')).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '[::1]', 'recon.test']));
  });
});
