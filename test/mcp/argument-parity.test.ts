import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { modernHeaders } from '../helpers/modern-headers.ts';
import { modernMeta } from '../helpers/modern-mcp-client.ts';

/** tools/call with `argumentsJson` spliced in verbatim, so keys like __proto__ arrive as a client wrote them. */
function mcpCallRaw(key: string, tool: string, argumentsJson: string, extraParams = ''): Promise<Response> {
  return exports.default.fetch(
    new Request('https://recon.test/api/mcp', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Protocol-Version': '2025-11-25',
      },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":${argumentsJson}${extraParams}}}`,
    }),
  );
}

/** The same call as a 2026-07-28 request: the revision's headers and `_meta` envelope. */
function modernCallRaw(key: string, tool: string, argumentsJson: string): Promise<Response> {
  return exports.default.fetch(
    new Request('https://recon.test/api/mcp', {
      method: 'POST',
      headers: modernHeaders(key, 'tools/call', { name: tool }),
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":${argumentsJson},"_meta":${JSON.stringify(modernMeta())}}}`,
    }),
  );
}

const withoutRequestId = ({ requestId: _, ...body }: Record<string, unknown>) => body;

describe('MCP sees the arguments REST sees, hostile keys included', () => {
  it.each([
    ['help', '{"__proto__": {"userContext": "x"}}'],
    ['help', '{"__proto__": null}'],
    ['help', '{"__proto__": 1}'],
    ['research', '{"topic": "pricing", "__proto__": {"topic": "other"}}'],
    ['research', '{"topic": "pricing", "constructor": {"prototype": {}}}'],
    ['competitors', '{"limit": 5, "__proto__": [], "prototype": 1}'],
  ])('%s with %s: the same 400 invalid_input as REST, as a tool error', async (tool, args) => {
    const org = await createOrganization();
    const rest = await call(`/api/v1/commands/${tool}`, { key: org.key, rawBody: args, headers: { 'Content-Type': 'application/json' } });
    expect(rest.status).toBe(400);
    const restBody = await rest.json<Record<string, unknown>>();
    expect(restBody).toMatchObject({
      error: 'invalid_input',
      details: expect.arrayContaining([{ path: expect.any(String), message: expect.stringMatching(/^unknown field '(__proto__|constructor|prototype)'$/) }]),
    });

    const mcp = await mcpCallRaw(org.key, tool, args);
    expect(mcp.status).toBe(200);
    const { result } = await mcp.json<{ result: { isError?: boolean; structuredContent: Record<string, unknown>; content: { text: string }[] } }>();
    expect(result.isError).toBe(true);
    expect(withoutRequestId(result.structuredContent)).toEqual(withoutRequestId(restBody));
    expect(result.content[0]!.text).toContain(`Error invalid_input: ${restBody.message as string}`);

    // The same under 2026-07-28: one server, one tools/call handler for both revisions.
    const modern = await (await modernCallRaw(org.key, tool, args)).json<{ result: { isError?: boolean; structuredContent: Record<string, unknown> } }>();
    expect(modern.result.isError).toBe(true);
    expect(withoutRequestId(modern.result.structuredContent)).toEqual(withoutRequestId(restBody));
  });

  it('refuses __proto__ in the arguments of a task-augmented call too, with the REST code and message', async () => {
    const org = await createOrganization();
    const args = '{"focus": ["pricing"], "__proto__": {"focus": ["icp"]}}';
    const restBody = await (
      await call('/api/v1/commands/gtm-audit', { key: org.key, rawBody: args, headers: { 'Content-Type': 'application/json' } })
    ).json<{ error: string; message: string }>();
    expect(restBody.error).toBe('invalid_input');
    const answer = await (await mcpCallRaw(org.key, 'gtm-audit', args, ',"task":{}')).json<{ error: { code: number; message: string; data: unknown } }>();
    expect(answer.error).toMatchObject({ code: -32602, message: `Error invalid_input: ${restBody.message}`, data: { error: 'invalid_input', message: restBody.message } });
    const runs = await (await call('/api/v1/runs', { key: org.key })).json<{ runs: unknown[] }>();
    expect(runs.runs).toEqual([]);
  });
});
