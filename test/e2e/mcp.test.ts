/**
 * End to end over MCP: the official SDK client, over Streamable HTTP with the Authorization header,
 * against the real Worker (wrangler's local runtime) on the seeded local D1.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request as httpRequest } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from './dev-server.ts';

const ACME_KEY = 'rk_test_acme_0000000000000000000000000000';
const GLOBEX_KEY = 'rk_test_globex_00000000000000000000000000';
const COMMANDS = ['research', 'competitors', 'gtm-audit', 'audit', 'help'];
const TOOLS = [
  ...COMMANDS,
  'run-status',
  'get-profile',
  'set-profile',
  'import-objects',
  'add-sources',
  'read-site',
  'site-read-settings',
  'set-site-read-settings',
  'oms-metadata',
  'oms-search',
  'oms-pivot',
  'oms-get',
  'oms-provenance',
  'action-request',
  'action-list',
  'watch-create',
  'watch-list',
  'watch-get',
  'watch-executions',
  'watch-cancel',
  'watch-run',
  'changes',
];
const VALID_ARGUMENTS: Record<string, Record<string, unknown>> = {
  research: { topic: 'Acme Analytics pricing' },
  competitors: { limit: 5 },
  'gtm-audit': { focus: ['pricing'] },
  audit: {},
  help: {},
};

let server: DevServer;

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

async function connect(key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'recon-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function rest(command: string, key: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}/api/v1/commands/${command}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text: string }[]).map((part) => part.text).join('');
}

describe('MCP over HTTP with the SDK client', () => {
  it('initializes and lists every tool with a valid JSON Schema', async () => {
    const client = await connect(ACME_KEY);
    expect(client.getServerVersion()?.name).toBe('recon');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    const ajv = new Ajv2020({ strict: true, strictTypes: false });
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    }
    await client.close();
  });

  it.each(['research', 'competitors', 'help'])('%s returns the same markdown through MCP as through REST', async (command) => {
    const client = await connect(ACME_KEY);
    const result = await client.callTool({ name: command, arguments: VALID_ARGUMENTS[command] });
    const response = await rest(command, ACME_KEY, VALID_ARGUMENTS[command]);
    expect(response.status).toBe(200);
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(await response.text());
    await client.close();
  });

  it.each(['gtm-audit', 'audit'])('a %s run started through MCP is readable through REST, and the other way round', async (command) => {
    const client = await connect(ACME_KEY);
    const viaMcp = await client.callTool({ name: command, arguments: VALID_ARGUMENTS[command] });
    const mcpRunId = (viaMcp.structuredContent as { runId: string }).runId;
    const viaRest = await rest(command, ACME_KEY, VALID_ARGUMENTS[command]);
    expect(viaRest.status).toBe(202);
    const restRunId = viaRest.headers.get('X-Run-Id')!;

    const finish = async (id: string) => {
      for (let i = 0; i < 200; i++) {
        const polled = await client.callTool({ name: 'run-status', arguments: { kind: command, id } });
        if ((polled.structuredContent as { status: string }).status !== 'running') return polled;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('run did not finish');
    };
    const restRunThroughMcp = await finish(restRunId);
    const mcpRunThroughMcp = await finish(mcpRunId);
    const mcpRunThroughRest = await fetch(`${server.url}/api/v1/runs/${command}/${mcpRunId}`, { headers: { Authorization: `Bearer ${ACME_KEY}` } });
    expect(mcpRunThroughRest.headers.get('X-Run-Status')).toBe('completed');
    expect(await mcpRunThroughRest.text()).toBe(textOf(mcpRunThroughMcp));
    expect(restRunThroughMcp.structuredContent).toMatchObject({ runId: restRunId, status: 'completed' });
    await client.close();
  });

  it("reads a demo company's site through read-site, served on loopback as under npm run dev, and polls it to its report", async () => {
    const client = await connect(ACME_KEY);
    const started = await client.callTool({ name: 'read-site', arguments: { domain: 'globex.com', pages: 5 } });
    expect(started.isError).toBeFalsy();
    const { runId } = started.structuredContent as { runId: string };
    let polled = await client.callTool({ name: 'run-status', arguments: { kind: 'site-read', id: runId } });
    for (let i = 0; i < 300 && (polled.structuredContent as { status: string }).status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      polled = await client.callTool({ name: 'run-status', arguments: { kind: 'site-read', id: runId } });
    }
    expect(polled.structuredContent).toMatchObject({ runId, kind: 'site-read', status: 'completed' });
    expect(textOf(polled)).toMatch(/# Site read of globex\.com[\s\S]*5 of at most 5 pages requested/);
    await client.close();
  });

  it('returns a tool error an agent can act on', async () => {
    const client = await connect(GLOBEX_KEY);
    const result = await client.callTool({ name: 'research', arguments: { topic: 'pricing' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error onboarding_required: .*PUT \/api\/v1\/profile/);
    await client.close();
  });

  it('refuses a bad key with 401 before any JSON-RPC handling', async () => {
    await expect(connect('rk_live_notarealkeynotarealkeynotarealkey000000')).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('unauthorized'),
    });
    const response = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
  });

  it('refuses a forbidden browser Origin, or a foreign Host (DNS rebinding), with 403 and a JSON-RPC error', async () => {
    const post = (headers: Record<string, string>) =>
      rawPost(`${server.url}/api/mcp`, {
        Authorization: `Bearer ${ACME_KEY}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...headers,
      });
    const port = new URL(server.url).port;
    const refused: Record<string, string>[] = [
      { Origin: 'https://attacker.example' },
      { Host: `attacker.example:${port}`, Origin: `http://attacker.example:${port}` },
      { Host: 'attacker.example' },
    ];
    for (const headers of refused) {
      const response = await post(headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32000, data: { error: 'access_denied' } } });
    }
    // The dev server's own address, on its random port, is a local development host.
    expect((await post({ Origin: server.url })).status).toBe(200);
  });
});

/** A POST with exactly these headers (fetch would not send a Host of our choosing). */
function rawPost(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
    request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  });
}
