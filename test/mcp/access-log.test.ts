import { describe, expect, it, vi } from 'vitest';
import { createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

/** The request log lines written while `work` runs. */
async function requestLogs(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((event) => event.event === 'request');
}

const toolsCall = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

describe('the access log records an MCP tool call by its outcome', () => {
  it('logs a tool that returned isError as its error code, not ok', async () => {
    const org = await createOrganization({ profile: 'none' });
    const logs = await requestLogs(async () => {
      const response = await mcpRpc(toolsCall('research', { topic: 'pricing' }), { key: org.key, headers: { 'X-Request-Id': 'mcp-tool-error-1' } });
      expect(await response.json()).toMatchObject({ result: { isError: true } });
    });
    expect(logs).toEqual([expect.objectContaining({ requestId: 'mcp-tool-error-1', path: '/api/mcp', status: 200, outcome: 'onboarding_required' })]);
  });

  it('logs a refused task start as its error code', async () => {
    const org = await createOrganization({ profile: 'none' });
    const logs = await requestLogs(async () => {
      const response = await mcpRpc(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'audit', arguments: {}, task: {} } },
        { key: org.key, headers: { 'Mcp-Protocol-Version': '2025-11-25' } },
      );
      expect(await response.json()).toMatchObject({ error: { data: { error: 'onboarding_required' } } });
    });
    expect(logs).toEqual([expect.objectContaining({ status: 200, outcome: 'onboarding_required' })]);
  });

  it('logs a successful tool call as ok', async () => {
    const org = await createOrganization();
    const logs = await requestLogs(async () => {
      expect((await mcpRpc(toolsCall('help', {}), { key: org.key })).status).toBe(200);
    });
    expect(logs).toEqual([expect.objectContaining({ status: 200, outcome: 'ok' })]);
  });
});
