import {
  isJSONRPCErrorResponse,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type Implementation,
  type JSONRPCRequest,
  type RequestId,
  type Result,
  type ServerContext,
  type ServerOptions,
  type Transport,
} from '@modelcontextprotocol/server';
import { withBookmark } from './bookmark.ts';
import { malformedRequestError, McpError, RESOURCE_NOT_FOUND, toRpcError, toToolResult } from './json-rpc-error.ts';
import { asksForTask } from './tasks-2025.ts';

/** How one request's server answers. */
export interface Serving {
  /** The revision the request is in, as the SDK classified it: `legacy` (2025) or `modern` (2026-07-28). */
  era: 'legacy' | 'modern';
  /** The request id of the access log, named by every error body. */
  requestId: string;
  /** 2025-11-25: a tools/call with `task` starts a task (./tasks-2025.ts), and its refusals are JSON-RPC errors. */
  legacyTasks: boolean;
  /** 2025: the answer is an SSE stream (a run poll by a key that chose a log level: its log message, then the response); else one JSON body. */
  legacyStream: boolean;
  /** Told the error code of a tools/call that failed (a tool error, or a refused task start), for the access log. */
  onToolError?: (code: string) => void;
  /** The request's D1 bookmark once the handler is done (its core context's session), sent in every result's `_meta`. */
  bookmark: () => string | null;
}

type Handler = (request: JSONRPCRequest, context: ServerContext) => Promise<Result>;

/**
 * The SDK's `Server`, with every request handler wrapped once, through the SDK's own hook for
 * subclasses (`_wrapHandler`), by the door's error funnel: handlers throw what they throw, and
 *
 * - a request the SDK found malformed is invalid params (-32602) with a one-line message naming the
 *   offending fields (the SDK answers some as internal errors, all with zod's issue list as JSON);
 * - a failed `tools/call` is a tool result (`isError`, the REST error body; `toToolResult`), except
 *   a 2025-11-25 task start, whose refusal is a JSON-RPC error (`toRpcError`);
 * - a DomainError anywhere else is a JSON-RPC error with our code, message and the REST error body
 *   (`toRpcError`); anything unexpected is logged and answered as `internal`, never with its detail;
 * - a protocol error (an unknown tool, prompt or resource, the SDK's own refusals) stays as it is;
 * - every result but an empty one, a tool error's included, carries the request's D1 bookmark in
 *   `_meta` (./bookmark.ts), for the client's next request to read its own writes.
 *
 * Where the eras differ, the funnel branches on `Serving.era`:
 *
 * - 2025 answers carry our protocol errors (`McpError`) as the 2025 SDK wrote them: the message
 *   prefixed `MCP error <code>: `, and resource not found as -32002 (the SDK v2 recodes it -32602
 *   on both eras, which 2026-07-28 asks: SEP-2164; ./resources.ts);
 * - a 2025-11-25 tools/call with `task` answers the task (a CreateTaskResult), which the SDK v2's
 *   tools/call checks refuse (they know CallToolResult only: "content is required when the body
 *   carries 'task'"): that call is checked as a request exactly as the SDK checks one (its era's
 *   schema) and answered around the result check.
 */
export class ReconServer extends Server {
  readonly #serving: Serving;
  /** 2025: the requests answered "resource not found", to send as -32002. */
  readonly #notFound = new Set<RequestId>();

  constructor(info: Implementation, options: ServerOptions, serving: Serving) {
    super(info, options);
    this.#serving = serving;
  }

  // The SDK's constructor registers its own handlers (initialize, ping) through this hook before
  // this class's fields exist: they are read when a request is answered, never here.
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const checked = super._wrapHandler(method, handler);
    return async (request, context) => {
      const legacyTask = method === 'tools/call' && this.#serving.legacyTasks && asksForTask(request.params);
      let result: Result;
      try {
        if (!legacyTask) {
          result = await checked(request, context);
        } else {
          const outcome = this._wireCodec().validateRequest(method, request);
          if (!outcome.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request: ${outcome.reason === 'invalid' ? outcome.message : outcome.reason}`);
          result = await handler(request, context);
        }
      } catch (error) {
        result = this.#answerError(method, request.id, error, legacyTask);
      }
      // An empty result stays empty ({}): logging/setLevel answers exactly that, as the spec's
      // EmptyResult and the conformance suite have it; it writes only the client's log level.
      return Object.keys(result).length === 0 ? result : withBookmark(result, this.#serving.bookmark());
    };
  }

  /** What the request answers for `error`: a tool error result, or a JSON-RPC error thrown. */
  #answerError(method: string, id: RequestId, error: unknown, legacyTask: boolean): Result {
    const { era, requestId, onToolError } = this.#serving;
    const malformed = malformedRequestError(method, error);
    if (malformed) throw malformed;
    if (error instanceof ProtocolError) {
      if (era === 'legacy' && error instanceof McpError) {
        if (error.code === RESOURCE_NOT_FOUND) this.#notFound.add(id);
        throw new McpError(error.code, `MCP error ${error.code}: ${error.message}`, error.data);
      }
      throw error;
    }
    // A DomainError, or anything unexpected.
    if (method === 'tools/call' && !legacyTask) {
      const result = toToolResult(error, requestId);
      onToolError?.(String((result.structuredContent as { error: string }).error));
      return result;
    }
    const rpcError = toRpcError(error, requestId);
    if (legacyTask) onToolError?.(rpcError.data.error);
    throw rpcError;
  }

  /**
   * 2025: the SDK's stateless lane builds its transport (the SDK's WebStandardStreamableHTTPServerTransport)
   * with its defaults, which answer every request as an SSE stream, and hands it to this method.
   * Here the transport is set to answer one JSON body, as Recon always answered 2025 clients
   * (`enableJsonResponse`, the option its constructor takes), except for a run poll that streams its
   * log message; and -32002 is kept on the answers that say "resource not found" (the SDK writes
   * the error code through its era codec, after every handler hook, so the code is set again as the
   * transport sends the answer: its `send`, which the SDK calls for every message).
   */
  override async connect(transport: Transport): Promise<void> {
    if (this.#serving.era === 'legacy') {
      const options = transport as unknown as { _enableJsonResponse?: boolean };
      // Loud rather than silently streaming every answer (test/mcp/tools-list-cache.test.ts would fail too).
      if (typeof options._enableJsonResponse !== 'boolean') throw new Error('The MCP SDK no longer keeps enableJsonResponse in _enableJsonResponse; update src/mcp/recon-server.ts.');
      options._enableJsonResponse = !this.#serving.legacyStream;
      const send = transport.send.bind(transport);
      transport.send = (message, options) =>
        send(isJSONRPCErrorResponse(message) && message.id !== undefined && this.#notFound.has(message.id) ? { ...message, error: { ...message.error, code: RESOURCE_NOT_FOUND } } : message, options);
    }
    await super.connect(transport);
  }
}
