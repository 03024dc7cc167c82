import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { exports } from 'cloudflare:workers';

/**
 * The official SDK v2 client, connected to the Worker under test through its fetch handler, in
 * `auto` version negotiation: it probes with server/discover and speaks 2026-07-28 when the server
 * does (a 2025 server would get `initialize`).
 */
export async function connectModernMcpClient(key: string, options: ClientOptions = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('https://recon.test/api/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
  });
  const client = new Client({ name: 'recon-tests-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, ...options });
  await client.connect(transport);
  return client;
}

const TASKS = 'io.modelcontextprotocol/tasks';

/** The JSON-RPC body field the `Mcp-Name` header mirrors, by method (SEP-2243 and SEP-2663). */
const NAME_FIELD: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

interface RpcRequest {
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
  const { method, params = {} } = request;
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'recon-tests-raw', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...meta,
  };
  const nameField = NAME_FIELD[method];
  const headers: Record<string, string> = {
    Authorization: `Bearer ${key}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...(nameField && typeof params[nameField] === 'string' ? { 'Mcp-Name': params[nameField] as string } : {}),
  };
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: envelope } };
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
