import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

describe('MCP tools and key scopes, as REST has them', () => {
  it.each([['oms:read'], ['oms:approve']] as const)('a key with only %s lists and calls action-list, as GET /api/v1/oms/actions lets it', async (scope) => {
    const org = await createOrganization({ scopes: [scope] });
    expect((await call('/api/v1/oms/actions', { key: org.key })).status).toBe(200);
    const client = await connectMcpClient(org.key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('action-list');
    const result = await client.callTool({ name: 'action-list', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ requests: [] });
    await client.close();
  });

  it.each([
    ['run-status', 'commands'],
    ['import-objects', 'oms:write'],
    ['research', 'commands'],
  ] as const)('refuses %s without the %s scope as access_denied before reading its (missing) arguments', async (tool, scope) => {
    const org = await createOrganization({ scopes: ['oms:read'] });
    const client = await connectMcpClient(org.key);
    const result = await client.callTool({ name: tool, arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'access_denied' });
    expect(String((result.structuredContent as { message: string }).message)).toContain(`'${scope}'`);
    await client.close();
  });
});
