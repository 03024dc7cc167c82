import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import type { ApiOperation } from './openapi-types.ts';

/** Liveness: no auth, no storage, the cheapest route (the benchmarks' baseline). */
export const health = new Hono<AppEnv>().get('/', (c) => c.json({ status: 'ok' }));

export const healthOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness check (no authentication, touches no storage)',
    auth: 'public',
    responses: { 200: { description: '{"status":"ok"}', contentType: 'application/json' } },
  },
];
