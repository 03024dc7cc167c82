import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { exports } from 'cloudflare:workers';

export type { ModernClient };

/** The official SDK client, connected to the Worker under test through its fetch handler. */
export async function connectMcpClient(key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('https://recon.test/api/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
  });
  const client = new Client({ name: 'recon-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** One raw JSON-RPC POST to /api/mcp, for what the SDK client would not send. */
export function mcpRpc(
  body: unknown,
  options: { key?: string; headers?: Record<string, string>; method?: string } = {},
): Promise<Response> {
  const headers = new Headers({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...options.headers });
  if (options.key) headers.set('Authorization', `Bearer ${options.key}`);
  const method = options.method ?? 'POST';
  return exports.default.fetch(
    new Request('https://recon.test/api/mcp', { method, headers, body: method === 'POST' ? JSON.stringify(body) : undefined }),
  );
}

/** What an elicitation handler of the v2 client gets: the form a tool asks (message and requested schema). */
export interface ElicitationRequest {
  message: string;
  requestedSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
}

export type ElicitationAnswer = { action: 'accept'; content: Record<string, string | number | boolean | string[]> } | { action: 'decline' | 'cancel' };

/**
 * The official SDK v2 client (`@modelcontextprotocol/client` 2.4.0), negotiating 2026-07-28, connected
 * to the Worker under test through its fetch handler. With `elicitation`, it declares the elicitation
 * capability (form mode) and answers every form a tool asks with it (the SDK retries the call).
 */
export async function connectModernMcpClient(key: string, options: { elicitation?: (request: ElicitationRequest) => ElicitationAnswer | Promise<ElicitationAnswer> } = {}): Promise<ModernClient> {
  const transport = new ModernTransport(new URL('https://recon.test/api/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
  });
  const client = new ModernClient(
    { name: 'recon-tests-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(options.elicitation ? { capabilities: { elicitation: { form: {} } } } : {}) },
  );
  if (options.elicitation) {
    const answer = options.elicitation;
    client.setRequestHandler('elicitation/create', async (request) => answer(request.params as ElicitationRequest));
  }
  await client.connect(transport);
  return client;
}

/** The `_meta` envelope a 2026-07-28 request carries; `capabilities` are the client's (e.g. `{ elicitation: { form: {} } }`). */
export function modernMeta(capabilities: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw-tests', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/**
 * One raw 2026-07-28 tools/call (headers MCP-Protocol-Version, Mcp-Method, Mcp-Name and the `_meta`
 * envelope), for what the SDK client would not send (a tampered or foreign requestState).
 */
export async function modernToolCall(
  key: string,
  name: string,
  args: Record<string, unknown>,
  extra: { capabilities?: Record<string, unknown>; requestState?: string; inputResponses?: Record<string, unknown> } = {},
): Promise<{ status: number; body: { id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } }> {
  const params = {
    name,
    arguments: args,
    _meta: modernMeta(extra.capabilities),
    ...(extra.requestState === undefined ? {} : { requestState: extra.requestState }),
    ...(extra.inputResponses === undefined ? {} : { inputResponses: extra.inputResponses }),
  };
  const response = await mcpRpc(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params },
    { key, headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': name } },
  );
  return { status: response.status, body: await response.json() };
}
