import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { DomainError, errorBody, toDomainError, type ErrorBody, type ErrorCode } from '../ground/errors.ts';
import { errorHeaders } from '../http-headers.ts';

/**
 * The MCP door's error funnel, for everything it answers in JSON-RPC: a refusal before the SDK
 * (`rpcErrorResponse`, with the HTTP status and headers the HTTP funnel gives the same error), an
 * error inside JSON-RPC handling (`toRpcError`), and a failed tool call, which MCP answers as a
 * result (`toToolResult`). Each carries the REST error body: error, message, requestId. Where they
 * are applied to the server's handlers, once for all of them, is ./recon-server.ts.
 */

/**
 * The JSON-RPC code of each error code: bad arguments and unknown ids are invalid params (what the
 * MCP spec asks for an unknown task id), a bug is an internal error, and every other refusal is an
 * implementation-defined server error (-32000) whose `data.error` names it.
 */
const RPC_CODE: Record<ErrorCode, number> = {
  invalid_input: ProtocolErrorCode.InvalidParams,
  not_found: ProtocolErrorCode.InvalidParams,
  method_not_allowed: -32000,
  internal: ProtocolErrorCode.InternalError,
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
 * A JSON-RPC error made from a DomainError: its wire message is `Error <code>: <message>`, as in a
 * tool error's text, with the REST error body as `data`. A rate limit's message is its own (`Rate
 * limited: retry in 60 s. <why>`), and its data carries `retryAfterSeconds`.
 */
export class RpcError extends ProtocolError {
  declare readonly data: ErrorBody & Partial<RateLimitData>;

  constructor(error: DomainError, requestId: string, code = RPC_CODE[error.code], extraData: Partial<RateLimitData> = {}) {
    const retryAfterSeconds = error.code === 'rate_limited' ? error.retryAfterSeconds : undefined;
    // A rate limit's message already leads with when to retry (rateLimited in ground/errors.ts).
    super(code, error.code === 'rate_limited' ? error.message : `Error ${error.code}: ${error.message}`, {
      ...errorBody(error, requestId),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      ...extraData,
    });
  }
}

/**
 * A protocol refusal of our own that is not a DomainError (an unknown tool, prompt or resource, a
 * log level MCP does not have): a JSON-RPC code and a message. 2025 clients read its message as
 * the 2025 SDK wrote it, `MCP error <code>: <message>` (./recon-server.ts adds that); 2026-07-28
 * clients read the message alone.
 */
export class McpError extends ProtocolError {}

/** "Resource not found" (the 2025 revisions' code; 2026-07-28 answers -32602, SEP-2164). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * The MCP door's one funnel for errors thrown inside JSON-RPC handling (tasks/*, tools/call with
 * `task`, resources): a DomainError keeps its code and message; anything else is logged and
 * answered as `internal`, naming the request id, never with its detail.
 */
export function toRpcError(error: unknown, requestId: string): RpcError {
  if (error instanceof RpcError) return error;
  return new RpcError(toDomainError(error, requestId), requestId);
}

/** At most this many schema issues are named in one message. */
const SHOWN_ISSUES = 5;

interface SchemaIssue {
  path: PropertyKey[];
  message: string;
}

const isIssue = (value: unknown): value is SchemaIssue =>
  typeof value === 'object' && value !== null && Array.isArray((value as SchemaIssue).path) && typeof (value as SchemaIssue).message === 'string';

/**
 * The issues of a request found malformed: a zod error of our own, or the SDK's schema check, which
 * throws zod's issue list as JSON, pretty-printed, for the message (`[...]`, or `Invalid tools/call
 * request: [...]`). Undefined for any other error.
 */
function schemaIssuesOf(error: unknown): SchemaIssue[] | undefined {
  if (!(error instanceof Error)) return undefined;
  const own = (error as { issues?: unknown }).issues;
  if (Array.isArray(own)) return own.every(isIssue) ? own : undefined;
  const json = /^(?:Invalid [^\s:]+ request: )?(\[[\s\S]*\])$/.exec(error.message)?.[1];
  if (json === undefined) return undefined;
  try {
    const issues: unknown = JSON.parse(json);
    return Array.isArray(issues) && issues.length > 0 && issues.every(isIssue) ? issues : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A request refused as malformed (a method's schema: `params.task.ttl` not a number, `name` not a
 * string), as invalid params (-32602) with a one-line message naming at most five issues:
 * `Invalid tools/call request: params.task.ttl: Invalid input: expected number, received object`.
 * The SDK answers some of these as an internal error (-32603), all with zod's issue list as JSON
 * for the message. Undefined for any other error.
 */
export function malformedRequestError(method: string, error: unknown): ProtocolError | undefined {
  const issues = schemaIssuesOf(error);
  if (!issues) return undefined;
  const shown = issues.slice(0, SHOWN_ISSUES).map((issue) => `${issue.path.map(String).join('.') || '(request)'}: ${issue.message}`);
  const more = issues.length > SHOWN_ISSUES ? `; and ${issues.length - SHOWN_ISSUES} more` : '';
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request: ${shown.join('; ')}${more}`);
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
 * outside the MCP SDK (key, body size, rate limit, Host and Origin, batches, methods). Status and
 * headers are the DomainError's, as on the REST door (401 with WWW-Authenticate, 429 with
 * Retry-After), so clients that read only the status still act on it, and clients that show the
 * body show our message.
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

/** The error code of a refusal the SDK wrote itself, by its HTTP status. */
const REFUSAL_CODE: Partial<Record<number, ErrorCode>> = { 405: 'method_not_allowed', 500: 'internal' };

/**
 * A refusal the MCP SDK wrote itself (malformed JSON, a missing Accept, an unsupported
 * Content-Type or protocol version, the 2026-07-28 envelope and header checks: an HTTP status of
 * 400 or more with a JSON-RPC error body), with the REST error body added as the error's `data`, as
 * every other refusal of the door carries it: `error`, the SDK's `message`, and the `requestId`.
 * Data the SDK set (a header mismatch, the supported versions) is kept. Anything else passes
 * through unchanged.
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
  const code = REFUSAL_CODE[response.status] ?? 'invalid_input';
  body.error.data = errorBody(new DomainError(code, String(body.error.message ?? 'Refused.')), requestId);
  const headers = new Headers(response.headers);
  headers.delete('Content-Length');
  return new Response(JSON.stringify(body), { status: response.status, headers });
}
