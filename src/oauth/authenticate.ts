import { clientAddressKey, FailedAuthThrottle } from '../auth/failed-auth-throttle.ts';
import { BoundedMap } from '../ground/bounded-map.ts';
import type { Principal } from '../ground/context.ts';
import { DomainError } from '../ground/errors.ts';
import { sha256Hex } from '../ground/sha256.ts';
import { findOrganizationOfMember } from '../db/memberships.ts';
import { authorizationServerFor, OAUTH_SCOPES, resourceOf, type GrantProps, type OAuthScope } from './server.ts';
import type { RequestSession } from '../ground/db-session.ts';

/**
 * OAuth access tokens on the MCP door: a token becomes the same Principal an API key does
 * (organization, scopes, an id), so everything after authentication (rate limits, scopes, tenancy)
 * is the API key's code path, unchanged.
 *
 * - organization: the one the person chose on the consent page, read from D1 on every request
 *   and only while the person is still one of its members;
 * - scopes: those the person granted (never `oms:approve`);
 * - keyId: `oauth_<grant id>`, stable across refreshes; rate limits, MCP log levels and approval
 *   requests (`requestedBy.keyId`) count per grant, as they count per API key.
 *
 * A token is checked by the library against its KV record on every request (no cache), so a
 * revoked grant is refused at once. Unknown tokens count as failed authentications of the client
 * address, like unknown keys (AUTH_FAILURE_RATE_LIMITER); past the limit the address's tokens get
 * 429 before any KV read, except tokens that were valid within the hour.
 */

/** `<user id>:<grant id>:<secret>`, as the library issues them (ids and secret in base64url letters). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{32}$/;

/** The bearer token when the Authorization header carries an OAuth access token, else undefined (an API key, or nothing usable). */
export function oauthBearerToken(authorization: string | undefined): string | undefined {
  const token = authorization === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  return token !== undefined && TOKEN_SHAPE.test(token) ? token : undefined;
}

/** The Principal's `keyId` for a grant. */
export function oauthKeyId(grantId: string): string {
  return `oauth_${grantId}`;
}

const VALID_LATELY_MS = 60 * 60_000;
const MAX_VALID_LATELY = 10_000;

/** Tokens (by SHA-256) that were valid lately: they skip the address throttle, never the check itself. */
export class ValidLately {
  private readonly at: BoundedMap<string, true>;
  constructor(now: () => number = Date.now) {
    this.at = new BoundedMap({ max: MAX_VALID_LATELY, ttlMs: VALID_LATELY_MS, now });
  }

  has(hash: string): boolean {
    return this.at.has(hash);
  }

  add(hash: string): void {
    this.at.set(hash, true);
  }
}

const isolateThrottle = new FailedAuthThrottle();
const isolateValidLately = new ValidLately();

export interface OAuthAuthenticateOptions {
  /** The request's D1 session: the membership is read at the primary (a person removed from the organization loses access at once). */
  db: RequestSession;
  /** The origin the request arrived on: the issuer, and with /api/mcp the audience the token must have. */
  origin: string;
  /** `CF-Connecting-IP`: failed tokens are counted per address. */
  clientAddress?: string;
  throttle?: FailedAuthThrottle;
  validLately?: ValidLately;
}

const RECONNECT = 'reconnect your MCP client to sign in and consent again, or send an API key as Authorization: Bearer rk_...';

/** Throws 401 `unauthorized` (or 429 for a throttled address); returns the token's Principal. */
export async function authenticateOAuthToken(env: Env, token: string, options: OAuthAuthenticateOptions): Promise<Principal> {
  const throttle = options.throttle ?? isolateThrottle;
  const validLately = options.validLately ?? isolateValidLately;
  const address = clientAddressKey(options.clientAddress);
  const hash = await sha256Hex(token);
  if (!validLately.has(hash)) throttle.assertAllowed(address);

  const validated = await authorizationServerFor(options.origin).validateToken<GrantProps>(resourceOf(options.origin), token, env);
  if (!validated) {
    await throttle.recordFailure(env.AUTH_FAILURE_RATE_LIMITER, address);
    throw new DomainError('unauthorized', `This OAuth access token is unknown, expired or revoked, or was issued for another server: ${RECONNECT}.`);
  }
  const organization = await findOrganizationOfMember(options.db.latest(), validated.userId, validated.props.organizationId);
  if (!organization) {
    throw new DomainError('unauthorized', `The person who connected this client no longer belongs to the organization it was granted for: ${RECONNECT}.`);
  }
  validLately.add(hash);
  const grantId = token.split(':')[1]!;
  const scopes = OAUTH_SCOPES.filter((scope: OAuthScope) => validated.scope.includes(scope));
  return { organization, keyId: oauthKeyId(grantId), scopes };
}
