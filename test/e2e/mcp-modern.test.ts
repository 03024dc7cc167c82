/**
 * End to end over MCP's current revision (2026-07-28): the official SDK v2 client
 * (`@modelcontextprotocol/client`) and the official tasks requester (`@modelcontextprotocol/ext-tasks`)
 * over HTTP against the real Worker (wrangler's local runtime) on the seeded local D1, beside the
 * 2025 clients of mcp.test.ts on the same URL and keys.
 */
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernHeaders } from '../helpers/modern-headers.ts';
import { startDevServer, type DevServer } from './dev-server.ts';

const ACME_KEY = 'rk_test_acme_0000000000000000000000000000';
const GLOBEX_KEY = 'rk_test_globex_00000000000000000000000000';
const TASKS = 'io.modelcontextprotocol/tasks';
const CLIENT_INFO = { name: 'recon-e2e-v2', version: '1.0.0' };

let server: DevServer;

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

async function connect(key: string, options: ClientOptions = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: 'auto' }, ...options });
  await client.connect(transport);
  return client;
}

const textOf = (result: { content?: unknown }) => (result.content as { type: string; text: string }[])[0]!.text;

describe('MCP 2026-07-28 end to end, with the official v2 client', () => {
  it('negotiates 2026-07-28 without falling back, lists the tools, and reads research as text and structured content', async () => {
    const client = await connect(ACME_KEY);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerCapabilities()?.extensions).toHaveProperty([TASKS]);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('research');
    const brief = await client.callTool({ name: 'research', arguments: { topic: 'Acme Analytics pricing' } });
    expect(brief.isError).toBeFalsy();
    const rest = await fetch(`${server.url}/api/v1/commands/research`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ACME_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ topic: 'Acme Analytics pricing' }),
    });
    const markdown = await rest.text();
    expect(textOf(brief)).toBe(markdown);
    // The brief's claims as data: each a sentence of the brief, with the sources it is quoted from.
    const { claims } = brief.structuredContent as { claims: { text: string; sources: { url: string; title: string }[] }[] };
    expect(claims.length).toBeGreaterThan(0);
    for (const claim of claims) {
      expect(markdown).toContain(claim.text);
      expect(claim.sources.length).toBeGreaterThan(0);
      for (const source of claim.sources) expect(markdown).toContain(source.url);
    }
    await client.close();
  });

  it('runs a gtm-audit as a task to completion with the official tasks requester', async () => {
    const clientCapabilities = { extensions: { [TASKS]: {} } };
    const client = await connect(ACME_KEY, { capabilities: clientCapabilities });
    let nextId = 1;
    // The SDK v2 client's codecs refuse the extension's results: the requester takes a raw dispatch from its host.
    const rawDispatch = async (request: unknown) => {
      const { method, params = {} } = request as { method: string; params?: Record<string, unknown> };
      const response = await fetch(`${server.url}/api/mcp`, {
        method: 'POST',
        headers: modernHeaders(ACME_KEY, method, params),
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, ...(request as object) }),
      });
      const body = (await response.json()) as { result?: unknown; error?: unknown };
      return body.error === undefined ? { kind: 'result' as const, result: body.result as never } : { kind: 'error' as const, error: body.error as never };
    };
    const session = createTaskSessionFromClient(client, {
      endpointId: 'recon-e2e',
      rawDispatch,
      v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: CLIENT_INFO, clientCapabilities },
    });
    const execution = await session.callTool('gtm-audit', { focus: ['pricing'] });
    expect(execution.kind).toBe('task');
    const { outcome, lastTask } = await execution.settle();
    expect(outcome.status).toBe('completed');
    const report = textOf(resultFromTaskOutcome(outcome) as { content: unknown });
    const rest = await fetch(`${server.url}/api/v1/runs/gtm-audit/${lastTask!.taskId}`, { headers: { Authorization: `Bearer ${ACME_KEY}` } });
    expect(report).toBe(await rest.text());
    expect(report).toContain('pricing');
    await session.close();
    await client.close();
  });

  it('asks globex (unfinished profile) for its sales profile in the client, saves it, and runs the command', async () => {
    const before = (await (await fetch(`${server.url}/api/v1/profile`, { headers: { Authorization: `Bearer ${GLOBEX_KEY}` } })).json()) as { complete: boolean; missing: string[] };
    expect(before).toMatchObject({ complete: false });
    const asked: { message: string; requestedSchema: { properties: Record<string, unknown>; required?: string[] } }[] = [];
    const values: Record<string, string> = {
      companyName: 'Globex',
      domain: 'globex.com',
      offering: 'Supply-chain software for mid-size manufacturers',
      'icp.industries': 'Manufacturing',
      'icp.companySizes': '201-1000',
      'icp.regions': 'Europe',
      'icp.personas': 'COO',
      competitors: 'initech.com',
      valueProps: 'Fewer stockouts',
    };
    const client = await connect(GLOBEX_KEY, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      const form = request.params as (typeof asked)[number];
      asked.push(form);
      // A person fills in the fields the form shows.
      return { action: 'accept', content: Object.fromEntries(Object.keys(form.requestedSchema.properties).map((name) => [name, values[name]!])) };
    });
    const brief = await client.callTool({ name: 'research', arguments: { topic: 'Globex pricing' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.requestedSchema.required).toEqual(before.missing);
    expect(brief.isError).toBeFalsy();
    expect(textOf(brief)).toMatch(/^# Research brief: Globex pricing/);
    const after = await (await fetch(`${server.url}/api/v1/profile`, { headers: { Authorization: `Bearer ${GLOBEX_KEY}` } })).json();
    expect(after).toMatchObject({ complete: true, profile: { offering: values.offering } });
    await client.close();
  });
});
