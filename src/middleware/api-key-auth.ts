import type { MiddlewareHandler } from 'hono';
import { authenticate } from '../auth/authenticate.ts';
import type { AppEnv } from '../env.ts';

/** Authenticates `Authorization: Bearer <key>` and sets `principal` and `core` on the context. */
export function apiKeyAuth(): MiddlewareHandler<AppEnv> {
  return async function apiKeyAuth(c, next) {
    const principal = await authenticate(c.env, c.req.header('Authorization'), {
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
      clientAddress: c.req.header('CF-Connecting-IP'),
    });
    c.set('principal', principal);
    c.set('core', { env: c.env, principal, requestId: c.var.requestId });
    await next();
  };
}
