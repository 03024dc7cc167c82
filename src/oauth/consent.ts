import { AuthorizationError, authorizationErrorRedirect, type AuthRequest, type ConsentDescription } from '@cloudflare/workers-oauth-provider';
import { z } from 'zod';
import type { Organization } from '../ground/context.ts';
import { DomainError } from '../ground/errors.ts';
import { parseInput } from '../ground/validation.ts';
import { findOrganizationOfMember, listOrganizationsOfUser } from '../db/memberships.ts';
import { authorizationServerFor, DEFAULT_OAUTH_SCOPES, OAUTH_SCOPES, type GrantProps, type OAuthScope } from './server.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * The authorize step of OAuth, behind the dashboard's sign-in: read and check the client's
 * request, show what consenting means, and complete it for one of the person's organizations
 * with the scopes they picked (or decline it). The request itself (client, redirect URI, PKCE,
 * resource) is checked by the library on the way in and again on completion; nothing is stored
 * until the person allows it.
 */

/** Organizations a consent page lists (a person belongs to a handful). */
export const MAX_CONSENT_ORGANIZATIONS = 100;

export const ConsentInput = z.strictObject({
  organization: z.string().min(1).max(64).describe('The organization the client will act for: one you belong to, by id (org_...).'),
  scopes: z
    .array(z.enum(OAUTH_SCOPES))
    .min(1)
    .max(OAUTH_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope')
    .describe('What the client may do: at least one of commands, oms:read, oms:write (oms:approve is never granted to a client).'),
});

/** A checked authorization request and what the consent page shows about it. */
export interface PendingAuthorization {
  request: AuthRequest;
  /** Client name (self-asserted), redirect host, loopback warning and requested scopes; every string came from the client. */
  description: ConsentDescription;
  /** The scopes the form proposes: those requested that a client can have, or the default. */
  proposedScopes: OAuthScope[];
  /** Requested scopes a client is never granted here (oms:approve, unknown names), to say so. */
  refusedScopes: string[];
  organizations: Organization[];
}

/**
 * A request the page cannot send back to the client (unknown client, redirect URI not registered):
 * it is shown to the person, never redirected. `redirectTo` is set when the library validated the
 * redirect URI, for errors the client should hear about (missing PKCE, unknown resource).
 */
export class AuthorizeRequestError extends Error {
  constructor(
    message: string,
    readonly redirectTo?: string,
  ) {
    super(message);
    this.name = 'AuthorizeRequestError';
  }
}

async function checkedRequest(env: Env, request: Request, origin: string): Promise<AuthRequest> {
  try {
    return await authorizationServerFor(origin).getOAuthApi(env).parseAuthRequest(request);
  } catch (error) {
    if (error instanceof AuthorizationError) throw new AuthorizeRequestError(error.description, error.redirectTo);
    throw error;
  }
}

/** Reads and checks the authorization request at `request`'s URL; what the consent page shows for `userId`. */
export async function readAuthorization(env: Env, db: Db, request: Request, origin: string, userId: string): Promise<PendingAuthorization> {
  const authRequest = await checkedRequest(env, request, origin);
  const description = await authorizationServerFor(origin).getOAuthApi(env).describeConsent(authRequest);
  const offered = new Set<string>(OAUTH_SCOPES);
  const requested = authRequest.scope.filter((scope) => offered.has(scope)) as OAuthScope[];
  return {
    request: authRequest,
    description,
    proposedScopes: requested.length ? [...new Set(requested)] : [...DEFAULT_OAUTH_SCOPES],
    refusedScopes: authRequest.scope.filter((scope) => !offered.has(scope)),
    organizations: await listOrganizationsOfUser(db, userId, MAX_CONSENT_ORGANIZATIONS),
  };
}

/**
 * The person allowed the request with the posted form (`organization`, `scopes`): checks both,
 * stores the grant (replacing this person's earlier grant to the same client) and answers where to
 * send the browser: the client's redirect URI with the code, `state` and `iss`. A person who is not
 * a member of the organization gets 403 `access_denied` and nothing is stored.
 */
export async function allowAuthorization(env: Env, db: Db, request: Request, origin: string, userId: string, raw: unknown): Promise<{ redirectTo: string }> {
  const authRequest = await checkedRequest(env, request, origin);
  const input = parseInput(ConsentInput, raw, 'consent form');
  const organization = await findOrganizationOfMember(db, userId, input.organization);
  if (!organization) {
    const message = 'You are not a member of that organization; pick one of yours.';
    throw new DomainError('access_denied', message, { details: [{ path: 'organization', message }] });
  }
  const props: GrantProps = { organizationId: organization.id };
  return authorizationServerFor(origin).getOAuthApi(env).completeAuthorization({
    request: authRequest,
    userId,
    metadata: { organizationId: organization.id },
    scope: input.scopes,
    props,
  });
}

/** The person declined: where to send the browser (the client's redirect URI with `error=access_denied`). */
export async function denyAuthorization(env: Env, request: Request, origin: string): Promise<{ redirectTo: string }> {
  const authRequest = await checkedRequest(env, request, origin);
  return { redirectTo: authorizationErrorRedirect(authRequest, 'access_denied', 'The person declined to connect this client.') };
}
