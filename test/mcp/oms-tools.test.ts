import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { COMPETITORS, importLines } from '../oms/read-helpers.ts';

describe('OMS read tools answer what the REST reads answer', () => {
  it('oms-metadata, oms-search, oms-pivot, oms-get and oms-provenance: structuredContent is the REST JSON, text its serialization', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    await importLines(org.key, COMPETITORS);
    const client = await connectMcpClient(org.key);
    const reads: [string, string, unknown][] = [
      ['oms-metadata', '/api/v1/oms/metadata', undefined],
      ['oms-search', '/api/v1/oms/objects/search', { type: 'company', query: 'analytics' }],
      ['oms-search', '/api/v1/oms/objects/search', { type: 'source', query: 'pricing', pageSize: 1 }],
      ['oms-pivot', '/api/v1/oms/objects/pivot', { type: 'company', key: 'acme.com', link: 'competitors' }],
      ['oms-get', '/api/v1/oms/objects/get', { type: 'company', key: 'https://www.acme.com/' }],
      ['oms-provenance', '/api/v1/oms/objects/provenance', { type: 'company', key: 'globex.com' }],
    ];
    for (const [tool, path, body] of reads) {
      const result = await client.callTool({ name: tool, arguments: (body ?? {}) as Record<string, unknown> });
      const rest = await call(path, body === undefined ? { key: org.key } : { key: org.key, body });
      expect(rest.status, path).toBe(200);
      const json = await rest.json<Record<string, unknown>>();
      expect(result.isError, tool).toBeFalsy();
      // Page tokens are signed afresh (they carry an expiry), so compare them by presence.
      const structured = result.structuredContent as Record<string, unknown>;
      if ('nextPageToken' in json) {
        expect(typeof structured.nextPageToken).toBe(typeof json.nextPageToken);
        delete json.nextPageToken;
        delete structured.nextPageToken;
      }
      expect(structured, tool).toEqual(json);
      expect(Object.keys(structured).length).toBeGreaterThan(0);
    }
    const text = await client.callTool({ name: 'oms-get', arguments: { type: 'company', key: 'acme.com' } });
    expect(JSON.parse((text.content as { text: string }[])[0]!.text)).toEqual(text.structuredContent);
    await client.close();
  });

  it('refuses through MCP as REST does: not_found, invalid_input, and no oms tools without oms:read', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    const missing = await client.callTool({ name: 'oms-get', arguments: { type: 'company', key: 'acme.com' } });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ error: 'not_found' });
    const badLink = await client.callTool({ name: 'oms-pivot', arguments: { type: 'company', key: 'acme.com', link: 'cites' } });
    const rest = await call('/api/v1/oms/objects/pivot', { key: org.key, body: { type: 'company', key: 'acme.com', link: 'cites' } });
    const { requestId: _id, ...restBody } = await rest.json<Record<string, unknown>>();
    expect(badLink.structuredContent).toMatchObject({ ...restBody, error: 'invalid_input' });
    await client.close();

    const narrow = await createOrganization({ scopes: ['commands'] });
    const narrowClient = await connectMcpClient(narrow.key);
    const names = (await narrowClient.listTools()).tools.map((tool) => tool.name);
    expect(names.filter((name) => name.startsWith('oms-'))).toEqual([]);
    const refused = await narrowClient.callTool({ name: 'oms-search', arguments: { type: 'company' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'access_denied' });
    await narrowClient.close();
    const full = await connectMcpClient(org.key);
    expect((await full.listTools()).tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['oms-metadata', 'oms-search', 'oms-pivot', 'oms-get', 'oms-provenance']),
    );
    await full.close();
  });
});
