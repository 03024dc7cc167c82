import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { acceptedRequestId } from '../middleware/request-id.ts';

/** The answer never changes: its text is made once per isolate. */
const OK = JSON.stringify({ status: 'ok' });

/**
 * Liveness: no auth, no storage, no access log, no security or CORS headers (app.ts mounts it ahead
 * of that middleware), only its request id: the cheapest route, and the benchmarks' baseline. One
 * handler that sets the id itself (no middleware, no context variables). Not in the OpenAPI
 * document: it is for operators and load balancers, and can answer nothing but 200.
 */
export const health = new Hono<AppEnv>().get(
  '/',
  (c) => new Response(OK, { status: 200, headers: { 'Content-Type': 'application/json', 'X-Request-Id': acceptedRequestId(c.req.header('X-Request-Id')) } }),
);
