import type { Context } from 'hono';
import { DomainError, errorBody } from '../core/errors.ts';
import type { AppEnv } from '../env.ts';

/**
 * The REST door's one place that turns an error into a response: a DomainError becomes its JSON
 * body and status; anything else is logged in full and answered as a bare 500 `internal`.
 */
export function toHttpResponse(error: unknown, c: Context<AppEnv>): Response {
  const requestId = c.get('requestId');
  const domainError = error instanceof DomainError ? error : unexpected(error, requestId);
  c.set('errorCode', domainError.code);
  return c.json(errorBody(domainError, requestId), domainError.status, domainError.headers);
}

function unexpected(error: unknown, requestId: string | undefined): DomainError {
  console.error(
    JSON.stringify({
      event: 'unexpected_error',
      requestId,
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    }),
  );
  return new DomainError('internal', `Something went wrong on our side; quote request id ${requestId ?? 'unknown'} if you report it.`);
}
