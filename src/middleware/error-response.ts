import type { Context } from 'hono';
import { errorBody, toDomainError } from '../ground/errors.ts';
import type { AppEnv } from '../env.ts';

/**
 * The REST door's one place that turns an error into a response: a DomainError becomes its JSON
 * body and status; anything else is logged in full and answered as a bare 500 `internal`.
 */
export function toHttpResponse(error: unknown, c: Context<AppEnv>): Response {
  const requestId = c.get('requestId');
  const domainError = toDomainError(error, requestId);
  c.set('errorCode', domainError.code);
  return c.json(errorBody(domainError, requestId), domainError.status, domainError.headers);
}
