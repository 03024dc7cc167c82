/**
 * The OAuth client side of the Workers-pool tests: register a client (DCR), build a PKCE
 * authorization request, consent in a signed-in Browser, exchange the code. Everything goes
 * through the Worker's own endpoints, as an MCP client would.
 */
import { env, exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { Browser, finishedProfileForm, signUp } from '../dashboard/browser.ts';
import { clientAddress, randomClientAddress } from '../helpers/fixtures.ts';

export const ORIGIN = 'https://recon.test';
export const REDIRECT_URI = 'http://127.0.0.1:33418/callback';

export interface RegisteredClient {
  client_id: string;
  redirect_uris: string[];
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A PKCE verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

export function workerFetch(path: string, init: RequestInit & { address?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('CF-Connecting-IP', init.address ?? clientAddress());
  return exports.default.fetch(new Request(path.startsWith('http') ? path : `${ORIGIN}${path}`, { ...init, headers, redirect: 'manual' }));
}

/** A public client (PKCE, no secret), registered through dynamic client registration. */
export async function registerClient(redirectUris: string[] = [REDIRECT_URI], name = 'Test MCP client'): Promise<RegisteredClient> {
  const response = await workerFetch('/oauth/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
    address: randomClientAddress(),
  });
  expect(response.status).toBe(201);
  return response.json<RegisteredClient>();
}

export interface AuthorizationRequest {
  client: RegisteredClient;
  verifier: string;
  state: string;
  /** The path and query of the authorize URL on this Worker. */
  path: string;
}

export async function authorizationRequest(
  client: RegisteredClient,
  options: { scope?: string; redirectUri?: string; withoutPkce?: boolean; resource?: string } = {},
): Promise<AuthorizationRequest> {
  const { verifier, challenge } = await pkce();
  const state = crypto.randomUUID();
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: options.redirectUri ?? client.redirect_uris[0]!,
    state,
    resource: options.resource ?? `${ORIGIN}/api/mcp`,
  });
  if (options.scope !== undefined) params.set('scope', options.scope);
  if (!options.withoutPkce) {
    params.set('code_challenge', challenge);
    params.set('code_challenge_method', 'S256');
  }
  return { client, verifier, state, path: `/dashboard/oauth/authorize?${params}` };
}

/** A signed-up person whose organization finished onboarding (so commands run). */
export async function onboardedPerson(organizationName = 'Initech Labs'): Promise<Browser> {
  const browser = new Browser();
  await signUp(browser, { organizationName });
  expect((await browser.post('/dashboard/onboarding', finishedProfileForm())).status).toBe(303);
  return browser;
}

/** The user id of the browser's session. */
export async function userOf(browser: Browser): Promise<{ userId: string; organizationId: string }> {
  const token = browser.sessionToken ?? browser.cookies.get('recon_session');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return (await env.DB.prepare('SELECT user_id AS userId, organization_id AS organizationId FROM sessions WHERE token_hash = ?').bind(hash).first<{
    userId: string;
    organizationId: string;
  }>())!;
}

/** Posts the consent form (Allow by default) and answers the redirect's URL. */
export async function consent(browser: Browser, request: AuthorizationRequest, form: Record<string, string | string[]>): Promise<Response> {
  return browser.post(request.path, { decision: 'allow', ...form });
}

export async function exchangeCode(request: AuthorizationRequest, code: string): Promise<Response> {
  return workerFetch('/oauth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: request.client.redirect_uris[0]!,
      client_id: request.client.client_id,
      code_verifier: request.verifier,
      resource: `${ORIGIN}/api/mcp`,
    }).toString(),
  });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
  expires_in: number;
}

/**
 * The whole flow for a signed-in, onboarded person: register, consent with `form` (default: the
 * proposed organization and scopes), exchange the code. Answers the tokens.
 */
export async function connect(browser: Browser, options: { scopes?: string[]; organization?: string; scope?: string } = {}): Promise<Tokens & { request: AuthorizationRequest }> {
  const client = await registerClient();
  const request = await authorizationRequest(client, { scope: options.scope ?? 'commands oms:read' });
  const { organizationId } = await userOf(browser);
  const response = await consent(browser, request, { organization: options.organization ?? organizationId, scopes: options.scopes ?? ['commands', 'oms:read'] });
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('Location')!);
  const code = location.searchParams.get('code');
  expect(code).toBeTruthy();
  const tokens = await exchangeCode(request, code!);
  expect(tokens.status).toBe(200);
  return { ...(await tokens.json<Tokens>()), request };
}

/** Every grant stored for `userId` (KV keys `grant:<user>:<grant>`). */
export async function grantsOf(userId: string): Promise<string[]> {
  const { keys } = await env.OAUTH_KV.list({ prefix: `grant:${userId}:` });
  return keys.map((key) => key.name.split(':')[2]!);
}
