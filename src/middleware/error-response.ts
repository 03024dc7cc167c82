import type { Context } from 'hono';
import { errorBody, toDomainError, type DomainError } from '../ground/errors.ts';
import type { AppEnv } from '../env.ts';
import { runHeaders } from '../routes/answers.ts';

/**
 * The HTTP JSON funnel: the one place an error becomes a response for REST, OAuth and every other
 * JSON answer over HTTP. A DomainError becomes its JSON body (`error`, `message`, `details`,
 * `requestId`), its status and the headers its facts imply; anything else is logged in full and
 * answered as a bare 500 `internal`. (JSON-RPC errors take their status and headers from here too.)
 */
export function toHttpResponse(error: unknown, c: Context<AppEnv>): Response {
  const requestId = c.get('requestId');
  const domainError = toDomainError(error, requestId);
  c.set('errorCode', domainError.code);
  return c.json(errorBody(domainError, requestId), domainError.status, errorHeaders(domainError));
}

/** The headers a refusal's facts imply: Retry-After, WWW-Authenticate, Allow, and a run's X-Run-Id, X-Audit-Id and Location. */
export function errorHeaders(error: DomainError): Record<string, string> {
  return {
    ...(error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) }),
    ...(error.challenge ? { 'WWW-Authenticate': error.challenge } : {}),
    ...(error.allow ? { Allow: error.allow } : {}),
    ...(error.run ? runHeaders(error.run) : {}),
  };
}
