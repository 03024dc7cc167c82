import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import type { AppEnv } from '../env.ts';

/** The answer never changes: its text is made once per isolate. */
const OK = JSON.stringify({ status: 'ok' });

/**
 * Liveness: no auth, no storage, no access log, no security or CORS headers (app.ts mounts it ahead
 * of that middleware), only its request id: the cheapest route, and the benchmarks' baseline. Not in
 * the OpenAPI document: it is for operators and load balancers, and can answer nothing but 200.
 */
export const health = new Hono<AppEnv>().get('/', requestId({ limitLength: 64 }), (c) => c.body(OK, 200, { 'Content-Type': 'application/json' }));
