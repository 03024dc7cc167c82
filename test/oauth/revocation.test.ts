import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { authorizationServerFor } from '../../src/oauth/server.ts';
import { clientAddress } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';
import { connect, grantsOf, onboardedPerson, userOf } from './helpers.ts';

const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

async function expectRefused(token: string, message: RegExp): Promise<void> {
  const response = await mcpRpc(TOOLS_LIST, { key: token, headers: { 'CF-Connecting-IP': clientAddress() } });
  expect(response.status).toBe(401);
  expect(response.headers.get('WWW-Authenticate')).toContain('resource_metadata="https://recon.test/.well-known/oauth-protected-resource/api/mcp"');
  const body = await response.json<{ error: { data: { error: string; message: string } } }>();
  expect(body.error.data.error).toBe('unauthorized');
  expect(body.error.data.message).toMatch(message);
}

describe('revoked OAuth access', () => {
  it('refuses the tokens of a revoked grant at once', async () => {
    const person = await onboardedPerson();
    const { userId } = await userOf(person);
    const tokens = await connect(person);
    expect((await mcpRpc(TOOLS_LIST, { key: tokens.access_token })).status).toBe(200);
    const [grantId] = await grantsOf(userId);
    await authorizationServerFor('https://recon.test').getOAuthApi(env).revokeGrant(grantId!, userId);
    await expectRefused(tokens.access_token, /unknown, expired or revoked/);
    // Nor can the client get a new access token with its refresh token.
    const refresh = await exports.default.fetch(
      new Request('https://recon.test/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.request.client.client_id }).toString(),
      }),
    );
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an access token the client revoked itself (RFC 7009)', async () => {
    const person = await onboardedPerson();
    const tokens = await connect(person);
    const revoked = await exports.default.fetch(
      new Request('https://recon.test/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.access_token, client_id: tokens.request.client.client_id }).toString(),
      }),
    );
    expect(revoked.status).toBe(200);
    await expectRefused(tokens.access_token, /unknown, expired or revoked/);
  });

  it('refuses the token of a person no longer in the organization it was granted for', async () => {
    const person = await onboardedPerson();
    const { userId, organizationId } = await userOf(person);
    const tokens = await connect(person);
    await env.DB.prepare('DELETE FROM sessions WHERE user_id = ?').bind(userId).run();
    await env.DB.prepare('DELETE FROM memberships WHERE user_id = ? AND organization_id = ?').bind(userId, organizationId).run();
    await expectRefused(tokens.access_token, /no longer belongs to the organization/);
  });
});
