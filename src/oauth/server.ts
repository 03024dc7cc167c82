import { OAuthAuthorizationServer } from '@cloudflare/workers-oauth-provider';
import type { Scope } from '../ground/api-key.ts';
import { BoundedMap } from '../ground/bounded-map.ts';

/**
 * Recon's OAuth 2.1 authorization server for MCP clients that cannot send an API key (Claude's and
 * ChatGPT's connectors): Cloudflare's `@cloudflare/workers-oauth-provider` serves the authorization
 * server metadata (RFC 8414), dynamic client registration (RFC 7591), the token endpoint (code
 * with PKCE S256, refresh with rotation, revocation) and keeps clients, grants and tokens in the
 * OAUTH_KV namespace (hashes and encrypted props only). Recon owns the authorize step: the
 * dashboard's sign-in and consent page (src/dashboard/pages/consent.tsx).
 *
 * The issuer is the origin a request arrived on (the doors accept only hosts in
 * MCP_ALLOWED_HOSTS), and the one protected resource is that origin's `/api/mcp`, so `npm run dev`
 * on any port, the tests and a deployment each get their own issuer with no setting to keep in
 * step; a token is accepted only on the origin that issued it (its audience, RFC 8707).
 */

/** Where the dashboard's consent page answers (sign-in first). */
export const AUTHORIZE_PATH = '/dashboard/oauth/authorize';
/** Served by the library: code and refresh token exchanges, and revocation (RFC 7009). */
export const TOKEN_PATH = '/oauth/token';
/** Served by the library: dynamic client registration (RFC 7591). */
export const REGISTER_PATH = '/oauth/register';
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
/** The protected resource: the MCP door. */
export const MCP_RESOURCE_PATH = '/api/mcp';

/**
 * The scopes an OAuth client can be granted: every scope but `oms:approve`. Approving a requested
 * change is a person's decision, made in the dashboard, never delegated to a connected client.
 */
export const OAUTH_SCOPES = ['commands', 'oms:read', 'oms:write'] as const satisfies readonly Scope[];
export type OAuthScope = (typeof OAUTH_SCOPES)[number];
/** What the consent page proposes when the client asks for nothing it can have, and what MCP clients are told to ask for. */
export const DEFAULT_OAUTH_SCOPES: readonly OAuthScope[] = ['commands', 'oms:read'];

/** An access token lives an hour; the client refreshes it (the refresh token rotates on use). */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
/** A grant lasts 30 days from consent, however often it is refreshed; then the person consents again. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
/** A dynamically registered client that is never used is forgotten after 90 days (in use, it is renewed). */
export const CLIENT_REGISTRATION_TTL_SECONDS = 90 * 24 * 60 * 60;

/** What Recon keeps in a grant's (encrypted) props: the organization the person chose. */
export interface GrantProps {
  organizationId: string;
}

/** The canonical resource (token audience) of `origin`'s MCP door. */
export function resourceOf(origin: string): string {
  return `${origin}${MCP_RESOURCE_PATH}`;
}

/** Where the protected resource metadata of `origin`'s MCP door is (RFC 9728 §3.1: the well-known prefix, then the path). */
export function protectedResourceMetadataUrl(origin: string): string {
  return `${origin}${PROTECTED_RESOURCE_METADATA_PATH}${MCP_RESOURCE_PATH}`;
}

/** The RFC 9728 document of `origin`'s MCP door: which issuer to ask, and the scopes to ask for first. */
export function protectedResourceMetadata(origin: string) {
  return {
    resource: resourceOf(origin),
    authorization_servers: [origin],
    scopes_supported: [...DEFAULT_OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Recon MCP server',
  };
}

/**
 * The `WWW-Authenticate` value of a 401 from the MCP door: Bearer, with where the resource
 * metadata is and the scopes to request (RFC 6750, RFC 9728 §5.1, MCP authorization).
 */
export function bearerChallenge(origin: string): string {
  return `Bearer realm="recon", resource_metadata="${protectedResourceMetadataUrl(origin)}", scope="${DEFAULT_OAUTH_SCOPES.join(' ')}"`;
}

/** Origins an isolate keeps a server for; a deployment has one or two, `npm run dev` a few. */
const MAX_SERVERS = 16;
const servers = new BoundedMap<string, OAuthAuthorizationServer<Env>>({ max: MAX_SERVERS });

/**
 * The authorization server whose issuer is `origin` (scheme://host[:port], as `URL.origin` gives
 * it; the caller has checked the host against MCP_ALLOWED_HOSTS). Built once per origin and
 * isolate. The library refuses plain http except on loopback hosts.
 */
export function authorizationServerFor(origin: string): OAuthAuthorizationServer<Env> {
  let server = servers.get(origin);
  if (!server) {
    server = new OAuthAuthorizationServer<Env>({
      issuer: origin,
      resources: [resourceOf(origin)],
      authorizeEndpoint: AUTHORIZE_PATH,
      tokenEndpoint: TOKEN_PATH,
      clientRegistrationEndpoint: REGISTER_PATH,
      scopesSupported: [...OAUTH_SCOPES],
      accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTTL: REFRESH_TOKEN_TTL_SECONDS,
      clientRegistrationTTL: CLIENT_REGISTRATION_TTL_SECONDS,
    });
    servers.set(origin, server);
  }
  return server;
}
