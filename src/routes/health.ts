import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { acceptedRequestId } from '../middleware/request-id.ts';

/** The answer never changes: its text is made once per isolate. */
const OK = JSON.stringify({ status: 'ok' });

/** The path of a request URL (`https://host/path?query` -> `/path`), without parsing the whole URL. */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  const hash = url.indexOf('#', start);
  const end = Math.min(query === -1 ? url.length : query, hash === -1 ? url.length : hash);
  return url.slice(start, end);
}

/**
 * Liveness, `GET` (or `HEAD`) `/healthz`: 200 `{"status":"ok"}` with its request id, nothing else:
 * no auth, no storage, no access log, no security or CORS headers. The Worker's entry (index.ts)
 * answers it before the app, so it pays for no routing or middleware (issue 16: within 10% of a
 * bare Worker); the app's route gives the same answer to whoever calls the app itself. Not in the
 * OpenAPI document: it is for operators and load balancers, and can answer nothing but 200.
 */
export function healthResponse(request: Request): Response | undefined {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || pathOf(request.url) !== '/healthz') return undefined;
  return healthAnswer(request);
}

function healthAnswer(request: Request): Response {
  return new Response(request.method === 'HEAD' ? null : OK, {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'X-Request-Id': acceptedRequestId(request.headers.get('X-Request-Id') ?? undefined) },
  });
}

export const health = new Hono<AppEnv>().get('/', (c) => healthAnswer(c.req.raw));
