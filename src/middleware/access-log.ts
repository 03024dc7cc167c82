import type { MiddlewareHandler } from 'hono';
import { readConfig } from '../ground/config.ts';
import { logEvent } from '../ground/log.ts';
import type { AppEnv } from '../env.ts';

/** A request that took at least this long is always logged, whatever its outcome. */
export const SLOW_REQUEST_MS = 1_000;

/** What the access log decides on. */
export interface RequestOutcome {
  path: string;
  status: number;
  durationMs: number;
  /** `ok`, or the error code sent (also for an MCP tool that answered isError). */
  outcome: string;
}

/**
 * The share of requests logged, as the line's `sampleRate` (an operator counts a line as
 * 1 / sampleRate requests): 1 for every failed request (an error code, or a status of 400 and
 * above) and every slow one; 0 for a fast, successful `/healthz` (liveness pays for nothing); the
 * configured rate (ACCESS_LOG_SAMPLE_RATE) for every other successful request.
 */
export function accessLogRate(request: RequestOutcome, sampleRate: number): number {
  if (request.outcome !== 'ok' || request.status >= 400 || request.durationMs >= SLOW_REQUEST_MS) return 1;
  if (request.path === '/healthz') return 0;
  return sampleRate;
}

export interface AccessLogOptions {
  /** A number in [0, 1): a request at rate r is logged when it is below r. */
  random?: () => number;
}

/**
 * One structured log line per logged request: request id, route, status, duration, organization,
 * key id, outcome (`ok` or the error code) and sampleRate. Never a key, a header value or a body.
 * Failed and slow requests are always logged; successful ones are sampled (accessLogRate), since a
 * console.log per request was the largest cost of the cheapest routes.
 */
export function accessLog({ random = Math.random }: AccessLogOptions = {}): MiddlewareHandler<AppEnv> {
  return async function accessLog(c, next) {
    const started = Date.now();
    await next();
    const request = { path: c.req.path, status: c.res.status, durationMs: Date.now() - started, outcome: c.get('errorCode') ?? 'ok' };
    const sampleRate = accessLogRate(request, configuredRate(c.env));
    if (sampleRate <= 0 || (sampleRate < 1 && random() >= sampleRate)) return;
    const principal = c.get('principal');
    logEvent('request', {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: request.path,
      status: request.status,
      durationMs: request.durationMs,
      organization: principal?.organization.slug,
      keyId: principal?.keyId,
      outcome: request.outcome,
      sampleRate,
    });
  };
}

/** ACCESS_LOG_SAMPLE_RATE; with a configuration that does not parse, 1 (log everything). */
function configuredRate(env: Env): number {
  try {
    return readConfig(env).ACCESS_LOG_SAMPLE_RATE;
  } catch {
    return 1;
  }
}
