import { describe, expect, it } from 'vitest';
import { mcpRpc } from '../helpers/mcp-client.ts';
import { ORIGIN, workerFetch } from './helpers.ts';
import { clientAddress } from '../helpers/fixtures.ts';

const METADATA_URL = `${ORIGIN}/.well-known/oauth-protected-resource/api/mcp`;

describe('OAuth discovery for MCP clients', () => {
  it('answers /api/mcp without credentials with 401 and a Bearer challenge naming the resource metadata and scopes', async () => {
    const response = await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toBe(`Bearer realm="recon", resource_metadata="${METADATA_URL}", scope="commands oms:read"`);
    // Browser clients can read it through CORS.
    const preflightless = await workerFetch('/api/mcp', { method: 'POST', headers: { Origin: 'http://localhost:6274', 'Content-Type': 'application/json' }, body: '{}' });
    expect(preflightless.headers.get('Access-Control-Expose-Headers')).toContain('WWW-Authenticate');
  });

  it('keeps the same challenge for an unknown API key and an unknown OAuth token', async () => {
    for (const key of ['rk_live_0000000000000000000000000000000000000000000', 'usr_x:AAAAAAAAAAAAAAAA:BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB']) {
      const response = await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key, headers: { 'CF-Connecting-IP': clientAddress() } });
      expect(response.status, key).toBe(401);
      expect(response.headers.get('WWW-Authenticate'), key).toContain(`resource_metadata="${METADATA_URL}"`);
      const body = await response.json<{ error: { data: { error: string } } }>();
      expect(body.error.data.error).toBe('unauthorized');
    }
  });

  it('serves the protected resource metadata (RFC 9728) at the path-inserted and the bare well-known address', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await workerFetch(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: `${ORIGIN}/api/mcp`,
        authorization_servers: [ORIGIN],
        scopes_supported: ['commands', 'oms:read'],
        bearer_methods_supported: ['header'],
        resource_name: 'Recon MCP server',
      });
    }
  });

  it('serves the authorization server metadata (RFC 8414): the consent page, token and registration endpoints, S256, no oms:approve', async () => {
    const response = await workerFetch('/.well-known/oauth-authorization-server');
    expect(response.status).toBe(200);
    const metadata = await response.json<Record<string, unknown>>();
    expect(metadata).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/dashboard/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['commands', 'oms:read', 'oms:write'],
    });
    expect(metadata.protected_resources).toEqual([`${ORIGIN}/api/mcp`]);
  });

  it('answers only on MCP_ALLOWED_HOSTS: another host gets 403 and no metadata', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-authorization-server', '/oauth/token']) {
      const response = await workerFetch(`https://evil.example${path}`);
      expect(response.status, path).toBe(403);
      expect(await response.json<{ error: string }>()).toMatchObject({ error: 'access_denied' });
    }
  });
});
