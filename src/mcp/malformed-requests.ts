import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

interface ZodLikeError {
  issues: { path: PropertyKey[]; message: string }[];
}

/** An McpError whose wire message is `message` itself (the SDK's constructor prefixes `MCP error <code>: `). */
function invalidParams(message: string): McpError {
  const error = new McpError(ErrorCode.InvalidParams, message);
  error.message = message;
  return error;
}

function isSchemaError(error: unknown): error is ZodLikeError {
  return typeof error === 'object' && error !== null && Array.isArray((error as Partial<ZodLikeError>).issues);
}

/** `params.task.ttl: Invalid input: expected number, received object; ...`, at most 5 issues. */
function describeIssues(error: ZodLikeError): string {
  const shown = error.issues.slice(0, 5).map((issue) => `${issue.path.map(String).join('.') || '(request)'}: ${issue.message}`);
  return shown.join('; ') + (error.issues.length > 5 ? `; and ${error.issues.length - 5} more` : '');
}

/**
 * Makes the SDK answer a malformed request as the client's mistake. Two of its own checks throw
 * plain errors, which it answers as -32603 internal error (with zod's issue list, as JSON, for the
 * message): a request that fails its method's schema (e.g. `params.task.ttl` not a number, `name`
 * not a string), and a `task` on a method or protocol version without task support. Both become
 * -32602 invalid params with a one-line message. Call it once every handler is registered.
 * (The SDK keeps its handlers in a private map; test/mcp/malformed-requests.test.ts fails if that changes.)
 */
export function answerMalformedRequestsAsInvalidParams(server: Server): void {
  const internals = server as unknown as {
    _requestHandlers?: Map<string, RequestHandler>;
    assertTaskHandlerCapability?: (method: string) => void;
  };
  const handlers = internals._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('The MCP SDK no longer keeps request handlers in _requestHandlers; update src/mcp/malformed-requests.ts.');
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        if (isSchemaError(error)) throw invalidParams(`Invalid ${method} request: ${describeIssues(error)}`);
        throw error;
      }
    });
  }
  const assertTask = internals.assertTaskHandlerCapability?.bind(server);
  if (assertTask) {
    internals.assertTaskHandlerCapability = (method: string) => {
      try {
        assertTask(method);
      } catch (error) {
        if (error instanceof McpError) throw error;
        throw invalidParams(`${error instanceof Error ? error.message : String(error)}; call it without 'task'.`);
      }
    };
  }
}
