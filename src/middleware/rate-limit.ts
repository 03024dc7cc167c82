import type { MiddlewareHandler } from 'hono';
import { enforceRateLimit, type RateBucket } from '../ground/rate-limit.ts';
import type { AppEnv } from '../env.ts';

/**
 * Counts the request against the caller's key in the bucket `bucketOf` picks. Runs after
 * apiKeyAuth; one bucket per request, never two.
 */
export function rateLimit(bucketOf: (method: string, path: string) => RateBucket): MiddlewareHandler<AppEnv> {
  return async function rateLimit(c, next) {
    await enforceRateLimit(c.env, c.get('principal'), bucketOf(c.req.method, c.req.path));
    await next();
  };
}
