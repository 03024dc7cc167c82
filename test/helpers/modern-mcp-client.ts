import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { exports } from 'cloudflare:workers';
import { modernHeaders } from './modern-headers.ts';

/** What an elicitation handler of the v2 client gets: the form a tool asks (message and requested schema). */
export interface ElicitationRequest {
  message: string;
  requestedSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
}

export type ElicitationAnswer = { action: 'accept'; content: Record<string, string | number | boolean | string[]> } | { action: 'decline' | 'cancel' };

export interface ModernClientOptions {
  /** Declares form elicitation and answers every form a tool asks with this (the SDK retries the call). */
  elicitation?: (request: ElicitationRequest) => ElicitationAnswer | Promise<ElicitationAnswer>;
  /** Further client capabilities, e.g. the tasks extension. */
  capabilities?: ClientOptions['capabilities'];
}

/**
 * The official SDK v2 client (`@modelcontextprotocol/client` 2.4.0), connected to the Worker under
 * test through its fetch handler, in `auto` version negotiation: it probes with server/discover and
 * speaks 2026-07-28 when the server does (a 2025 server would get `initialize`).
 */
export async function connectModernMcpClient(key: string, options: ModernClientOptions = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('https://recon.test/api/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
  });
  const capabilities = { ...options.capabilities, ...(options.elicitation ? { elicitation: { form: {} } } : {}) };
  const client = new Client({ name: 'recon-tests-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities });
  if (options.elicitation) {
    const answer = options.elicitation;
    client.setRequestHandler('elicitation/create', async (request) => answer(request.params as ElicitationRequest));
  }
  await client.connect(transport);
  return client;
}

const TASKS = 'io.modelcontextprotocol/tasks';

/** The `_meta` envelope a 2026-07-28 request carries; `capabilities` are the client's (e.g. `{ elicitation: { form: {} } }`). */
export function modernMeta(capabilities: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'recon-tests-raw', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

interface RpcRequest {
  /** The JSON-RPC id; a fresh number when absent. */
  id?: number | string;
  method: string;
  params?: Record<string, unknown>;
}

let nextId = 1;

/**
 * One raw 2026-07-28 JSON-RPC POST, for what the SDK v2 client will not send or read (the tasks
 * extension's results): the revision's headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`)
 * and, unless the request brings its own, the `_meta` envelope with `capabilities`.
 */
export function modernRpc(key: string, request: RpcRequest, capabilities: Record<string, unknown> = {}): Promise<Response> {
  const { method, params = {}, id = nextId++ } = request;
  const envelope = { ...modernMeta(capabilities), ...(params._meta as Record<string, unknown> | undefined) };
  const headers = modernHeaders(key, method, params);
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope } };
  return exports.default.fetch(new Request('https://recon.test/api/mcp', { method: 'POST', headers, body: JSON.stringify(body) }));
}

/**
 * The official tasks requester (`@modelcontextprotocol/ext-tasks`) over a v2 client that declares
 * the tasks extension. The SDK v2 client's codecs refuse the extension's results, so the package
 * takes a raw dispatch from its host (its documented adapter): here, one 2026-07-28 POST per
 * request, with the headers the revision requires.
 */
export async function connectTaskSession(key: string) {
  const { createTaskSessionFromClient } = await import('@modelcontextprotocol/ext-tasks/client');
  const clientCapabilities = { extensions: { [TASKS]: {} } };
  const clientInfo = { name: 'recon-tests-v2', version: '1.0.0' };
  const client = await connectModernMcpClient(key, { capabilities: clientCapabilities });
  // The package hands over `{method, params}`, already framed with the envelope; the host posts it.
  const rawDispatch = async (request: unknown) => {
    const body = await (await modernRpc(key, request as RpcRequest)).json<{ result?: unknown; error?: unknown }>();
    return body.error === undefined ? { kind: 'result' as const, result: body.result as never } : { kind: 'error' as const, error: body.error as never };
  };
  const session = createTaskSessionFromClient(client, {
    endpointId: 'recon-test',
    rawDispatch,
    v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities },
  });
  return { client, session };
}

/** One raw 2026-07-28 tools/call, for what the SDK client would not send (a tampered or foreign requestState). */
export async function modernToolCall(
  key: string,
  name: string,
  args: Record<string, unknown>,
  extra: { capabilities?: Record<string, unknown>; requestState?: string; inputResponses?: Record<string, unknown> } = {},
): Promise<{ status: number; body: { id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } }> {
  const params = {
    name,
    arguments: args,
    ...(extra.requestState === undefined ? {} : { requestState: extra.requestState }),
    ...(extra.inputResponses === undefined ? {} : { inputResponses: extra.inputResponses }),
  };
  const response = await modernRpc(key, { id: 1, method: 'tools/call', params }, extra.capabilities);
  return { status: response.status, body: await response.json() };
}
