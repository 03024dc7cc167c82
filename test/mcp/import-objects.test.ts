import { describe, expect, it } from 'vitest';
import { IMPORT_LIMITS } from '../../src/oms/import.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient, mcpRpc } from '../helpers/mcp-client.ts';

const source = (i: number) =>
  JSON.stringify({
    type: 'source',
    key: `https://example.com/page-${i}`,
    properties: { title: `Page ${i}`, publishedAt: '2026-05-01', content: `Sentence number ${i} about pricing.` },
  });

async function sourceCount(key: string): Promise<number> {
  // Importing the same line again answers unchanged when it is stored: a read through the core.
  const answer = await call('/api/v1/oms/objects/import', { key, method: 'POST', rawBody: source(0), headers: { 'Content-Type': 'application/x-ndjson' } });
  return (await answer.json<{ unchanged: number }>()).unchanged;
}

describe('import-objects: small NDJSON imports over MCP, same core and limits as REST', () => {
  it('answers what REST answers for the same lines, bad lines reported and skipped', async () => {
    const viaMcp = await createOrganization();
    const viaRest = await createOrganization();
    const ndjson = [source(1), '{"type":"source","key":"not a url"}', source(2), 'not json'].join('\n');
    const client = await connectMcpClient(viaMcp.key);
    const result = await client.callTool({ name: 'import-objects', arguments: { ndjson } });
    const rest = await call('/api/v1/oms/objects/import', { key: viaRest.key, method: 'POST', rawBody: ndjson, headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await rest.json());
    expect(result.structuredContent).toMatchObject({ imported: 2, failed: 2 });
    await client.close();
  });

  it(`refuses more than ${IMPORT_LIMITS.lines} lines whole, as REST does, and writes nothing`, async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    const ndjson = Array.from({ length: IMPORT_LIMITS.lines + 1 }, () => '{}').join('\n');
    const result = await client.callTool({ name: 'import-objects', arguments: { ndjson } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'payload_too_large' });
    expect(await sourceCount(org.key)).toBe(0);
    await client.close();
  });

  it('refuses a request over the MCP body limit (256 KiB) with 413, naming the REST import for more', async () => {
    const org = await createOrganization();
    const lines = Array.from({ length: 300 }, (_, i) => source(i).replace('Sentence', 'x'.repeat(1000)));
    const response = await mcpRpc(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'import-objects', arguments: { ndjson: lines.join('\n') } } },
      { key: org.key },
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { data: { error: 'payload_too_large' } } });
    expect(await sourceCount(org.key)).toBe(0);
  });

  it('needs the oms:write scope: not listed without it, and refused with the scope named', async () => {
    const org = await createOrganization({ scopes: ['commands'] });
    const client = await connectMcpClient(org.key);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['get-profile', 'set-profile']));
    expect(names).not.toContain('import-objects');
    const result = await client.callTool({ name: 'import-objects', arguments: { ndjson: source(1) } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'access_denied', message: expect.stringContaining("'oms:write' scope") });
    await client.close();
  });
});
