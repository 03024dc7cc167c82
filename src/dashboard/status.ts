import type { Context } from 'hono';
import { DomainError } from '../ground/errors.ts';
import { errorHeaders } from '../middleware/error-response.ts';
import type { AccountContext } from '../operations/account.ts';
import type { DashboardEnv } from './env.ts';

/**
 * Prepares the response of a page that shows a refused form: the DomainError's status (400, 401,
 * 404, 409, 429) and its headers (`Retry-After`). Anything else was re-thrown by formErrors.
 */
export function refusedWith(c: Context<DashboardEnv>, error: unknown): void {
  if (!(error instanceof DomainError)) return;
  c.status(error.status === 500 || error.status === 504 ? 500 : error.status);
  for (const [name, value] of Object.entries(errorHeaders(error))) c.header(name, value);
}

/** What dashboard operations take, for a page behind requireSession(). */
export function accountContext(c: Context<DashboardEnv>): AccountContext {
  const session = c.var.session;
  if (!session) throw new Error('accountContext() used on a page without requireSession()');
  return { env: c.env, requestId: c.var.requestId, session };
}
