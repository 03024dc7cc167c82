import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it('keeps a short plain id from the client (up to 64 letters, digits, _, - or =), in the header and the error body', async () => {
    const id = `req_${'a'.repeat(58)}-=`;
    expect(id).toHaveLength(64);
    const response = await call('/api/v1/commands', { headers: { 'X-Request-Id': id } });
    expect(response.status).toBe(401);
    expect(response.headers.get('X-Request-Id')).toBe(id);
    expect(await response.json()).toMatchObject({ error: 'unauthorized', requestId: id });
  });

  it.each([
    ['65 characters', 'a'.repeat(65)],
    ['255 characters', 'b'.repeat(255)],
    ['markup', '<script>alert(1)</script>'],
    ['spaces', 'req 1'],
    ['quotes and braces', '"},{"x":1'],
    ['a dot', 'req.1'],
  ])('replaces an id with %s by a generated one', async (_, id) => {
    const response = await call('/healthz', { headers: { 'X-Request-Id': id } });
    expect(response.headers.get('X-Request-Id')).toMatch(UUID);
  });

  it('uses the generated id everywhere the request id appears: REST error bodies and MCP tool errors', async () => {
    const org = await createOrganization({ profile: 'none' });
    const tooLong = 'c'.repeat(100);
    const rest = await call('/api/v1/commands/research', { key: org.key, body: { topic: 'pricing' }, headers: { 'X-Request-Id': tooLong } });
    const restId = rest.headers.get('X-Request-Id')!;
    expect(restId).toMatch(UUID);
    expect(await rest.json()).toMatchObject({ error: 'onboarding_required', requestId: restId });

    const mcp = await mcpRpc(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'research', arguments: { topic: 'pricing' } } },
      { key: org.key, headers: { 'X-Request-Id': tooLong } },
    );
    const mcpId = mcp.headers.get('X-Request-Id')!;
    expect(mcpId).toMatch(UUID);
    const body = await mcp.json<{ result: { structuredContent: { requestId: string } } }>();
    expect(body.result.structuredContent).toMatchObject({ error: 'onboarding_required', requestId: mcpId });
  });
});
