import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';

/** A start's text with its run id made generic, so two starts can be compared byte for byte. */
const withoutId = (text: string, id: string) => text.replaceAll(id, '<id>');

describe('an asynchronous start answers the same text through both doors', () => {
  it.each([
    ['gtm-audit', { focus: ['pricing'] }],
    ['audit', {}],
  ])('%s: the MCP tool text is byte for byte the REST 202 body, and names both ways to poll', async (name, args) => {
    const org = await createOrganization();
    const rest = await call(`/api/v1/commands/${name}`, { key: org.key, body: args });
    expect(rest.status).toBe(202);
    const restId = rest.headers.get('X-Run-Id')!;
    const restText = await rest.text();

    const client = await connectMcpClient(org.key);
    const result = await client.callTool({ name, arguments: args });
    await client.close();
    const mcpId = (result.structuredContent as { runId: string }).runId;
    const mcpText = (result.content as { type: string; text: string }[])[0]!.text;

    expect(withoutId(mcpText, mcpId)).toBe(withoutId(restText, restId));
    expect(restText).toContain(`GET /api/v1/runs/${name}/${restId}`);
    expect(restText).toContain(`run-status with {"kind": "${name}", "id": "${restId}"}`);
  });
});
