import type { MiddlewareHandler } from 'hono';
import { authenticate } from '../auth/authenticate.ts';
import { DomainError } from '../ground/errors.ts';
import type { AppEnv } from '../env.ts';
import { openRequestSession } from '../operations/call.ts';
import { authenticateOAuthToken, oauthBearerToken } from '../oauth/authenticate.ts';
import { bearerChallenge } from '../oauth/server.ts';

export interface ApiKeyAuthOptions {
  /**
   * Also accept OAuth access tokens for this origin's MCP resource (src/oauth/), and answer 401
   * with the challenge that names the protected resource metadata, so MCP clients find the
   * authorization server. Set on /api/mcp only: the tokens' audience is the MCP server.
   */
  oauth?: boolean;
}

/**
 * Authenticates `Authorization: Bearer <key or token>` and sets `principal` and `core` on the
 * context; the core context carries the request's one D1 session (openRequestSession), which the key's
 * lookup opens when the key is not cached.
 */
export function apiKeyAuth(options: ApiKeyAuthOptions = {}): MiddlewareHandler<AppEnv> {
  return async function apiKeyAuth(c, next) {
    const authorization = c.req.header('Authorization');
    const clientAddress = c.req.header('CF-Connecting-IP');
    const token = options.oauth ? oauthBearerToken(authorization) : undefined;
    // Only OAuth needs the origin: parsing the URL was a few percent of a REST read (issue 16).
    const origin = () => new URL(c.req.url).origin;
    const db = openRequestSession(c.env);
    let principal;
    try {
      principal = token
        ? await authenticateOAuthToken(c.env, token, { db, origin: origin(), clientAddress })
        : await authenticate(c.env, db, authorization, { waitUntil: (promise) => c.executionCtx.waitUntil(promise), clientAddress });
    } catch (error) {
      if (options.oauth && error instanceof DomainError && error.code === 'unauthorized') {
        throw new DomainError('unauthorized', error.message, { retryAfterSeconds: error.retryAfterSeconds, challenge: bearerChallenge(origin()) });
      }
      throw error;
    }
    c.set('principal', principal);
    c.set('core', { env: c.env, db, principal, requestId: c.get('requestId'), origin: new URL(c.req.url).origin });
    await next();
  };
}
