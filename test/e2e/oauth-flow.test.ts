/**
 * End to end, OAuth only: the official MCP SDK client (its OAuthClientProvider support) against the
 * real Worker under wrangler's local runtime, with no API key anywhere. The client discovers the
 * authorization server from the 401, registers itself, and sends "the browser" to the authorize
 * URL; the browser here is fetch with a cookie jar: it is sent to sign in, signs up through the
 * dashboard form, finishes onboarding, posts the consent form, and follows the redirect to the
 * client's loopback redirect URI, where a real HTTP listener captures the code. The client then
 * exchanges it and calls `research` with the OAuth token alone.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from './dev-server.ts';

let server: DevServer;
let callback: Server;
let redirectUri: string;
const codes: URLSearchParams[] = [];

beforeAll(async () => {
  server = await startDevServer();
  // The client's loopback redirect URI (RFC 8252): what a desktop MCP client listens on.
  callback = createServer((request, response) => {
    codes.push(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams);
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
});

afterAll(async () => {
  await new Promise((resolve) => callback?.close(resolve));
  await server?.stop();
});

/** An MCP client's OAuth state, in memory: what a desktop client would keep in its settings. */
class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  readonly sentState = crypto.randomUUID();

  constructor(readonly redirectUrl: string) {}

  state() {
    return this.sentState;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Recon e2e client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
}

/** fetch with a cookie jar, no automatic redirects, and forms sent as a browser on this site sends them. */
class CookieBrowser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly origin: string) {}

  async fetch(url: string, form?: Record<string, string | string[]>): Promise<Response> {
    const headers = new Headers();
    if (this.cookies.size) headers.set('Cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    let body: string | undefined;
    if (form) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(form)) for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
      body = params.toString();
      headers.set('Content-Type', 'application/x-www-form-urlencoded');
      headers.set('Origin', this.origin);
      headers.set('Sec-Fetch-Site', 'same-origin');
    }
    const response = await fetch(new URL(url, this.origin), { method: form ? 'POST' : 'GET', headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /Max-Age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

const PROFILE = {
  companyName: 'Initech Labs',
  domain: 'initech.example',
  offering: 'Workflow software for finance teams',
  'icp.industries': 'Financial services',
  'icp.companySizes': '51-200',
  'icp.regions': 'Europe',
  'icp.personas': 'CFO',
  competitors: '',
  valueProps: '',
};

describe('an MCP client with no key, only OAuth', () => {
  it('discovers, registers, sends the person to sign in and consent, gets a token and calls research', { timeout: 120_000 }, async () => {
    const mcpUrl = new URL(`${server.url}/api/mcp`);
    const provider = new MemoryOAuthProvider(redirectUri);
    const first = new Client({ name: 'recon-e2e-oauth', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);

    // The SDK found the authorization server from the 401 and registered a public client.
    expect(provider.client?.client_id).toBeTruthy();
    const authorizationUrl = provider.authorizationUrl!;
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${server.url}/dashboard/oauth/authorize`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${server.url}/api/mcp`);
    expect(authorizationUrl.searchParams.get('scope')).toBe('commands oms:read');

    // The browser: not signed in, so to sign-in with the way back; the person signs up instead.
    const browser = new CookieBrowser(server.url);
    const toSignIn = await browser.fetch(authorizationUrl.href);
    expect(toSignIn.status).toBe(303);
    const signIn = new URL(toSignIn.headers.get('Location')!, server.url);
    expect(signIn.pathname).toBe('/dashboard/sign-in');
    const back = signIn.searchParams.get('next')!;
    expect(back).toBe(`${authorizationUrl.pathname}${authorizationUrl.search}`);
    const email = `oauth-${Date.now()}@example.com`;
    const signedUp = await browser.fetch('/dashboard/sign-up', { organizationName: 'Initech Labs', name: 'Ada Lovelace', email, password: 'correct horse battery staple' });
    expect(signedUp.status).toBe(303);
    expect((await browser.fetch('/dashboard/onboarding', PROFILE)).status).toBe(303);

    // The consent page: the person's organization and the proposed scopes.
    const page = await browser.fetch(back);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Recon e2e client');
    const organization = /<input type="radio" name="organization" value="(org_[^"]+)"[^>]*checked/.exec(html)?.[1];
    expect(organization).toBeTruthy();
    const action = /<form method="post" action="(\/dashboard\/oauth\/[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    expect(action).toBe(back);

    const allowed = await browser.fetch(action, { decision: 'allow', organization: organization!, scopes: ['commands', 'oms:read'] });
    expect(allowed.status).toBe(303);
    const redirect = allowed.headers.get('Location')!;
    expect(redirect.startsWith(`${redirectUri}?`)).toBe(true);

    // The browser lands on the client's loopback listener, which hands the code to the client.
    expect((await fetch(redirect)).status).toBe(200);
    const received = codes.at(-1)!;
    expect(received.get('state')).toBe(provider.sentState);
    expect(received.get('iss')).toBe(server.url);
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await transport.finishAuth(received.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^usr_[^:]+:[^:]+:[^:]+$/);
    expect(provider.saved?.scope).toBe('commands oms:read');

    // Only the OAuth token from here on.
    const client = new Client({ name: 'recon-e2e-oauth', version: '1.0.0' });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['research', 'oms-search']));
    expect(names).not.toContain('action-request');
    const research = await client.callTool({ name: 'research', arguments: { topic: 'finance workflow pricing' } });
    expect(research.isError).toBeFalsy();
    expect((research.content as { type: string; text: string }[])[0]!.text).toMatch(/^# .*finance workflow pricing/);
    await client.close();

    // The key-less request really carried the token: the same call without it is refused with the challenge.
    const bare = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('WWW-Authenticate')).toContain(`resource_metadata="${server.url}/.well-known/oauth-protected-resource/api/mcp"`);
  });
});
