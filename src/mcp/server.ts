import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCode,
  GetPromptRequestSchema,
  GetTaskRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type CreateTaskResult,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { z } from 'zod';
import type { CoreContext } from '../ground/context.ts';
import { getLogLevel, setLogLevel, type LogLevel } from '../operations/log-level.ts';
import type { RateBucket } from '../ground/rate-limit.ts';
import { getRun } from '../operations/runs.ts';
import { toRpcError, toToolResult, withRefusalData } from './json-rpc-error.ts';
import { answerMalformedRequestsAsInvalidParams } from './malformed-requests.ts';
import { getPrompt, listPrompts } from './prompts.ts';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.ts';
import { reportRun } from './run-progress.ts';
import { RunTaskStore, taskOf } from './run-task-store.ts';
import { answerToolsList } from './tools-list.ts';
import { LISTED_TOOLS, LISTED_TOOLS_WITHOUT_TASKS, TOOLS, TOOLS_BY_NAME } from './tools/index.ts';
import { scopeAllows } from '../operations/definition.ts';
import { INSTRUCTIONS, SERVER_INFO } from './server-info.ts';

export { SERVER_INFO };

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
 * logging/setLevel with any `level`: the SDK's own schema would answer an unknown level with a bare
 * internal error (-32603); we answer invalid params naming the levels.
 */
const SetLevelAnySchema = SetLevelRequestSchema.extend({
  params: SetLevelRequestSchema.shape.params.extend({ level: z.unknown() }),
});

/** The first protocol version with tasks. */
const TASKS_SINCE = '2025-11-25';

/**
 * The protocol version a request is spoken in: for initialize, the one the SDK's Server will answer
 * with (the client's, when supported, else the latest); for any later request, its
 * `Mcp-Protocol-Version` header, or 2025-03-26 without one (what the transport assumes).
 */
export function protocolVersionOf(message: unknown, headers: Headers): string {
  const { method, params } = (typeof message === 'object' && message !== null ? message : {}) as {
    method?: unknown;
    params?: { protocolVersion?: unknown };
  };
  if (method === 'initialize') {
    const requested = String(params?.protocolVersion);
    return SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
  }
  return headers.get('mcp-protocol-version') ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
}

/** Whether answering this message may report run progress as log messages: a run-status call or tasks/get. */
export function reportsRunProgress(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tasks/get' || (method === 'tools/call' && TOOLS_BY_NAME.get(String(params?.name))?.notifies === true);
}

/** How buildServer answers one request. */
export interface ServerOptions {
  /** The request's protocol version (protocolVersionOf). */
  protocolVersion?: string;
  /** The level the calling key chose with logging/setLevel, if this request may report run progress. */
  logLevel?: LogLevel | null;
  /** Told the error code of a tools/call that failed (an `isError` result or a refused task), for the access log. */
  onToolError?: (code: string) => void;
}

/**
 * A fresh MCP server for one request, bound to the caller and to the request's protocol version.
 * We register tools/list and tools/call on the SDK's `Server` rather than through
 * `McpServer.registerTool`, because McpServer validates arguments itself (with its own messages)
 * and lists unknown tools as tool errors: here the core validates, so MCP and REST give the same
 * code and message, and unknown tools stay protocol errors.
 *
 * Capabilities tell the truth: `logging` always (run progress; the level a key sets is kept, see
 * operations/log-level.ts); `tasks` only from protocol 2025-11-25, the version that has them, so an
 * older client neither sees them advertised nor can call tasks/* (method not found).
 */
