import {
  createMcpHandler,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  ProtocolError,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type McpHttpHandler,
  type McpRequestContext,
  type Server,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import { z } from 'zod';
import { readConfig } from '../ground/config.ts';
import type { CoreContext } from '../ground/context.ts';
import type { RateBucket } from '../ground/rate-limit.ts';
import { scopeAllows } from '../operations/definition.ts';
import { getLogLevel, LOG_LEVELS, setLogLevel, type LogLevel } from '../operations/account/log-level.ts';
import { McpError, withRefusalData } from './json-rpc-error.ts';
import { getPrompt, listPrompts } from './prompts.ts';
import { answerToolCall, questionsFor } from './questions.ts';
import { ReconServer } from './recon-server.ts';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.ts';
import { INSTRUCTIONS, SERVER_INFO } from './server-info.ts';
import { isTaskListen, serveTaskListen } from './task-notifications.ts';
import { registerLegacyTaskMethods, startTask, TASKS_CAPABILITY, TASKS_SINCE } from './tasks-2025.ts';
import { createTaskResult, declaresTasks, registerTaskMethods, TASKS_EXTENSION } from './tasks-extension.ts';
import { answerToolsList } from './tools-list.ts';
import { callTool, listedTools, startToolTask, TOOLS, TOOLS_BY_NAME } from './tools/index.ts';

/**
 * Recon's one MCP server, for every revision it serves: 2026-07-28 and the 2025 revisions
 * (2025-11-25, 2025-06-18, 2025-03-26 and older), on the official SDK v2
 * (`@modelcontextprotocol/server`). `createMcpHandler` serves the 2026-07-28 revision and, through
 * its stateless legacy lane, the 2025 ones, both from one factory, `buildServer`: the tools,
 * prompts and resources are registered once, and where the revisions differ the factory branches.
 */

/** One request to the MCP door, as the route hands it over; the factory reads it through the SDK (`authInfo.extra`). */
interface Exchange {
  ctx: CoreContext;
  /** The JSON-RPC message, as the route parsed it (undefined when the body is not JSON). */
  message: unknown;
  /** Told the error code of a tools/call that failed, for the access log. */
  onToolError?: (code: string) => void;
  /** Set by buildServer: a 2025 run poll by a key that chose a log level, answered as an SSE stream (its log message, then the response). */
  legacyStream?: boolean;
}

const MODERN_REVISION = '2026-07-28';

/** How long a 2026-07-28 client may reuse a list: the lists change only with a deployment, and differ by key scope. */
const LIST_CACHE_HINT = { ttlMs: 300_000, cacheScope: 'private' } as const;
const CACHE_HINTS = {
  'tools/list': LIST_CACHE_HINT,
  'prompts/list': LIST_CACHE_HINT,
  'resources/templates/list': LIST_CACHE_HINT,
  'server/discover': LIST_CACHE_HINT,
  // Briefs and runs change: a client re-reads them.
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
} as const;

// Stateless: one validator per isolate (the SDK would pick one per server).
const validator = new CfWorkerJsonSchemaValidator();

/**
 * tools/call's params as the handler reads them. `arguments` reaches the tool as JSON.parse made it:
 * a record schema copies the object key by key, and copying an own `__proto__` key sets the copy's
 * prototype instead, so the key would vanish over MCP while REST refuses it. The SDK still checks the
 * request against its revision's schema first; the core validates the arguments, for both doors.
 */
const CallToolParams = z.looseObject({
  name: z.string(),
  arguments: z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value)).optional(),
  task: z.unknown().optional(),
});

/**
 * logging/setLevel with any `level`, checked here: the SDK's own schema would refuse an unknown level
 * with zod's issue list; we answer invalid params naming the levels.
 */
const SetLevelRequest = z.object({ params: z.object({ level: z.unknown() }) });
const AnyParams = z.looseObject({});

const isLogLevel = (value: unknown): value is LogLevel => LOG_LEVELS.includes(value as LogLevel);

/**
 * The 2025 protocol version a request is spoken in: for initialize, the one the server answers with
 * (the client's, when supported, else the latest); for any later request, its
 * `Mcp-Protocol-Version` header, or 2025-03-26 without one (what the transport assumes).
 */
