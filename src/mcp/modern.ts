import { createMcpHandler, Server, type McpHttpHandler, type McpRequestContext, type Tool, type CallToolResult } from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CoreContext } from '../ground/context.ts';
import { readConfig } from '../ground/config.ts';
import { isTaskListen, serveTaskListen } from './task-notifications.ts';
import { scopeAllows } from '../operations/definition.ts';
import { toRpcError, toToolResult, withRefusalData } from './json-rpc-error.ts';
import { getPrompt, listPrompts } from './prompts.ts';
import { answerToolCall, questionsFor } from './questions.ts';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.ts';
import { INSTRUCTIONS, SERVER_INFO } from './server-info.ts';
import { createTaskResult, declaresTasks, registerTaskMethods, TASKS_EXTENSION } from './tasks-extension.ts';
import { LISTED_TOOLS_WITHOUT_TASKS, TOOLS, TOOLS_BY_NAME } from './tools/index.ts';

/**
 * The MCP door for the 2026-07-28 revision (stateless, per-request `_meta`, `server/discover`,
 * `Mcp-Method`/`Mcp-Name` headers, input-required results), served by the official SDK v2's
 * `createMcpHandler`: the SDK owns the protocol (envelope and header validation, version errors,
 * removed methods, `resultType`, cache hints); this file only answers the methods with the same
 * tools, prompts and resources as the 2025 door (./server.ts), over the same core calls.
 */

/** What the Hono route hands the SDK for one request: the caller, bound to the request. */
interface RequestCaller {
  ctx: CoreContext;
  /** The JSON-RPC message, as parsed by the route: a question's state is bound to its tool and arguments. */
  message: unknown;
  /** Told the error code of a tools/call that failed, for the access log. */
  onToolError?: (code: string) => void;
}

const MODERN_REVISION = '2026-07-28';

/** How long a client may reuse a list: the lists change only with a deployment, and differ by key scope. */
const LIST_CACHE_HINT = { ttlMs: 300_000, cacheScope: 'private' } as const;

// Stateless: one validator per isolate (the SDK would pick one per server).
const validator = new CfWorkerJsonSchemaValidator();

/** The request's caller, which the route passes through the SDK as `authInfo.extra`. */
function callerOf(context: McpRequestContext): RequestCaller {
  const caller = context.authInfo?.extra?.caller as RequestCaller | undefined;
  if (!caller) throw new Error('The 2026-07-28 MCP handler was called without a caller (src/routes/mcp.ts passes one).');
  return caller;
}

/** A fresh low-level server for one 2026-07-28 request, bound to its caller. */
async function buildModernServer({ ctx, message, onToolError }: RequestCaller): Promise<Server> {
  // Signs and checks the state of questions asked in the client (./questions.ts), when a secret is set.
  const questions = await questionsFor(ctx, message);
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: false },
      prompts: { listChanged: false },
      resources: { listChanged: false, subscribe: false },
      // gtm-audit, audit and read-site answer a client that declares it with a task (./tasks-extension.ts).
      extensions: { [TASKS_EXTENSION]: {} },
    },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
    ...(questions ? { requestState: { verify: questions.verify } } : {}),
    cacheHints: {
      'tools/list': LIST_CACHE_HINT,
      'prompts/list': LIST_CACHE_HINT,
      'resources/templates/list': LIST_CACHE_HINT,
      'server/discover': LIST_CACHE_HINT,
      // Briefs and runs change: a client re-reads them.
      'resources/list': { ttlMs: 0, cacheScope: 'private' },
      'resources/read': { ttlMs: 0, cacheScope: 'private' },
    },
  });
  const allowed = TOOLS.filter((tool) => scopeAllows(tool, ctx.principal.scopes));

  // The same entries as the 2025 door's (JSON Schema, typed more loosely by the 2025 SDK).
  const listed = allowed.map((tool) => LISTED_TOOLS_WITHOUT_TASKS.get(tool.name)! as Tool);
  server.setRequestHandler('tools/list', () => ({ tools: listed }));

  server.setRequestHandler('tools/call', async (request, context) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool '${request.params.name}'; call tools/list for the tools.`);
    const args = request.params.arguments ?? {};
    // A run is a task for a client that can follow one; any other client gets the run id to poll.
    // (The SDK types tools/call results without the extension's CreateTaskResult.)
    const run = async (): Promise<CallToolResult> =>
      tool.startTask && declaresTasks(context.mcpReq.envelope)
        ? (createTaskResult(await tool.startTask(ctx, args)) as unknown as CallToolResult)
        : await tool.call(ctx, args, { logLevel: null, sendNotification: async () => {} });
    try {
      // Questions first, for a tool that asks and a client that can answer (./questions.ts); then the run.
      return await answerToolCall({ ctx, tool, args, request: context, codec: questions, run, onDeclined: () => onToolError?.('declined') });
    } catch (error) {
      const result = toToolResult(error, ctx.requestId);
      onToolError?.(String(result.structuredContent!.error));
      return result;
    }
  });

  server.setRequestHandler('prompts/list', () => listPrompts());
  server.setRequestHandler('prompts/get', (request) => getPrompt(request.params.name, request.params.arguments));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [...RESOURCE_TEMPLATES] }));
  server.setRequestHandler('resources/list', async () => {
    try {
      return await listResources(ctx);
    } catch (error) {
      throw toRpcError(error, ctx.requestId);
    }
  });
  server.setRequestHandler('resources/read', async (request) => {
    try {
      return await readResource(ctx, request.params.uri);
    } catch (error) {
      // readResource's not-found (-32002) is already a JSON-RPC error.
      throw error instanceof McpError ? error : toRpcError(error, ctx.requestId);
    }
  });
  registerTaskMethods(server, ctx);
  return server;
}

/**
 * One handler per isolate: the SDK builds a server per request with the factory. 2025-era requests
 * never reach it (`legacy: 'reject'`): the route sends them to the 2025 door first.
 */
let handler: McpHttpHandler | undefined;

function modernHandler(env: Env): McpHttpHandler {
  // SSE answers the SDK streams (a tool's notifications) send a keep-alive comment: edges cut idle streams.
  handler ??= createMcpHandler(async (context) => buildModernServer(callerOf(context)), { legacy: 'reject', keepAliveMs: readConfig(env).MCP_SSE_KEEPALIVE_MS });
  return handler;
}

/** Answers one 2026-07-28 POST (already authenticated, rate limited and parsed by the route). */
export async function handleModernMcpPost(caller: RequestCaller, request: Request, parsedBody: unknown): Promise<Response> {
  const { principal, requestId } = caller.ctx;
  // A listen for task notifications, once the headers say what the body says (else the SDK refuses it).
  if (isTaskListen(parsedBody) && request.headers.get('mcp-method') === 'subscriptions/listen' && request.headers.get('mcp-protocol-version') === MODERN_REVISION) {
    return serveTaskListen(caller.ctx, parsedBody, request.signal);
  }
  const response = await modernHandler(caller.ctx.env).fetch(request, {
    parsedBody,
    authInfo: { token: '', clientId: principal.keyId, scopes: [...principal.scopes], extra: { caller } },
  });
  // The SDK's own refusals (envelope, headers, versions) carry the REST error body too, as every
  // refusal of the door does; data the SDK set (a header mismatch, the supported versions) is kept.
  return response.status >= 400 ? withRefusalData(response, requestId) : response;
}
