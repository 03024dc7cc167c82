import { ErrorCode as RpcCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, errorBody, toDomainError, type ErrorBody, type ErrorCode } from '../ground/errors.ts';
import { errorHeaders } from '../http-headers.ts';

/**
 * The MCP door's error funnel, for everything it answers in JSON-RPC: a refusal before the
 * transport (`rpcErrorResponse`, with the HTTP status and headers the HTTP funnel gives the same
 * error), an error inside JSON-RPC handling (`toRpcError`), and a failed tool call, which MCP
 * answers as a result (`toToolResult`). Each carries the REST error body: error, message, requestId.
 */

/**
 * The JSON-RPC code of each error code: bad arguments and unknown ids are invalid params (what the
 * MCP spec asks for an unknown task id), a bug is an internal error, and every other refusal is an
 * implementation-defined server error (-32000) whose `data.error` names it.
 */
const RPC_CODE: Record<ErrorCode, number> = {
  invalid_input: RpcCode.InvalidParams,
  not_found: RpcCode.InvalidParams,
  method_not_allowed: -32000,
  internal: RpcCode.InternalError,
  unauthorized: -32000,
  access_denied: -32000,
  conflict: -32000,
  payload_too_large: -32000,
  onboarding_required: -32000,
  rate_limited: -32000,
  timeout: -32000,
};

/** What a 429 adds to its JSON-RPC `data`, so an agent can wait and retry: which budget, and when. */
export interface RateLimitData {
  retryAfterSeconds: number;
  /** `commands` or `reads`: the key's per-minute budgets; `failed-auth`: the address's unknown keys. */
  bucket?: 'commands' | 'reads' | 'failed-auth';
}

/**
 * A JSON-RPC error made from a DomainError. It is an McpError (the SDK passes those through
 * unchanged), but its wire message is exactly ours: `Error <code>: <message>`, as in a tool error's
 * text, with the REST error body as `data`. A rate limit's message is its own (`Rate limited: retry
 * in 60 s. <why>`), and its data carries `retryAfterSeconds`.
 */
export class RpcError extends McpError {
  declare readonly data: ErrorBody & Partial<RateLimitData>;

  constructor(error: DomainError, requestId: string, code = RPC_CODE[error.code], extraData: Partial<RateLimitData> = {}) {
    const retryAfterSeconds = error.code === 'rate_limited' ? error.retryAfterSeconds : undefined;
    super(code, '', {
      ...errorBody(error, requestId),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      ...extraData,
    });
    // A rate limit's message already leads with when to retry (rateLimited in ground/errors.ts).
    this.message = error.code === 'rate_limited' ? error.message : `Error ${error.code}: ${error.message}`;
  }
}

/**
 * The MCP door's one funnel for errors thrown inside JSON-RPC handling (tasks/*, tools/call with
 * `task`): a DomainError keeps its code and message; anything else is logged and answered as
 * `internal`, naming the request id, never with its detail.
 */
export function toRpcError(error: unknown, requestId: string): RpcError {
  if (error instanceof RpcError) return error;
  return new RpcError(toDomainError(error, requestId), requestId);
}

/** A JSON-RPC request id, when the body is a request that has one; `null` otherwise (the JSON-RPC rule). */
export function rpcIdOf(message: unknown): string | number | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const { id } = message as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export interface RpcErrorResponseOptions {
  /** Overrides the JSON-RPC code (e.g. -32600 Invalid Request for a batch). */
  rpcCode?: number;
  /** The id of the refused request, once its body was read; `null` (the default) before. */
  id?: string | number | null;
  /** What a 429 adds to `data`. */
  data?: Partial<RateLimitData>;
}

/**
 * The JSON-RPC funnel's HTTP answer: a response whose body is one JSON-RPC error, for refusals
 * outside the MCP transport (key, body size, rate limit, Host and Origin, batches, methods). Status and headers are the DomainError's, as on
 * the REST door (401 with WWW-Authenticate, 429 with Retry-After), so clients that read only the
 * status still act on it, and clients that show the body show our message.
 */
export function rpcErrorResponse(error: DomainError, requestId: string, options: RpcErrorResponseOptions = {}): Response {
  const rpcError = new RpcError(error, requestId, options.rpcCode, options.data);
  return Response.json(
    { jsonrpc: '2.0', id: options.id ?? null, error: { code: rpcError.code, message: rpcError.message, data: rpcError.data } },
    { status: error.status, headers: errorHeaders(error) },
  );
}

/**
 * A failed tool call as a tool result: the same code and message as the REST body, readable by a
 * model, with the JSON body as structured content. Unexpected errors are logged and answered as
 * `internal`, never with their detail.
 */
export function toToolResult(error: unknown, requestId: string): CallToolResult {
  const domainError = toDomainError(error, requestId);
  const body = errorBody(domainError, requestId);
  const lines = [`Error ${body.error}: ${body.message}`];
  // Each detail's message already names its field (src/ground/validation.ts).
  for (const detail of body.details ?? []) lines.push(`- ${detail.message}`);
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { ...body }, isError: true };
}

/**
 * A refusal the MCP transport wrote itself (malformed JSON, a missing Accept, an unsupported
 * Content-Type or protocol version: an HTTP status of 400 or more with a JSON-RPC error body), with
 * the REST error body added as the error's `data`, as every other refusal of the door carries it:
 * `error`, the transport's `message`, and the `requestId`. Anything else passes through unchanged.
 */
export async function withRefusalData(response: Response, requestId: string): Promise<Response> {
  if (response.status < 400 || !response.headers.get('Content-Type')?.startsWith('application/json')) return response;
  const text = await response.text();
  let body: { error?: { message?: unknown; data?: unknown } } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return new Response(text, response);
  }
  if (!body?.error || body.error.data !== undefined) return new Response(text, response);
  const code: ErrorCode = response.status === 405 ? 'method_not_allowed' : 'invalid_input';
  body.error.data = errorBody(new DomainError(code, String(body.error.message ?? 'Refused.')), requestId);
  const headers = new Headers(response.headers);
  headers.delete('Content-Length');
  return new Response(JSON.stringify(body), { status: response.status, headers });
}