export function buildServer(
  ctx: CoreContext,
  { protocolVersion = LATEST_PROTOCOL_VERSION, logLevel = null, onToolError }: ServerOptions = {},
): Server {
  const withTasks = protocolVersion >= TASKS_SINCE;
  const taskStore = withTasks ? new RunTaskStore(ctx) : undefined;
  const capabilities: ServerCapabilities = {
    tools: { listChanged: false },
    prompts: { listChanged: false },
    resources: { listChanged: false, subscribe: false },
    logging: {},
    // gtm-audit and audit can run as tasks (2025-11-25); the tasks are their run objects.
    ...(withTasks ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
  };
  const server = new Server(SERVER_INFO, {
    capabilities,
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
    ...(taskStore ? { taskStore } : {}),
  });
  const allowed = TOOLS.filter((tool) => scopeAllows(tool, ctx.principal.scopes));
  const listed = withTasks ? LISTED_TOOLS : LISTED_TOOLS_WITHOUT_TASKS;

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: allowed.map((tool) => listed.get(tool.name)!),
  }));

  server.setRequestHandler(CallToolVerbatimSchema, async (request, extra): Promise<CallToolResult | CreateTaskResult> => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${request.params.name}'; call tools/list for the tools.`);
    }
    // Without the tasks capability (before 2025-11-25) the SDK refuses a `task` before this runs.
    if (request.params.task) {
      if (!tool.startTask) throw new McpError(ErrorCode.InvalidParams, `Tool '${tool.name}' does not run as a task; call it without 'task'.`);
      try {
        return { task: taskOf(await tool.startTask(ctx, request.params.arguments ?? {})) };
      } catch (error) {
        const rpcError = toRpcError(error, ctx.requestId);
        onToolError?.(rpcError.data.error);
        throw rpcError;
      }
    }
    try {
      return await tool.call(ctx, request.params.arguments ?? {}, { logLevel, sendNotification: extra.sendNotification });
    } catch (error) {
      const result = toToolResult(error, ctx.requestId);
      onToolError?.(String(result.structuredContent!.error));
      return result;
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => listPrompts());
  server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(request.params.name, request.params.arguments));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    try {
      return await listResources(ctx);
    } catch (error) {
      throw toRpcError(error, ctx.requestId);
    }
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return await readResource(ctx, request.params.uri);
    } catch (error) {
      throw error instanceof McpError ? error : toRpcError(error, ctx.requestId);
    }
  });

  // The SDK keeps a level per session in the server's memory, which a stateless server forgets
  // with the request; the level is kept per API key instead, for the key's later requests.
  server.setRequestHandler(SetLevelAnySchema, async (request) => {
    const level = LoggingLevelSchema.safeParse(request.params.level);
    if (!level.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown log level ${JSON.stringify(request.params.level)}; use one of ${LoggingLevelSchema.options.join(', ')}.`,
      );
    }
    try {
      await setLogLevel(ctx, level.data);
    } catch (error) {
      throw toRpcError(error, ctx.requestId);
    }
    return {};
  });

  if (taskStore) {
    // tasks/get reads the run once, reports its progress as a log message, and answers the task.
    server.setRequestHandler(GetTaskRequestSchema, async (request, extra) => {
      try {
        const view = await getRun(ctx, undefined, request.params.taskId);
        await reportRun(view, logLevel, extra.sendNotification);
        return taskOf(view);
      } catch (error) {
        throw toRpcError(error, ctx.requestId);
      }
    });
    // The SDK's own tasks/list handler rewraps every error as invalid params ("Failed to list tasks:
    // ..."), dropping our code and data; the store's errors already went through toRpcError.
    server.setRequestHandler(ListTasksRequestSchema, (request) => taskStore.listTasks(request.params?.cursor));
  }
  answerMalformedRequestsAsInvalidParams(server);
  return server;
}

/**
 * The most frequent call, a plain 2025 tools/list, answered from the list serialized once per
 * isolate (no server built, no classification: a request without params and without a 2026 header
 * is a 2025 one by the SDK v2's own rules); undefined for anything else.
 */
export function answerPlainToolsList(ctx: CoreContext, request: Request, parsedBody: unknown): Response | undefined {
  return answerToolsList(ctx.principal, request, parsedBody, protocolVersionOf(parsedBody, request.headers) >= TASKS_SINCE);
}

/**
 * Answers one MCP POST: a fresh server and a stateless transport. The answer is one JSON body,
 * except for a run poll (run-status, tasks/get) by a key that chose a log level: its answer is an
 * SSE stream of the run's log message and then the response (every client accepts SSE: the
 * transport requires `Accept: text/event-stream`). A poll is short, so that stream is read to its
 * end before answering: the server closes, and the access log sees the call's outcome.
 */
export async function handleMcpPost(
  ctx: CoreContext,
  request: Request,
  parsedBody: unknown,
  options: Pick<ServerOptions, 'onToolError'> = {},
): Promise<Response> {
  const protocolVersion = protocolVersionOf(parsedBody, request.headers);
  const logLevel = reportsRunProgress(parsedBody) ? await getLogLevel(ctx) : null;
  const server = buildServer(ctx, { protocolVersion, logLevel, ...options });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: logLevel === null,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    if (response.status >= 400) return await withRefusalData(response, ctx.requestId);
    if (!response.headers.get('Content-Type')?.startsWith('text/event-stream')) return response;
    return new Response(await response.text(), response);
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
