import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { readConfig } from '../ground/config.ts';
import { DomainError, rateLimited } from '../ground/errors.ts';
import type { AppEnv } from '../env.ts';
import { toHttpResponse } from '../middleware/error-response.ts';
import { isAllowedHost, mcpHosts } from '../mcp/dns-rebinding.ts';
import { clientAddressKey } from '../auth/failed-auth-throttle.ts';
import {
  AUTHORIZATION_SERVER_METADATA_PATH,
  authorizationServerFor,
  MCP_RESOURCE_PATH,
  PROTECTED_RESOURCE_METADATA_PATH,
  protectedResourceMetadata,
  REGISTER_PATH,
  TOKEN_PATH,
} from '../oauth/server.ts';

/**
 * The OAuth endpoints MCP clients discover and call (src/oauth/server.ts): the protected resource
 * metadata of /api/mcp (RFC 9728; at its path-inserted address and at the bare well-known path,
 * which older clients try), and, served by @cloudflare/workers-oauth-provider, the authorization
 * server metadata (RFC 8414), the token endpoint and dynamic client registration. They answer only
 * on the hosts the MCP door answers on (`mcpHosts`), since the request's origin is the issuer; the
 * library adds CORS for browser clients. The authorize step is a dashboard page (src/dashboard/pages/consent.tsx).
 */

/** The request's origin when its host is one the MCP door answers on (`mcpHosts`), else undefined. */
export function oauthOrigin(c: Context): string | undefined {
  const url = new URL(c.req.url);
  return isAllowedHost(url.host, mcpHosts(readConfig(c.env)), url.protocol) ? url.origin : undefined;
}

function requireOrigin(c: Context<AppEnv>): string {
  const origin = oauthOrigin(c);
  if (!origin) {
    throw new DomainError('access_denied', `OAuth is not served on host ${JSON.stringify(new URL(c.req.url).host.slice(0, 100))}; an operator can add it to MCP_ALLOWED_HOSTS.`);
  }
  return origin;
}

/** Token requests and client registrations are small; 64 KiB bounds them before the library reads them. */
const MAX_OAUTH_BODY_BYTES = 64 * 1024;
const limitBody = bodyLimit({
  maxSize: MAX_OAUTH_BODY_BYTES,
  onError: () => {
    throw new DomainError('payload_too_large', 'Request body exceeds 64 KiB; OAuth requests are small.');
  },
});

/** Each registration stores a client; OAUTH_REGISTER_RATE_LIMITER bounds them per client address (10 a minute). */
function throttleRegistration(): MiddlewareHandler<AppEnv> {
  return async function throttleRegistration(c, next) {
    if (c.req.method === 'POST') {
      const { success } = await c.env.OAUTH_REGISTER_RATE_LIMITER.limit({ key: clientAddressKey(c.req.header('CF-Connecting-IP')) });
      if (!success) throw rateLimited(60, 'Too many OAuth client registrations came from your address; register once and reuse the client.');
    }
    await next();
  };
}

const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS', 'Access-Control-Max-Age': '600' };

export const oauth = new Hono<AppEnv>();

// Like the library's endpoints below, these are described by their RFCs (and themselves), not by the OpenAPI document.
for (const path of [PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}${MCP_RESOURCE_PATH}`]) {
  oauth.all(path, (c) => {
    if (c.req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const refusal = new DomainError('method_not_allowed', `${c.req.method} is not served here: the protected resource metadata is read with GET.`, { allow: 'GET, HEAD, OPTIONS' });
      const response = toHttpResponse(refusal, c);
      for (const [name, value] of Object.entries(CORS)) response.headers.set(name, value);
      return response;
    }
    return c.json(protectedResourceMetadata(requireOrigin(c)), 200, { ...CORS, 'Cache-Control': 'public, max-age=300' });
  });
}

// The library's own endpoints: it answers methods, CORS and errors as the RFCs say. (hono types the
// execution context with fewer members than workers-types; at run time it is the Worker's own.)
const library = (c: Context<AppEnv>) => authorizationServerFor(requireOrigin(c)).fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);
oauth.all(AUTHORIZATION_SERVER_METADATA_PATH, library);
oauth.all(TOKEN_PATH, limitBody, library);
oauth.all(REGISTER_PATH, limitBody, throttleRegistration(), library);