function protocolVersionOf(message: unknown, headers: Headers): string {
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
function reportsRunProgress(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tasks/get' || (method === 'tools/call' && TOOLS_BY_NAME.get(String(params?.name))?.mcp.reportsRunProgress === true);
}

/** The request's exchange, which handleMcpPost passes through the SDK as `authInfo.extra`. */
function exchangeOf(context: McpRequestContext): Exchange {
  const exchange = context.authInfo?.extra?.exchange as Exchange | undefined;
  if (!exchange) throw new Error('The MCP server factory was called without an exchange (handleMcpPost passes one).');
  return exchange;
}

/**
 * The server factory: a fresh server for one request, bound to the caller. **The revision is chosen
 * here**, by the SDK: `context.era` is its classification of the request (`modern`: the 2026-07-28
 * per-request `_meta` envelope; `legacy`: anything else, an `initialize` included), and for a 2025
 * request the version is the one it negotiates or names (protocolVersionOf). Everything that
 * differs between the revisions is a branch below:
 *
 * - capabilities: both list `tools`, `prompts`, `resources`; 2025 adds `logging` (run progress as
 *   log messages, at the level a key chose) and, from 2025-11-25, `tasks`; 2026-07-28 adds the tasks
 *   extension (`logging` is deprecated there and core tasks are gone) and cache hints;
 * - tools/list: `execution.taskSupport` on the tools that start runs, under 2025-11-25 only;
 * - tools/call: 2025-11-25 starts a task when asked (`task`); 2026-07-28 answers a task handle to a
 *   client that declares the tasks extension, and may ask questions in the client
 *   (input-required results, ./questions.ts);
 * - methods: logging/setLevel and 2025-11-25's tasks/* under 2025; the extension's tasks/* under
 *   2026-07-28.
 *
 * Low-level `Server` handlers (not `McpServer.registerTool`): McpServer validates arguments itself,
 * with its own messages, and lists unknown tools as tool errors; here the core validates, so MCP and
 * REST give the same code and message, and unknown tools stay protocol errors. Handlers throw;
 * ReconServer (./recon-server.ts) answers what they throw, once for all of them.
 */
export async function buildServer(context: McpRequestContext): Promise<Server> {
  const exchange = exchangeOf(context);
  const { ctx, message, onToolError } = exchange;
  const modern = context.era === 'modern';
  const version = modern ? MODERN_REVISION : protocolVersionOf(message, context.requestInfo?.headers ?? new Headers());
  const withTasks = !modern && version >= TASKS_SINCE;
  // 2025: the level the key chose (logging/setLevel), for a request that may report run progress.
  const logLevel = !modern && reportsRunProgress(message) ? await getLogLevel(ctx) : null;
  exchange.legacyStream = logLevel !== null;
  // 2026-07-28: signs and checks the state of questions asked in the client, when a secret is set.
  const questions = modern ? await questionsFor(ctx, message) : undefined;

  const capabilities: ServerCapabilities = {
    tools: { listChanged: false },
    prompts: { listChanged: false },
    resources: { listChanged: false, subscribe: false },
    ...(modern
      ? // gtm-audit, audit and read-site answer a client that declares it with a task (./tasks-extension.ts).
        { extensions: { [TASKS_EXTENSION]: {} } }
      : // The same tools as tasks from 2025-11-25, the version that has them (./tasks-2025.ts).
        { logging: {}, ...(withTasks ? { tasks: TASKS_CAPABILITY } : {}) }),
  };
  const server = new ReconServer(
    SERVER_INFO,
    {
      capabilities,
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: validator,
      ...(modern ? { cacheHints: CACHE_HINTS } : {}),
      ...(questions ? { requestState: { verify: questions.verify } } : {}),
    },
    { era: context.era, requestId: ctx.requestId, legacyTasks: withTasks, legacyStream: exchange.legacyStream, onToolError, bookmark: () => ctx.db.bookmark() },
  );

  const listed = listedTools(withTasks);
  server.setRequestHandler('tools/list', () => ({
    tools: TOOLS.filter((tool) => scopeAllows(tool, ctx.principal.scopes)).map((tool) => listed.get(tool.id)! as Tool),
  }));

  server.setRequestHandler('tools/call', { params: CallToolParams }, async ({ name, arguments: args = {}, task }, request) => {
    // 2025: a call with `task` under a version without tasks is refused, whatever the tool.
    if (!modern && task !== undefined && !withTasks) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Server does not support task creation (required for tools/call); call it without 'task'.");
    }
    const tool = TOOLS_BY_NAME.get(name);
    if (!tool) throw new McpError(ProtocolErrorCode.InvalidParams, `Unknown tool '${name}'; call tools/list for the tools.`);
    if (!modern && task !== undefined) return startTask(ctx, tool, args);
    // A run is a task for a 2026-07-28 client that can follow one; any other client gets the run id to poll.
    // (The SDK types tools/call results without the extension's task handle.)
    const run = async (): Promise<CallToolResult> =>
      modern && tool.mcp.startsRun && declaresTasks(request.mcpReq.envelope)
        ? (createTaskResult(await startToolTask(ctx, tool, args)) as unknown as CallToolResult)
        : await callTool(ctx, tool, args, { logLevel, sendNotification: request.mcpReq.notify });
    // Questions first, for a tool that asks and a client that can answer (2026-07-28 only); then the run.
    return answerToolCall({ ctx, tool, args, request, codec: questions, run, onDeclined: () => onToolError?.('declined') });
  });

  server.setRequestHandler('prompts/list', () => listPrompts());
  server.setRequestHandler('prompts/get', ({ params }) => getPrompt(params.name, params.arguments));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }));
  server.setRequestHandler('resources/list', () => listResources(ctx));
  server.setRequestHandler('resources/read', ({ params }) => readResource(ctx, params.uri));

  if (modern) {
    registerTaskMethods(server, ctx);
  } else {
    // The SDK keeps a level per session in the server's memory, which a stateless server forgets
    // with the request; the level is kept per API key instead, for the key's later requests.
    server.setRequestHandler('logging/setLevel', { params: AnyParams }, async (params) => {
      const { level } = SetLevelRequest.parse({ params }).params;
      if (!isLogLevel(level)) throw new McpError(ProtocolErrorCode.InvalidParams, `Unknown log level ${JSON.stringify(level)}; use one of ${LOG_LEVELS.join(', ')}.`);
      await setLogLevel(ctx, level);
      return {};
    });
    if (withTasks) registerLegacyTaskMethods(server, ctx, logLevel);
  }
  return server;
}

