import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { readConfig, type HostPattern } from '../ground/config.ts';
import { DomainError, toDomainError } from '../ground/errors.ts';
import type { CoreContext } from '../ground/context.ts';
import type { AppEnv } from '../env.ts';
import { MAX_BODY_BYTES } from '../ground/body-limits.ts';
import { spendRateLimit } from '../operations/call.ts';
import { isAllowedHost, isAllowedOrigin, mcpHosts } from '../mcp/dns-rebinding.ts';
import { rpcErrorResponse, rpcIdOf, type RpcErrorResponseOptions } from '../mcp/json-rpc-error.ts';
import { answerPlainToolsList, handleMcpPost, mcpRateBucket } from '../mcp/server.ts';
import { bookmarkOfMessage } from '../mcp/bookmark.ts';
import { TOOLS } from '../mcp/tools/index.ts';
import { createRoute, z } from '@hono/zod-openapi';
import { ErrorBody, headers } from './openapi-parts.ts';

/** Refuses a request with a JSON-RPC error body, before the MCP transport sees it. */
function refuse(c: Context<AppEnv>, error: DomainError, options?: RpcErrorResponseOptions): Response {
  c.set('errorCode', error.code);
  return rpcErrorResponse(error, c.get('requestId'), options);
}

/**
 * The JSON-RPC id of a request refused before the door read its body (no key, a Host or Origin not
 * allowed), so the error answers the request by its id, as the 2026-07-28 revision asks: a copy of
 * the body is read when it declares a length within the body limit. Null when it has none, or the
 * body is unknown in length, too long, already read, not JSON or a notification.
 */
async function idOfUnreadBody(request: Request): Promise<string | number | null> {
  if (request.method !== 'POST' || request.bodyUsed) return null;
  const length = Number(request.headers.get('content-length') ?? NaN);
  if (!Number.isSafeInteger(length) || length <= 0 || length > MAX_BODY_BYTES) return null;
  try {
    return rpcIdOf(JSON.parse(await request.clone().text()));
  } catch {
    return null;
  }
}

/** refuse, for a request whose body was not read yet: answered by its id when it has one. */
async function refuseUnread(c: Context<AppEnv>, error: DomainError, options: RpcErrorResponseOptions = {}): Promise<Response> {
  return refuse(c, error, { id: await idOfUnreadBody(c.req.raw), ...options });
}

/**
 * The MCP door's error funnel (its `onError`): whatever the door's middleware throws (no or a bad
 * key: 401; too many unknown keys from the address: 429; a body over the limit: 413) or anything
 * unexpected (500, detail logged) becomes a JSON-RPC error body with the REST status and headers,
 * which MCP clients can show, instead of the REST error body. The body was not read yet: its id is
 * read from a copy (idOfUnreadBody).
 */
export function mcpErrorResponse(error: unknown, c: Context<AppEnv>): Promise<Response> {
  const domainError = toDomainError(error, c.get('requestId'));
  // Before the body is read, the only 429 is the failed-authentication throttle (authenticate).
  return refuseUnread(c, domainError, domainError.code === 'rate_limited' ? { data: { bucket: 'failed-auth' } } : {});
}

