import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';

/**
 * Liveness: no auth, no storage, the cheapest route (the benchmarks' baseline). Not in the OpenAPI
 * document: it is for operators and load balancers, and can answer nothing but 200.
 */
export const health = new Hono<AppEnv>().get('/', (c) => c.json({ status: 'ok' }));
