import { describe, expect, it } from 'vitest';
import { TOOLS_BY_NAME } from '../../src/mcp/tools/index.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { fixturePage } from '../helpers/fixture-pages.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

describe('add-sources: the same operation as POST /api/v1/oms/sources', () => {
  it('answers what REST answers for the same URLs, as structured content and as its JSON text', async () => {
    const viaMcp = await createOrganization();
    const viaRest = await createOrganization();
    const urls = [fixturePage('/plain'), fixturePage('/json'), fixturePage('/loop-a')];
    const client = await connectMcpClient(viaMcp.key);
    const result = await client.callTool({ name: 'add-sources', arguments: { urls } });
    const rest = await (await call('/api/v1/oms/sources', { key: viaRest.key, body: { urls } })).json();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(rest) }]);
    expect(result.structuredContent).toMatchObject({ results: [{ status: 'imported' }, { status: 'failed' }, { status: 'failed' }] });
    await client.close();
  });

  it('refuses a URL that is not public with the same details as REST, as a tool error', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    // A loopback address the policy refuses: even a broken guard could send nothing past loopback.
    const url = fixturePage('/plain').replace('127.0.0.1', '127.0.0.2');
    const result = await client.callTool({ name: 'add-sources', arguments: { urls: [url] } });
    const rest = await call('/api/v1/oms/sources', { key: org.key, body: { urls: [url] } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: 'invalid_input',
      details: [{ path: 'urls.0', message: expect.stringContaining('urls.0 must point at a public address, not 127.0.0.2 (a loopback address)') }],
    });
    const { requestId: _, ...restError } = await rest.json<Record<string, unknown>>();
    expect(result.structuredContent).toMatchObject(restError);
    await client.close();
  });

  it('is listed, open-world, with its input schema, to keys with oms:write only', async () => {
    const writer = await createOrganization();
    const reader = await createOrganization({ scopes: ['commands', 'oms:read'] });
    const client = await connectMcpClient(writer.key);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'add-sources');
    expect(tool).toMatchObject({
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      inputSchema: { type: 'object', required: ['urls'], additionalProperties: false, properties: { urls: { type: 'array', minItems: 1, maxItems: 20 } } },
    });
    await client.close();
    // Each call may fetch 20 pages: it spends from the commands budget, as over REST.
    expect(TOOLS_BY_NAME.get('add-sources')!.bucket).toBe('commands');
    const readerClient = await connectMcpClient(reader.key);
    expect((await readerClient.listTools()).tools.map((t) => t.name)).not.toContain('add-sources');
    await readerClient.close();
  });
});