/** At most this much of a refused header is quoted back in the error message. */
const SHOWN_CHARS = 100;
const shown = (value: string) => JSON.stringify(value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}...` : value);

/**
 * DNS-rebinding protection, before anything else on /api/mcp (key, body, JSON-RPC): the Host must be
 * one of `mcpHosts` (MCP_ALLOWED_HOSTS; on a deployment, the hosts it is served on) and a browser
 * Origin one of MCP_ALLOWED_ORIGINS (`null` never is); requests without Origin (agents, CLIs,
 * server-side proxies) are fine. A refusal is a 403 whose body is a JSON-RPC error.
 */
export function dnsRebindingCheck(): MiddlewareHandler<AppEnv> {
  // The last host checked and the answer (a pure function of these): clients keep calling on one host.
  let last: { allowedHosts: readonly HostPattern[]; host: string; protocol: string; allowed: boolean } | undefined;
  return async function dnsRebindingCheck(c, next) {
    const config = readConfig(c.env);
    const allowedHosts = mcpHosts(config);
    // The request URL is serialized, its scheme lower case: its protocol is what precedes the first ':'.
    const protocol = c.req.url.slice(0, c.req.url.indexOf(':') + 1);
    const host = c.req.header('Host') ?? new URL(c.req.url).host;
    if (last?.allowedHosts !== allowedHosts || last.host !== host || last.protocol !== protocol) {
      last = { allowedHosts, host, protocol, allowed: isAllowedHost(host, allowedHosts, protocol) };
    }
    if (!last.allowed) {
      const remedy = config.DEPLOYED_HOSTS === undefined
        ? 'an operator can add it to MCP_ALLOWED_HOSTS'
        : 'it answers on the hosts this deployment is served on, narrowed by MCP_ALLOWED_HOSTS: an operator adds a route or custom domain to wrangler.toml and deploys again';
      return refuseUnread(c, new DomainError('access_denied', `Host ${shown(host)} is not one this MCP server answers on; ${remedy}.`));
    }
    const origin = c.req.header('Origin');
    if (origin !== undefined && !isAllowedOrigin(origin, config.MCP_ALLOWED_ORIGINS)) {
      return refuseUnread(
        c,
        new DomainError('access_denied', `Origin ${shown(origin)} may not call this MCP server; an operator can allow it in MCP_ALLOWED_ORIGINS.`),
      );
    }
    await next();
  };
}

/** Parses the body once: for the rate bucket and for the transport (which gets it pre-parsed). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const mcp = new Hono<AppEnv>()
  .post('/', async (c) => {
    const text = await c.req.text();
    const body = parseJson(text);
    // MCP has no batches since protocol 2025-06-18: an array (even an empty one) is refused whole,
    // before it spends a rate-limit token and before any of its messages runs.
    if (Array.isArray(body)) {
      return refuse(
        c,
        new DomainError('invalid_input', 'JSON-RPC batches are not supported (MCP has none since protocol 2025-06-18); send one JSON-RPC message per request.'),
        { rpcCode: ProtocolErrorCode.InvalidRequest },
      );
    }
    // Every message spends one token as it arrives, before the SDK reads it: a tools/call the bucket
    // its tool's operation declares, anything else a read. The tool's call spends no other.
    const bucket = mcpRateBucket(body);
    let ctx: CoreContext;
    try {
      ctx = await spendRateLimit(c.get('core'), bucket);
      // The D1 bookmark the client sent in `_meta` (read-your-writes; a malformed one is 400).
      ctx.db.continueFrom(bookmarkOfMessage(body));
    } catch (error) {
      // The body is read: the refusal (a 429: which budget is spent) answers the request by its id.
      const domainError = toDomainError(error, c.get('requestId'));
      return refuse(c, domainError, { id: rpcIdOf(body), ...(domainError.code === 'rate_limited' ? { data: { bucket } } : {}) });
    }
    // Malformed JSON goes to the SDK as text, so the client gets its JSON-RPC parse error.
    const request = body === undefined ? new Request(c.req.raw, { body: text }) : c.req.raw;
    const listed = answerPlainToolsList(ctx, request, body);
    if (listed) return listed;
    // One server for every revision (the SDK chooses it: src/mcp/server.ts, buildServer). A tool
    // that answered isError is logged as its error code, not as ok.
    return handleMcpPost(ctx, request, body, { onToolError: (code) => c.set('errorCode', code) });
  })
  // Stateless server: no SSE stream to open (GET) and no session to end (DELETE).
  .on(['GET', 'DELETE'], '/', (c) =>
    refuse(
      c,
      new DomainError('method_not_allowed', 'This MCP server is stateless: there is no stream to open (GET) or session to end (DELETE); send each JSON-RPC message with POST.', {
        allow: 'POST',
      }),
    ),
  );

const JsonRpcError = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]).describe('The request id, or null when the request could not be read.'),
    error: z.object({
      code: z.int().describe('-32600 invalid request (e.g. a batch), -32700 parse error, -32602 invalid params or not found, -32000 any other refusal.'),
      message: z.string(),
      data: ErrorBody.optional().describe("The REST error body: error code, message, details and request id."),
    }),
  })
  .openapi('JsonRpcError');

const rpcError = (description: string, extra: Record<string, z.ZodType> = {}) => ({
  description,
  headers: headers(extra),
  content: { 'application/json': { schema: JsonRpcError } },
});

/**
 * The MCP door in the OpenAPI document. Registered beside the handlers above rather than through
 * them (the transport writes its own responses); a test checks that what is served is documented.
 * GET and DELETE only ever answer 405, so they are left out.
 */
export const mcpOperations = [
  createRoute({
    method: 'post',
    path: '/api/mcp',
    operationId: 'mcp',
    summary: 'The MCP server (Streamable HTTP, JSON-RPC 2.0; stateless, JSON responses); an API key or an OAuth access token',
    description:
      `One JSON-RPC message per request (no batches). Send Accept: application/json, text/event-stream. Tools (${TOOLS.length}): ${TOOLS.map((tool) => tool.id).join(', ')}; ` +
      'each is an operation of the REST API with the same argument schema (tools/list gives them as JSON Schema). Answers only on the hosts the deployment is served on ' +
      '(its workers.dev name, routes and custom domains; loopback in local development), narrowed by MCP_ALLOWED_HOSTS, and to browser Origins in MCP_ALLOWED_ORIGINS. See the MCP specification for the methods.',
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z
              .object({
                jsonrpc: z.literal('2.0'),
                id: z.union([z.string(), z.number()]).optional().describe('Absent for a notification.'),
                method: z.string().describe('e.g. initialize, tools/list, tools/call, tasks/get'),
                params: z.record(z.string(), z.unknown()).optional(),
              })
              .openapi('JsonRpcRequest'),
            example: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The JSON-RPC response (tool errors are results with isError: true). A run poll of a key that chose a log level (logging/setLevel) is answered as an SSE stream instead: its log notifications, then this response.',
        headers: headers(),
        content: { 'application/json': { schema: z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]) }).catchall(z.unknown()).openapi('JsonRpcResponse') } },
      },
      202: { description: 'A notification or response was accepted (no body).', headers: headers() },
      400: rpcError('-32600 for a batch (a JSON array; MCP has none since 2025-06-18), -32700 for malformed JSON.'),
      401: rpcError('A missing, malformed, unknown or revoked key or OAuth access token.', {
        'WWW-Authenticate': z
          .string()
          .describe('Bearer realm="recon", resource_metadata="<origin>/.well-known/oauth-protected-resource/api/mcp", scope="commands oms:read": where MCP clients find the OAuth authorization server (RFC 9728).'),
      }),
      403: rpcError('-32000, data.error access_denied: a Host the deployment is not served on (or one MCP_ALLOWED_HOSTS leaves out) or a browser Origin not in MCP_ALLOWED_ORIGINS.'),
      413: rpcError('A body over 256 KiB.'),
      429: rpcError("The key's rate limit, or the client address's failed-key limit.", {
        'Retry-After': z.string().describe('Seconds to wait before trying again.'),
      }),
    },
  }),
];
