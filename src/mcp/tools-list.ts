import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { Principal } from '../ground/context.ts';
import { listedTools, TOOLS } from './tools/index.ts';
import { scopeAllows } from '../operations/definition.ts';

/**
 * tools/list without building an MCP server: the answer depends only on the key's scopes and on
 * whether the protocol version has tasks, so its JSON is serialized once per isolate for each of
 * those (at most 2 x 2^4 texts) and only the request id is written per request. The SDK's server
 * would parse the message against every JSON-RPC schema, build the server and its handlers, and
 * serialize the same list again on every call.
 *
 * Only a plain, well-formed request takes this path: `{"jsonrpc":"2.0","id":<string or integer>,
 * "method":"tools/list"}` with no params (or `{}`), headers the SDK's transport accepts (Accept of
 * JSON and SSE, a JSON Content-Type, a supported or absent Mcp-Protocol-Version). Anything else goes
 * to the SDK, which answers it (or refuses it) as always. The answer is byte for byte the SDK's: a
 * test compares them for every scope set and protocol version.
 */
export function answerToolsList(principal: Principal, request: Request, message: unknown, withTasks: boolean): Response | undefined {
  if (!isPlainToolsList(message) || !acceptedHeaders(request.headers)) return undefined;
  // The list's bytes are encoded once per isolate and scope set: only the request's id is new.
  const { head, tail } = listedToolsBody(principal.scopes, withTasks);
  const id = encoder.encode(JSON.stringify(message.id));
  const body = new Uint8Array(head.byteLength + id.byteLength + tail.byteLength);
  body.set(head, 0);
  body.set(id, head.byteLength);
  body.set(tail, head.byteLength + id.byteLength);
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
}

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

function isPlainToolsList(message: unknown): message is { id: string | number } {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const { jsonrpc, id, method, params } = message as Record<string, unknown>;
  if (jsonrpc !== '2.0' || method !== 'tools/list') return false;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (Object.keys(message).some((key) => !MESSAGE_KEYS.has(key))) return false;
  return params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params) && Object.keys(params).length === 0);
}

function acceptedHeaders(headers: Headers): boolean {
  const accept = headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return false;
  // Only the plainest JSON Content-Type; any other spelling is left to the SDK's parser.
  const contentType = headers.get('content-type')?.toLowerCase().replace(/\s+/g, '');
  if (contentType !== 'application/json' && contentType !== 'application/json;charset=utf-8') return false;
  const version = headers.get('mcp-protocol-version');
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/** By scope set and task support: at most 2 x 2^4 entries (the subsets of SCOPES), so no bound is needed. */
const serialized = new Map<string, string>();
const encoded = new Map<string, { head: Uint8Array; tail: Uint8Array }>();
const encoder = new TextEncoder();

/** The answer's bytes before and after the request id, for a key with these scopes. */
function listedToolsBody(scopes: readonly string[], withTasks: boolean): { head: Uint8Array; tail: Uint8Array } {
  const cacheKey = `${withTasks ? 'tasks' : 'no-tasks'} ${[...new Set(scopes)].sort().join(' ')}`;
  let body = encoded.get(cacheKey);
  if (body === undefined) {
    body = { head: encoder.encode(`{"result":{"tools":${listedToolsJson(scopes, withTasks)}},"jsonrpc":"2.0","id":`), tail: encoder.encode('}') };
    encoded.set(cacheKey, body);
  }
  return body;
}

/** The JSON of the tools a key with these scopes sees; built once per isolate for each scope set. */
export function listedToolsJson(scopes: readonly string[], withTasks: boolean): string {
  const cacheKey = `${withTasks ? 'tasks' : 'no-tasks'} ${[...new Set(scopes)].sort().join(' ')}`;
  let json = serialized.get(cacheKey);
  if (json === undefined) {
    const listed = listedTools(withTasks);
    json = JSON.stringify(TOOLS.filter((tool) => scopeAllows(tool, scopes)).map((tool) => listed.get(tool.id)!));
    serialized.set(cacheKey, json);
  }
  return json;
}
