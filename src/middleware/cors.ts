import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { readConfig, type Config } from '../ground/config.ts';
import type { AppEnv } from '../env.ts';

/**
 * CORS for the API, from CORS_ORIGINS ("*" allows any origin). The middleware is built once per
 * configuration (so once per isolate), not on every request.
 */
export function apiCors(exposeHeaders: string[]): MiddlewareHandler<AppEnv> {
  const built = new WeakMap<Config, MiddlewareHandler>();
  return function apiCors(c, next) {
    const config = readConfig(c.env);
    let handler = built.get(config);
    if (!handler) {
      const origins = config.CORS_ORIGINS.split(',').map((origin) => origin.trim());
      handler = cors({
        origin: origins.includes('*') ? '*' : origins,
        allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id'],
        exposeHeaders,
        maxAge: 600,
      });
      built.set(config, handler);
    }
    return handler(c, next);
  };
}
