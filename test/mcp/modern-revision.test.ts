import { describe, expect, it } from 'vitest';
import { createOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient, mcpRpc } from '../helpers/mcp-client.ts';
import { connectModernMcpClient, modernRpc } from '../helpers/modern-mcp-client.ts';

describe('the 2026-07-28 revision beside 2025 on /api/mcp', () => {
  it('a v2 client negotiates 2026-07-28 (no fallback) and sees the same tools, prompts and answers as a 2025 client', async () => {
    const org = await createOrganization();
    const modern = await connectModernMcpClient(org.key);
    const legacy = await connectMcpClient(org.key);
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(legacy.getServerVersion()?.name).toBe('recon');

    const modernTools = (await modern.listTools()).tools.map((tool) => tool.name);
    expect(modernTools).toEqual((await legacy.listTools()).tools.map((tool) => tool.name));
    expect((await modern.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual((await legacy.listPrompts()).prompts.map((prompt) => prompt.name));

    const modernHelp = await modern.callTool({ name: 'help', arguments: {} });
    const legacyHelp = await legacy.callTool({ name: 'help', arguments: {} });
    expect(modernHelp.content).toEqual(legacyHelp.content);
    await Promise.all([modern.close(), legacy.close()]);
  });

  it('keeps our refusals: a bad argument is the same tool error under both revisions', async () => {
    const org = await createOrganization();
    const modern = await connectModernMcpClient(org.key);
    const legacy = await connectMcpClient(org.key);
    const args = { name: 'oms-get', arguments: { type: 'spaceship', key: 'x' } };
    const modernAnswer = await modern.callTool(args);
    const legacyAnswer = await legacy.callTool(args);
    expect(modernAnswer.isError).toBe(true);
    expect(modernAnswer.content).toEqual(legacyAnswer.content);
    await Promise.all([modern.close(), legacy.close()]);
  });

  it('answers an unknown resource in each revision\'s code: -32002 under 2025 (as the 2025 SDK wrote it), -32602 under 2026-07-28 (SEP-2164)', async () => {
    const org = await createOrganization();
    const uri = 'recon://elsewhere/x';
    const message = `No resource ${uri}: Recon's resources are recon://briefs/{key} and recon://runs/{kind}/{id} (resources/templates/list).`;
    const legacy = await (await mcpRpc({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri } }, { key: org.key, headers: { 'Mcp-Protocol-Version': '2025-11-25' } })).json();
    expect(legacy).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32002, message: `MCP error -32002: ${message}`, data: { uri } } });
    const modern = await (await modernRpc(org.key, { id: 3, method: 'resources/read', params: { uri } })).json();
    expect(modern).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message, data: { uri } } });
  });

  it('advertises the tasks extension in server/discover and marks its lists cacheable per key', async () => {
    const org = await createOrganization();
    const modern = await connectModernMcpClient(org.key);
    expect(modern.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(modern.getServerCapabilities()?.tasks).toBeUndefined();
    await modern.close();

    // Not the 2025 door's pre-encoded list: the 2026 answer has resultType, cache hints and serverInfo.
    const listed = await (await modernRpc(org.key, { method: 'tools/list' })).json<{ result: Record<string, unknown> }>();
    expect(listed.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'recon' } } });
    const read = await (await modernRpc(org.key, { method: 'resources/templates/list' })).json<{ result: Record<string, unknown> }>();
    expect(read.result).toMatchObject({ ttlMs: 300_000, cacheScope: 'private' });
  });
});
