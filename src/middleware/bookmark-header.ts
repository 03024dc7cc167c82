import type { MiddlewareHandler } from 'hono';
import { readClientBookmark } from '../ground/db-session.ts';
import type { AppEnv } from '../env.ts';

/** The REST header that carries the request's D1 bookmark both ways. */
export const BOOKMARK_HEADER = 'X-Recon-Bookmark';

/**
 * The REST door's part of read-your-writes (after apiKeyAuth): hands the bookmark the client sent
 * in X-Recon-Bookmark to the request's D1 session (400 `invalid_input` for one that is not a
 * bookmark's shape or is over its length), and sends the session's bookmark back in the same
 * header, on every answer, errors included (a refused call may have written). No bookmark at all
 * (the request did no D1 work and the client sent none): no header.
 */
export function bookmarkHeader(): MiddlewareHandler<AppEnv> {
  return async function bookmarkHeader(c, next) {
    const { db } = c.get('core');
    db.continueFrom(readClientBookmark(c.req.header(BOOKMARK_HEADER), BOOKMARK_HEADER));
    await next();
    const bookmark = db.bookmark();
    if (bookmark !== null) c.res.headers.set(BOOKMARK_HEADER, bookmark);
  };
}
