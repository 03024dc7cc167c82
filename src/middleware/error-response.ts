import type { Context } from 'hono';
import { errorBody, toDomainError } from '../ground/errors.ts';
import type { AppEnv } from '../env.ts';
import { errorHeaders } from '../http-headers.ts';

/**
 * The HTTP JSON funnel: the one place an error becomes a response for REST, OAuth and every other
 * JSON answer over HTTP. A DomainError becomes its JSON body (`error`, `message`, `details`,
 * `requestId`), its status and the headers its facts imply (`errorHeaders`, src/http-headers.ts);
 * anything else is logged in full and answered as a bare 500 `internal`. (The MCP door's JSON-RPC
 * refusals take the same status and the same headers.)
 */
export function toHttpResponse(error: unknown, c: Context<AppEnv>): Response {
  const requestId = c.get('requestId');
  const domainError = toDomainError(error, requestId);
  c.set('errorCode', domainError.code);
  return c.json(errorBody(domainError, requestId), domainError.status, errorHeaders(domainError));
}
