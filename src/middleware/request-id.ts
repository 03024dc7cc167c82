import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';

/** The longest client X-Request-Id kept. */
export const MAX_REQUEST_ID_LENGTH = 64;

/**
 * The request id: the client's X-Request-Id when it is at most 64 letters, digits, `_`, `-` or `=`
 * (hono's requestId rule), else a generated UUID, so logs and error bodies never echo arbitrary text.
 */
export function acceptedRequestId(fromClient: string | undefined): string {
  return fromClient && fromClient.length <= MAX_REQUEST_ID_LENGTH && !/[^\w\-=]/.test(fromClient) ? fromClient : crypto.randomUUID();
}

/** hono's requestId middleware with the rule above: sets `requestId` and the X-Request-Id response header. */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async function requestId(c, next) {
    const id = acceptedRequestId(c.req.header('X-Request-Id'));
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    await next();
  };
}
