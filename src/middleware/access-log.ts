import type { MiddlewareHandler } from 'hono';
import { logEvent } from '../ground/log.ts';
import type { AppEnv } from '../env.ts';

/**
 * One structured log line per request: request id, route, status, duration, organization, key id
 * and outcome (`ok` or the error code). Never a key, a header value or a body.
 */
export function accessLog(): MiddlewareHandler<AppEnv> {
  return async function accessLog(c, next) {
    const started = Date.now();
    await next();
    const principal = c.get('principal');
    logEvent('request', {
      requestId: c.var.requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Date.now() - started,
      organization: principal?.organization.slug,
      keyId: principal?.keyId,
      outcome: c.get('errorCode') ?? 'ok',
    });
  };
}
