import { describe, expect, it } from 'vitest';
import { mcpRpc } from '../helpers/mcp-client.ts';
import { connect, grantsOf, onboardedPerson, userOf } from './helpers.ts';

const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

describe('connected MCP clients in the dashboard', () => {
  it('lists the person’s grants with client, organization and scopes, and revokes one at once', async () => {
    const person = await onboardedPerson('Initech Labs');
    const { userId } = await userOf(person);
    const tokens = await connect(person, { scopes: ['commands', 'oms:write'] });
    const [grantId] = await grantsOf(userId);

    const page = await person.get('/dashboard/settings/connections');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<td>Test MCP client<\/td><td>Initech Labs<\/td><td>commands, oms:write<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td>/);
    expect(html).toContain(`action="/dashboard/settings/connections/${grantId}/revoke"`);
    expect(html).toContain('aria-current="page">MCP clients</a>');

    const revoked = await person.post(`/dashboard/settings/connections/${grantId}/revoke`);
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toContain('You have not connected any MCP client.');
    expect(await grantsOf(userId)).toEqual([]);
    expect((await mcpRpc(TOOLS_LIST, { key: tokens.access_token })).status).toBe(401);
  });

  it('never revokes another person’s grant: 404, and their token keeps working', async () => {
    const owner = await onboardedPerson();
    const { userId } = await userOf(owner);
    const tokens = await connect(owner);
    const [grantId] = await grantsOf(userId);
    const other = await onboardedPerson();
    for (const id of [grantId!, 'not-a-grant-id', '../../etc']) {
      const response = await other.post(`/dashboard/settings/connections/${encodeURIComponent(id)}/revoke`);
      expect(response.status, id).toBe(404);
    }
    expect(await grantsOf(userId)).toEqual([grantId]);
    expect((await mcpRpc(TOOLS_LIST, { key: tokens.access_token })).status).toBe(200);
  });
});
