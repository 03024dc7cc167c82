import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { readConfig, type Config } from '../ground/config.ts';
import type { AppEnv } from '../env.ts';
import { BOOKMARK_HEADER } from './bookmark-header.ts';

/** What CORS_ORIGINS allows, read once per configuration. */
interface CorsPolicy {
  /** The Access-Control-Allow-Origin for a request's Origin (`*`, the origin itself, or none). */
  allowOrigin: (origin: string) => string | undefined;
  /** Whether the answer depends on the Origin (a list rather than `*`): then it carries `Vary: Origin`. */
  varies: boolean;
  /** hono's cors middleware, which answers preflights (OPTIONS). */
  preflight: MiddlewareHandler;
}

/**
 * CORS for the API, from CORS_ORIGINS ("*" allows any origin, else a comma-separated list). The
 * policy is built once per configuration (so once per isolate), not on every request.
 *
 * Preflights are hono's cors middleware. Other requests get the same headers hono's would give them,
 * set on the response after the handler: hono's sets them on `c.res` before the handler, which makes
 * hono build a placeholder response and then copy it, header by header, into the handler's (a third
 * of the CPU of a cheap API read, issue 16). That copy also put the request id on responses a
 * handler builds itself (markdown, MCP), so it is set here too, as the copy did: over the handler's.
 */
export function apiCors(exposeHeaders: string[]): MiddlewareHandler<AppEnv> {
  const exposed = exposeHeaders.join(',');
  const built = new WeakMap<Config, CorsPolicy>();
  return async function apiCors(c, next) {
    const config = readConfig(c.env);
    let policy = built.get(config);
    if (!policy) {
      policy = corsPolicy(config.CORS_ORIGINS, exposeHeaders);
      built.set(config, policy);
    }
    if (c.req.method === 'OPTIONS') return policy.preflight(c, next);
    const allowOrigin = policy.allowOrigin(c.req.header('Origin') || '');
    await next();
    const headers = c.res.headers;
    headers.set('X-Request-Id', c.get('requestId'));
    if (allowOrigin) headers.set('Access-Control-Allow-Origin', allowOrigin);
    headers.set('Access-Control-Expose-Headers', exposed);
    if (policy.varies) headers.append('Vary', 'Origin');
  };
}

function corsPolicy(corsOrigins: string, exposeHeaders: string[]): CorsPolicy {
  const origins = corsOrigins.split(',').map((origin) => origin.trim());
  const anyOrigin = origins.includes('*');
  return {
    allowOrigin: anyOrigin ? () => '*' : (origin) => (origins.includes(origin) ? origin : undefined),
    varies: !anyOrigin,
    preflight: cors({
      origin: anyOrigin ? '*' : origins,
      allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id', BOOKMARK_HEADER],
      exposeHeaders,
      maxAge: 600,
    }),
  };
}
