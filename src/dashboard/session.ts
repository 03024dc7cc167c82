import type { MiddlewareHandler } from 'hono';
import { SCOPES } from '../ground/api-key.ts';
import type { CoreContext } from '../ground/context.ts';
import type { RequestSession } from '../ground/db-session.ts';
import { openRequestSession } from '../operations/call.ts';
import { readSession } from '../operations/account/account.ts';
import type { DashboardEnv, SessionView, SignedInEnv } from './env.ts';
import { clearSessionCookie, readSessionCookie } from './session-cookie.ts';

/**
 * The session on a request: loadSession() reads it from the cookie for every page, requireSession()
 * keeps signed-out people off the pages behind sign-in and puts the person's core context on the
 * request (`c.var.core`), which those pages hand to every operation they call.
 */

/**
 * The core context of a signed-in person, for the operations the API doors also call: the
 * organization of the session with every scope. `keyId` carries the user id (`usr_...`), so
 * whatever an operation records as the acting credential (an approval's decider, an invitation's
 * inviter) names the person.
 */
export function coreContextFor(env: Env, db: RequestSession, requestId: string, session: SessionView): CoreContext {
  return { env, db, requestId, principal: { organization: session.organization, keyId: session.user.id, scopes: SCOPES } };
}

/**
 * Sets the request's D1 session (`db`) and `session` (null without a live one) from the cookie; a
 * stale cookie is cleared. A browser sends no bookmark, so the session opens at the primary with
 * the cookie's lookup (a signed-out session is gone at once, and a page after a form sees what the
 * form wrote).
 */
export function loadSession(): MiddlewareHandler<DashboardEnv> {
  return async function loadSession(c, next) {
    const db = openRequestSession(c.env);
    c.set('db', db);
    const token = readSessionCookie(c);
    const session = await readSession(db, token);
    c.set('session', session);
    if (session) c.set('sessionToken', token);
    else if (token !== undefined) clearSessionCookie(c);
    await next();
  };
}

/**
 * Pages behind sign-in: without a session, a GET goes to sign-in and comes back; anything else
 * too, without coming back. With one, sets `core` (coreContextFor): what follows reads a typed
 * SignedInEnv.
 */
export function requireSession(): MiddlewareHandler<SignedInEnv> {
  return async function requireSession(c, next) {
    // Typed as present for what follows; checked here.
    const session: SessionView | null = c.var.session;
    if (session) {
      c.set('core', coreContextFor(c.env, c.var.db, c.var.requestId, session));
      return next();
    }
    const url = new URL(c.req.url);
    const back = c.req.method === 'GET' ? `?next=${encodeURIComponent(url.pathname + url.search)}` : '';
    return c.redirect(`/dashboard/sign-in${back}`, 303);
  };
}
