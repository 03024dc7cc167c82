import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { ErrorCode as RpcCode } from '@modelcontextprotocol/sdk/types.js';
import { readConfig } from '../config.ts';
import { DomainError } from '../core/errors.ts';
import { enforceRateLimit } from '../core/rate-limit.ts';
import type { AppEnv } from '../env.ts';
import { rpcErrorResponse } from '../mcp/json-rpc-error.ts';
import { handleMcpPost, mcpRateBucket } from '../mcp/server.ts';
import type { ApiOperation } from './openapi-types.ts';

/**
 * DNS-rebinding protection: a browser Origin must be this server's own or listed in
 * MCP_ALLOWED_ORIGINS; requests without Origin (agents, CLIs, server-side proxies) are fine.
 */
export function mcpOriginCheck(): MiddlewareHandler<AppEnv> {
  return async function mcpOriginCheck(c, next) {
    const origin = c.req.header('Origin');
    if (origin && origin !== new URL(c.req.url).origin && !readConfig(c.env).MCP_ALLOWED_ORIGINS.includes(origin)) {
      throw new DomainError(
        'access_denied',
        `Origin ${origin} may not call this MCP server; an operator can allow it in MCP_ALLOWED_ORIGINS.`,
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

/** Refuses a request with a JSON-RPC error body, before the MCP transport sees it. */
function refuse(c: Context<AppEnv>, error: DomainError, rpcCode?: number): Response {
  c.set('errorCode', error.code);
  return rpcErrorResponse(error, c.var.requestId, rpcCode);
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
        RpcCode.InvalidRequest,
      );
    }
    await enforceRateLimit(c.env, c.var.principal, mcpRateBucket(body));
    // Malformed JSON goes to the transport as text, so the client gets its JSON-RPC parse error.
    const request = body === undefined ? new Request(c.req.raw, { body: text }) : c.req.raw;
    return handleMcpPost(c.var.core, request, body);
  })
  // Stateless server: no SSE stream to open (GET) and no session to end (DELETE).
  .on(['GET', 'DELETE'], '/', (c) =>
    c.json(
      { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; use POST.' }, id: null },
      405,
      { Allow: 'POST' },
    ),
  );

export const mcpOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/api/mcp',
    operationId: 'mcp',
    summary: 'MCP Streamable HTTP endpoint (JSON-RPC 2.0; stateless, JSON responses)',
    auth: 'key',
    responses: { 200: { description: 'A JSON-RPC response', contentType: 'application/json' } },
  },
  {
    method: 'get',
    path: '/api/mcp',
    operationId: 'mcpGet',
    summary: 'Not allowed: the server is stateless (405, Allow: POST)',
    auth: 'key',
    responses: { 405: { description: 'Method not allowed', contentType: 'application/json' } },
  },
  {
    method: 'delete',
    path: '/api/mcp',
    operationId: 'mcpDelete',
    summary: 'Not allowed: the server is stateless (405, Allow: POST)',
    auth: 'key',
    responses: { 405: { description: 'Method not allowed', contentType: 'application/json' } },
  },
];
