import { ErrorCode as RpcCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, errorBody, toDomainError, type ErrorBody, type ErrorCode } from '../core/errors.ts';

/**
 * The JSON-RPC code of each error code: bad arguments and unknown ids are invalid params (what the
 * MCP spec asks for an unknown task id), a bug is an internal error, and every other refusal is an
 * implementation-defined server error (-32000) whose `data.error` names it.
 */
const RPC_CODE: Record<ErrorCode, number> = {
  invalid_input: RpcCode.InvalidParams,
  not_found: RpcCode.InvalidParams,
  internal: RpcCode.InternalError,
  unauthorized: -32000,
  access_denied: -32000,
  conflict: -32000,
  payload_too_large: -32000,
  onboarding_required: -32000,
  rate_limited: -32000,
  timeout: -32000,
};

/**
 * A JSON-RPC error made from a DomainError. It is an McpError (the SDK passes those through
 * unchanged), but its wire message is exactly ours: `Error <code>: <message>`, as in a tool error's
 * text, with the REST error body as `data`.
 */
export class RpcError extends McpError {
  declare readonly data: ErrorBody;

  constructor(error: DomainError, requestId: string, code = RPC_CODE[error.code]) {
    super(code, '', errorBody(error, requestId));
    this.message = `Error ${error.code}: ${error.message}`;
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

/**
 * An HTTP response whose body is one JSON-RPC error (`id: null`: no request was read), for refusals
 * before the MCP transport runs. Status and headers are the DomainError's, as on the REST door;
 * `rpcCode` overrides the JSON-RPC code (e.g. -32600 Invalid Request for a batch).
 */
export function rpcErrorResponse(error: DomainError, requestId: string, rpcCode?: number): Response {
  const rpcError = new RpcError(error, requestId, rpcCode);
  return Response.json(
    { jsonrpc: '2.0', id: null, error: { code: rpcError.code, message: rpcError.message, data: rpcError.data } },
    { status: error.status, headers: error.headers },
  );
}
