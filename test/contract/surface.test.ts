import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

/**
 * The public surface, pinned whole: the OpenAPI document and the MCP tools/list a key with every
 * scope sees. Both are derived from the operations' declarations (src/operations/); a change to either
 * shows here as a diff of the files beside this test, to be read and accepted (`vitest -u`) on purpose.
 */
describe('the public surface', () => {
  it('serves the pinned OpenAPI document', async () => {
    const response = await call('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    await expect(`${JSON.stringify(await response.json(), null, 2)}\n`).toMatchFileSnapshot('./surface/openapi.json');
  });

  it('lists the pinned MCP tools', async () => {
    const { key } = await createOrganization();
    const client = await connectMcpClient(key);
    const { tools } = await client.listTools();
    await client.close();
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot('./surface/tools-list.json');
  });
});
