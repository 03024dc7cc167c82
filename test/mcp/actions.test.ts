import { describe, expect, it } from 'vitest';
import type { ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { call, createKey } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { decide, importLines, provenanceOf, requestCount, twoKeys } from '../operations/action-helpers.ts';

const UPDATE = { action: 'update_properties', params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics' } }, reason: 'Renamed' };

describe('action-request and action-list over MCP', () => {
  it('requests through MCP the same request REST shows, and lists it as REST lists it', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const client = await connectMcpClient(requester.key);

    const result = await client.callTool({ name: 'action-request', arguments: UPDATE });
    expect(result.isError).toBeFalsy();
    const request = result.structuredContent as unknown as ApprovalRequestView;
    expect(request).toMatchObject({ status: 'pending', action: 'update_properties', requestedBy: { keyId: requester.keyId } });
    expect(await (await call(`/api/v1/oms/actions?id=${request.id}`, { key: requester.key })).json()).toEqual(request);
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(text).toContain(`- ${request.id}: update_properties company acme.com (name); pending until ${request.expiresAt}`);
    expect(text).toContain(`POST /api/v1/oms/actions/${request.id}/approve`);

    const one = await client.callTool({ name: 'action-list', arguments: { id: request.id } });
    expect(one.structuredContent).toEqual(request);
    const page = await client.callTool({ name: 'action-list', arguments: { status: 'pending' } });
    expect(page.structuredContent).toEqual(await (await call('/api/v1/oms/actions?status=pending', { key: requester.key })).json());
    expect(page.structuredContent).toEqual({ requests: [request], nextCursor: null });

    // Approved over REST by another key, the MCP answer follows it.
    expect((await decide(approver.key, request.id, 'approve')).status).toBe(200);
    const applied = await client.callTool({ name: 'action-list', arguments: { id: request.id } });
    expect(applied.structuredContent).toEqual(await (await call(`/api/v1/oms/actions?id=${request.id}`, { key: approver.key })).json());
    expect(applied.structuredContent).toMatchObject({ status: 'applied' });
    expect(await provenanceOf(org, 'company', 'acme.com')).toEqual([{ name: 'name', kind: 'action', id: request.id }]);
    await client.close();
  });

  it('gives the same error through both doors, and stores nothing', async () => {
    const { org, requester } = await twoKeys();
    const client = await connectMcpClient(requester.key);
    const bad = { action: 'delete_object', params: { type: 'company', key: 'nowhere.com' } };
    const result = await client.callTool({ name: 'action-request', arguments: bad });
    const rest = await call('/api/v1/oms/actions', { key: requester.key, body: bad });
    expect(result.isError).toBe(true);
    const { requestId: _a, ...viaMcp } = result.structuredContent as Record<string, unknown>;
    const { requestId: _b, ...viaRest } = await rest.json<Record<string, unknown>>();
    expect(rest.status).toBe(404);
    expect(viaMcp).toEqual(viaRest);
    expect(await requestCount(org)).toBe(0);
    await client.close();
  });

  it('has no tool that approves or rejects, and pages the list with the signed cursor', async () => {
    const { org, requester } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const client = await connectMcpClient(requester.key);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['action-request', 'action-list']));
    expect(names.filter((name) => /approve|reject|decide/.test(name))).toEqual([]);

    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.unshift(((await client.callTool({ name: 'action-request', arguments: UPDATE })).structuredContent as { id: string }).id);
    const first = (await client.callTool({ name: 'action-list', arguments: { limit: 2 } })).structuredContent as { requests: { id: string }[]; nextCursor: string };
    const second = (await client.callTool({ name: 'action-list', arguments: { limit: 2, cursor: first.nextCursor } })).structuredContent as { requests: { id: string }[]; nextCursor: string | null };
    expect([...first.requests, ...second.requests].map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(second.nextCursor).toBeNull();

    const tampered = await client.callTool({ name: 'action-list', arguments: { cursor: `${first.nextCursor.slice(0, -2)}xx` } });
    expect(tampered.isError).toBe(true);
    expect(tampered.structuredContent).toMatchObject({ error: 'invalid_input', details: [{ path: 'cursor' }] });
    await client.close();
  });

  it('action-request is not listed for a key without oms:write; action-list is, as GET /api/v1/oms/actions allows it', async () => {
    const { org } = await twoKeys();
    const { key } = await createKey(org.id, ['commands', 'oms:read', 'oms:approve']);
    const client = await connectMcpClient(key);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.filter((name) => name.startsWith('action-'))).toEqual(['action-list']);
    await client.close();
  });
});