/**
 * One handler per isolate: the SDK builds a server per request with the factory, for both eras
 * (`legacy: 'stateless'`: 2025 requests are served by a fresh server and a stateless transport,
 * GET and DELETE are 405). SSE answers the SDK streams send a keep-alive comment: edges cut idle
 * streams.
 */
let handler: McpHttpHandler | undefined;

function mcpHandler(env: Env): McpHttpHandler {
  handler ??= createMcpHandler(buildServer, { legacy: 'stateless', keepAliveMs: readConfig(env).MCP_SSE_KEEPALIVE_MS });
  return handler;
}

/**
 * Answers one MCP POST (already authenticated, rate limited and parsed by the route) with the one
 * server. Refusals the SDK writes itself carry the REST error body too, as every refusal of the door
 * does; data the SDK set (a header mismatch, the supported versions) is kept.
 */
export async function handleMcpPost(
  ctx: CoreContext,
  request: Request,
  parsedBody: unknown,
  options: Pick<Exchange, 'onToolError'> = {},
): Promise<Response> {
  // A 2026-07-28 listen for task notifications: served here (the SDK's listen router serves list changes only).
  if (isTaskListen(parsedBody, request.headers)) return serveTaskListen(ctx, parsedBody, request.signal);
  const exchange: Exchange = { ctx, message: parsedBody, ...options };
  const { principal, requestId } = ctx;
  const response = await mcpHandler(ctx.env).fetch(request, {
    parsedBody,
    authInfo: { token: '', clientId: principal.keyId, scopes: [...principal.scopes], extra: { exchange } },
  });
  if (response.status >= 400) return withRefusalData(response, requestId);
  // A 2025 run poll's stream is short and always ends (one request, no session): it is read to its
  // end before answering, so it never stays open and the access log sees the call's outcome.
  return exchange.legacyStream ? new Response(await response.text(), response) : response;
}

/**
 * The most frequent call, a plain 2025 tools/list, answered from the list serialized once per
 * isolate (no server built). Such a request has no params, so no 2026-07-28 envelope: the SDK
 * classifies it legacy, and ./tools-list.ts takes it only with a 2025 version header or none
 * (test/mcp/tools-list-cache.test.ts compares the answer with the one server's, byte for byte).
 * Undefined for anything else.
 */
export function answerPlainToolsList(ctx: CoreContext, request: Request, parsedBody: unknown): Response | undefined {
  return answerToolsList(ctx.principal, request, parsedBody, protocolVersionOf(parsedBody, request.headers) >= TASKS_SINCE);
}

/**
 * The bucket an MCP message spends its one token from, as it arrives (src/routes/mcp.ts): a tools/call
 * of a tool, the bucket its operation declares (`commands` for the costly ones); anything else a read.
 */
export function mcpRateBucket(message: unknown): RateBucket {
  if (typeof message !== 'object' || message === null) return 'reads';
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && TOOLS_BY_NAME.get(String(params?.name))?.bucket === 'commands' ? 'commands' : 'reads';
}
