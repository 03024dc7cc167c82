import { DomainError } from '../ground/errors.ts';
import { listOrganizationsOfUser } from '../db/memberships.ts';
import { authorizationServerFor } from './server.ts';
import { MAX_CONSENT_ORGANIZATIONS } from './consent.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * A person's connected MCP clients: the OAuth grants they consented to, which they can see and
 * revoke in the dashboard. Revoking deletes the grant and its tokens: the client's next request
 * is 401 and it must ask the person again.
 */

/** Grants a page lists: a person connects a handful of clients. */
export const MAX_LISTED_CONNECTIONS = 100;

export interface Connection {
  /** The grant id (also the `oauth_<id>` its requests carry as keyId). */
  id: string;
  /** The client's own name (self-asserted at registration), or its client id. */
  clientName: string;
  /** The organization it acts for, or null when the person no longer belongs to it (its tokens are refused). */
  organization: { id: string; name: string } | null;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
}

/** The grants of `userId`, newest first. */
export async function listConnections(env: Env, db: Db, origin: string, userId: string): Promise<Connection[]> {
  const helpers = authorizationServerFor(origin).getOAuthApi(env);
  const { items } = await helpers.listUserGrants(userId, { limit: MAX_LISTED_CONNECTIONS });
  const organizations = new Map((await listOrganizationsOfUser(db, userId, MAX_CONSENT_ORGANIZATIONS)).map((org) => [org.id, org]));
  const names = new Map<string, string>();
  for (const clientId of new Set(items.map((grant) => grant.clientId))) {
    names.set(clientId, (await helpers.lookupClient(clientId))?.clientName ?? clientId);
  }
  return items
    .map((grant) => {
      const organization = organizations.get((grant.metadata as { organizationId?: string } | null)?.organizationId ?? '');
      return {
        id: grant.id,
        clientName: names.get(grant.clientId) ?? grant.clientId,
        organization: organization ? { id: organization.id, name: organization.name } : null,
        scopes: grant.scope,
        createdAt: new Date(grant.createdAt * 1000).toISOString(),
        expiresAt: grant.expiresAt ? new Date(grant.expiresAt * 1000).toISOString() : null,
      };
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

const GRANT_ID = /^[A-Za-z0-9_-]{16}$/;

/** Revokes one of `userId`'s grants; 404 for anything else (malformed, another person's, gone). */
export async function revokeConnection(env: Env, db: Db, origin: string, userId: string, grantId: string): Promise<void> {
  const notFound = new DomainError('not_found', 'That connection does not exist (it may have been revoked already).');
  if (!GRANT_ID.test(grantId)) throw notFound;
  const connections = await listConnections(env, db, origin, userId);
  if (!connections.some((connection) => connection.id === grantId)) throw notFound;
  await authorizationServerFor(origin).getOAuthApi(env).revokeGrant(grantId, userId);
}
