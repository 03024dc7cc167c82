import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { call, createKey } from '../helpers/fixtures.ts';
import { connectMcpClient, mcpRpc } from '../helpers/mcp-client.ts';
import { connect, grantsOf, onboardedPerson, userOf } from './helpers.ts';

const toolNames = async (token: string) => {
  const client = await connectMcpClient(token);
  const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
  await client.close();
  return names;
};

describe('an OAuth access token on /api/mcp', () => {
  it('reaches exactly what an API key of the same organization with the consented scopes reaches', async () => {
    const person = await onboardedPerson();
    const { organizationId } = await userOf(person);
    const tokens = await connect(person, { scopes: ['commands', 'oms:read'] });
    expect(tokens.scope).toBe('commands oms:read');
    const key = await createKey(organizationId, ['commands', 'oms:read']);
    expect(await toolNames(tokens.access_token)).toEqual(await toolNames(key.key));

    const client = await connectMcpClient(tokens.access_token);
    // The organization the person consented for: its profile, as the key sees it over REST.
    const profile = await client.callTool({ name: 'get-profile', arguments: {} });
    expect(profile.isError).toBeFalsy();
    expect(profile.structuredContent).toEqual(await (await call('/api/v1/profile', { key: key.key })).json());
    const research = await client.callTool({ name: 'research', arguments: { topic: 'Acme Analytics pricing' } });
    expect(research.isError).toBeFalsy();
    expect((research.content as { text: string }[])[0]!.text).toMatch(/^# /);
    const search = await client.callTool({ name: 'oms-search', arguments: { type: 'company' } });
    expect(search.isError).toBeFalsy();
    await client.close();
  });

  it('enforces the scopes consented: without oms:read, no oms tools and oms-search is access_denied', async () => {
    const person = await onboardedPerson();
    const tokens = await connect(person, { scopes: ['commands'], scope: 'commands' });
    const client = await connectMcpClient(tokens.access_token);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('research');
    expect(names.filter((name) => name.startsWith('oms-'))).toEqual([]);
    const refused = await client.callTool({ name: 'oms-search', arguments: { type: 'company' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'access_denied' });
    expect((await client.callTool({ name: 'help', arguments: {} })).isError).toBeFalsy();
    await client.close();
  });

  it('acts for the organization chosen at consent, as oauth_<grant id>: requests it makes name the grant', async () => {
    const person = await onboardedPerson();
    const { userId } = await userOf(person);
    const tokens = await connect(person, { scopes: ['commands', 'oms:write'], scope: 'commands oms:write' });
    const [grantId] = await grantsOf(userId);
    const client = await connectMcpClient(tokens.access_token);
    const requested = await client.callTool({
      name: 'action-request',
      arguments: { action: 'upsert_object', params: { type: 'company', key: 'initech.example', properties: { name: 'Initech' } } },
    });
    expect(requested.isError).toBeFalsy();
    const request = requested.structuredContent as unknown as ApprovalRequestView;
    expect(request.requestedBy).toEqual({ keyId: `oauth_${grantId}` });
    // The person approves it in the dashboard's name (their user id), which is not the grant.
    const row = await env.DB.prepare('SELECT organization_id AS organizationId FROM approval_requests WHERE id = ?').bind(request.id).first<{ organizationId: string }>();
    expect(row!.organizationId).toBe((await userOf(person)).organizationId);
    await client.close();
  });

  it('keeps the REST API key-only: the token is 401 on /api/v1', async () => {
    const person = await onboardedPerson();
    const tokens = await connect(person);
    const response = await call('/api/v1/commands', { key: tokens.access_token });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('is accepted only on the origin that issued it (its audience)', async () => {
    const person = await onboardedPerson();
    const tokens = await connect(person);
    expect((await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: tokens.access_token })).status).toBe(200);
    const elsewhere = await exports.default.fetch(
      new Request('http://localhost/api/mcp', {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens.access_token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get('WWW-Authenticate')).toContain('resource_metadata="http://localhost/.well-known/oauth-protected-resource/api/mcp"');
  });

  it('refreshes: the refresh token gives a new access token that works, with the same scopes', async () => {
    const person = await onboardedPerson();
    const tokens = await connect(person);
    const response = await exports.default.fetch(
      new Request('https://recon.test/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.request.client.client_id }).toString(),
      }),
    );
    expect(response.status).toBe(200);
    const refreshed = await response.json<{ access_token: string; scope: string }>();
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.scope).toBe('commands oms:read');
    expect((await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: refreshed.access_token })).status).toBe(200);
  });
});
