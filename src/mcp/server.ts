import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type CreateTaskResult,
} from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { z } from 'zod';
import type { CoreContext } from '../core/context.ts';
import type { RateBucket } from '../core/rate-limit.ts';
import { toRpcError } from './json-rpc-error.ts';
import { RunTaskStore, taskOf } from './run-task-store.ts';
import { toToolResult } from './to-tool-result.ts';
import { LISTED_TOOLS, TOOLS, TOOLS_BY_NAME } from './tools/index.ts';

export const SERVER_INFO = { name: 'recon', title: 'Recon', version: '1.0.0' } as const;

const INSTRUCTIONS =
  'Recon researches markets for go-to-market teams. Call help for the command catalog. research and ' +
  'competitors answer at once with cited markdown; gtm-audit and audit start background runs. Errors ' +
  'come back as tool results with a code (invalid_input, onboarding_required, rate_limited, ...) and a ' +
  'message that says how to fix the call.';

// Stateless: one validator per isolate is enough (the SDK's default compiles Ajv per request).
const validator = new CfWorkerJsonSchemaValidator();

/**
 * tools/call as the SDK defines it, except that `arguments` reaches the tool as JSON.parse made it.
 * The SDK's record schema copies the object key by key, and copying an own `__proto__` key sets the
 * copy's prototype instead, so the key vanished over MCP while REST refused it. The SDK still checks
 * the request against its own schema first; the core validates the arguments, for both doors.
 */
const CallToolVerbatimSchema = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({
    arguments: z
      .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value))
      .optional(),
  }),
});

/**
 * A fresh MCP server for one request, bound to the caller. We register tools/list and tools/call on
 * the SDK's `Server` rather than through `McpServer.registerTool`, because McpServer validates
 * arguments itself (with its own messages) and lists unknown tools as tool errors: here the core
 * validates, so MCP and REST give the same code and message, and unknown tools stay protocol errors.
 */
export function buildServer(ctx: CoreContext): Server {
  const taskStore = new RunTaskStore(ctx);
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: false },
      // gtm-audit and audit can run as tasks (2025-11-25); the tasks are their run objects.
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
    taskStore,
  });
  const allowed = TOOLS.filter((tool) => ctx.principal.scopes.includes(tool.scope));

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: allowed.map((tool) => LISTED_TOOLS.get(tool.name)!),
  }));

  server.setRequestHandler(CallToolVerbatimSchema, async (request): Promise<CallToolResult | CreateTaskResult> => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${request.params.name}'; call tools/list for the tools.`);
    }
    if (request.params.task) {
      if (!tool.startTask) throw new McpError(ErrorCode.InvalidParams, `Tool '${tool.name}' does not run as a task; call it without 'task'.`);
      try {
        return { task: taskOf(await tool.startTask(ctx, request.params.arguments ?? {})) };
      } catch (error) {
        throw toRpcError(error, ctx.requestId);
      }
    }
    try {
      return await tool.call(ctx, request.params.arguments ?? {});
    } catch (error) {
      return toToolResult(error, ctx.requestId);
    }
  });
  // The SDK's own tasks/list handler rewraps every error as invalid params ("Failed to list tasks:
  // ..."), dropping our code and data; the store's errors already went through toRpcError.
  server.setRequestHandler(ListTasksRequestSchema, (request) => taskStore.listTasks(request.params?.cursor));
  return server;
}

/** Answers one MCP POST: a fresh server and a stateless JSON-response transport. */
export async function handleMcpPost(ctx: CoreContext, request: Request, parsedBody: unknown): Promise<Response> {
  const server = buildServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  } finally {
    await server.close();
  }
}

/** A request spends a `commands` token when it calls a command tool, a `reads` token otherwise. */
export function mcpRateBucket(message: unknown): RateBucket {
  if (typeof message !== 'object' || message === null) return 'reads';
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && TOOLS_BY_NAME.get(String(params?.name))?.bucket === 'commands' ? 'commands' : 'reads';
}
