import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/operations/commands/command-operations.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { connectMcpClient, mcpRpc } from '../helpers/mcp-client.ts';

const INITIALIZE = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('MCP server at /api/mcp', () => {
  it('initializes with the SDK client and lists every command tool with its schema and annotations', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    expect(client.getServerVersion()).toMatchObject({ name: 'recon' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        ...COMMANDS.map((c) => c.id),
        'run-status',
        'get-profile',
        'set-profile',
        'import-objects',
        'add-sources',
        'read-site',
        'site-read-settings',
        'set-site-read-settings',
        'oms-metadata',
        'oms-search',
        'oms-pivot',
        'oms-get',
        'oms-provenance',
        'action-request',
        'action-list',
        'watch-create',
        'watch-list',
        'watch-get',
        'watch-executions',
        'watch-cancel',
        'watch-run',
        'changes',
      ].sort(),
    );
    const research = tools.find((t) => t.name === 'research')!;
    expect(research.inputSchema).toMatchObject({
      type: 'object',
      required: ['topic'],
      additionalProperties: false,
      properties: { topic: { type: 'string', maxLength: 500, description: expect.stringContaining('1-500') } },
    });
    expect(research.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    expect(tools.find((t) => t.name === 'help')!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    await client.close();
  });

  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])('negotiates protocol version %s', async (version) => {
    const org = await createOrganization();
    const response = await mcpRpc(INITIALIZE(version), { key: org.key });
    expect(response.status).toBe(200);
    const body = await response.json<{ result: { protocolVersion: string } }>();
    expect(body.result.protocolVersion).toBe(version);
  });

  it('returns the same markdown for help as REST does, byte for byte', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    const result = await client.callTool({ name: 'help', arguments: {} });
    const rest = await (await call('/api/v1/commands/help', { key: org.key, body: {} })).text();
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: rest }]);
    await client.close();
  });

  it('returns validation errors as tool errors with the REST code and message', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    const args = { topci: 'pricing' };
    const result = await client.callTool({ name: 'research', arguments: args });
    const rest = await (await call('/api/v1/commands/research', { key: org.key, body: args })).json<{ error: string; message: string }>();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'invalid_input', message: rest.message });
    expect((result.content as { text: string }[])[0]!.text).toContain(`Error invalid_input: ${rest.message}`);
    await client.close();
  });

  it('turns 428 into a tool error that says how to finish onboarding', async () => {
    const org = await createOrganization({ profile: 'none' });
    const client = await connectMcpClient(org.key);
    const result = await client.callTool({ name: 'research', arguments: { topic: 'pricing' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'onboarding_required' });
    expect((result.content as { text: string }[])[0]!.text).toContain('PUT /api/v1/profile');
    await client.close();
  });

  it('starts a gtm-audit as a run and polls it with run-status, the same run REST sees', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const client = await connectMcpClient(org.key);
    const started = await client.callTool({ name: 'gtm-audit', arguments: { focus: ['pricing'] } });
    expect(started.isError).toBeFalsy();
    const { runId, kind, status, poll } = started.structuredContent as { runId: string; kind: string; status: string; poll: unknown };
    expect({ kind, status }).toEqual({ kind: 'gtm-audit', status: 'running' });
    expect(poll).toEqual({ tool: 'run-status', arguments: { kind: 'gtm-audit', id: runId } });
    expect((started.content as { text: string }[])[0]!.text).toContain('run-status');

    let result = await client.callTool({ name: 'run-status', arguments: { kind: 'gtm-audit', id: runId } });
    for (let i = 0; i < 100 && (result.structuredContent as { status: string }).status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      result = await client.callTool({ name: 'run-status', arguments: { kind: 'gtm-audit', id: runId } });
    }
    expect(result.structuredContent).toEqual({ runId, kind: 'gtm-audit', status: 'completed' });
    const rest = await call(`/api/v1/runs/gtm-audit/${runId}`, { key: org.key });
    expect((result.content as { text: string }[])[0]!.text).toBe(await rest.text());
    await client.close();
  });

  it("does not show another organization's run", async () => {
    const owner = await createOrganization();
    const other = await createOrganization();
    const started = await call('/api/v1/commands/gtm-audit', { key: owner.key, body: {} });
    const client = await connectMcpClient(other.key);
    const result = await client.callTool({ name: 'run-status', arguments: { kind: 'gtm-audit', id: started.headers.get('X-Run-Id')! } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'not_found' });
    await client.close();
  });

  it('keeps an unknown tool a JSON-RPC protocol error', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow(/Unknown tool 'no-such-tool'/);
    await client.close();
  });

  it('hides tools the key has no scope for, and refuses to call them', async () => {
    const org = await createOrganization({ scopes: ['oms:read'] });
    const client = await connectMcpClient(org.key);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'site-read-settings',
      'oms-metadata',
      'oms-search',
      'oms-pivot',
      'oms-get',
      'oms-provenance',
      'action-list',
      'watch-list',
      'watch-get',
      'watch-executions',
      'changes',
    ]);
    const result = await client.callTool({ name: 'help', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'access_denied' });
    await client.close();
  });

  it('answers without a key with 401 and WWW-Authenticate before any JSON-RPC handling, by the request id', async () => {
    const response = await mcpRpc(INITIALIZE('2025-06-18'));
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32000, data: { error: 'unauthorized' } } });
    // A notification, or a body that is not JSON, has no id to answer by.
    const notification = await mcpRpc({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(await notification.json()).toMatchObject({ id: null, error: { data: { error: 'unauthorized' } } });
  });

  it.each(['GET', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const org = await createOrganization();
    const response = await mcpRpc(undefined, { key: org.key, method });
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
  });

  it('answers malformed JSON with a JSON-RPC parse error', async () => {
    const org = await createOrganization();
    const { exports } = await import('cloudflare:workers');
    const response = await exports.default.fetch(
      new Request('https://recon.test/api/mcp', {
        method: 'POST',
        headers: { Authorization: `Bearer ${org.key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc": "2.0", ',
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32700, data: { error: 'invalid_input', message: expect.stringContaining('Parse error'), requestId: response.headers.get('X-Request-Id') } },
    });
  });

  it('answers a request without the Accept MCP requires with the transport\'s refusal and the error body, request id included', async () => {
    const org = await createOrganization();
    const { exports } = await import('cloudflare:workers');
    const response = await exports.default.fetch(
      new Request('https://recon.test/api/mcp', {
        method: 'POST',
        headers: { Authorization: `Bearer ${org.key}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect(response.status).toBe(406);
    const body = await response.json<{ error: { message: string; data: Record<string, unknown> } }>();
    expect(body.error.data).toEqual({ error: 'invalid_input', message: body.error.message, requestId: response.headers.get('X-Request-Id') });
  });
});
