import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_AFTER_MS } from '../../src/db/approval-requests.ts';
import { getActionRequest, listActionRequests, requestAction, type ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { call } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { contextOf, importLines, twoKeys } from './action-helpers.ts';

// An earlier release stored `approved` before applying, and a crash there left the request in it.
// Approval no longer stores `approved`; a request left in it settles as failed once it is old enough.

const FAILURE = 'the approval was interrupted before its change was written, so nothing was changed; request the change again against the current data.';

async function leftApproved(org: Parameters<typeof contextOf>[0], approverKeyId: string, decidedAt: Date) {
  const request = await requestAction(contextOf(org), { action: 'update_properties', params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Renamed' } } });
  await env.DB.prepare(`UPDATE approval_requests SET status = 'approved', decided_by = ?1, decided_at = ?2 WHERE id = ?3`)
    .bind(approverKeyId, decidedAt.toISOString(), request.id)
    .run();
  return request;
}

describe('a request left approved by an interrupted apply', () => {
  it('reads as failed, with why, through REST and MCP once INTERRUPTED_AFTER_MS has passed, and not before', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const now = Date.now();
    const stale = await leftApproved(org, approver.keyId, new Date(now - INTERRUPTED_AFTER_MS - 1000));
    const recent = await leftApproved(org, approver.keyId, new Date(now - 60_000));

    const rest = await (await call(`/api/v1/oms/actions?id=${stale.id}`, { key: requester.key })).json<ApprovalRequestView>();
    expect(rest).toMatchObject({ status: 'failed', failure: FAILURE, decidedBy: { keyId: approver.keyId } });
    const client = await connectMcpClient(requester.key);
    expect((await client.callTool({ name: 'action-list', arguments: { id: stale.id } })).structuredContent).toEqual(rest);
    await client.close();

    // One still within the wait may be an apply of that release under way: it is left as it is...
    const listed = await listActionRequests(contextOf(org), 10, undefined, { status: 'approved' });
    expect(listed.requests.map((r) => r.id)).toEqual([recent.id]);
    // ...until the wait has passed.
    const later = await getActionRequest(contextOf(org), recent.id, new Date(now + INTERRUPTED_AFTER_MS));
    expect(later).toMatchObject({ status: 'failed', failure: FAILURE });
    const row = await env.DB.prepare(`SELECT properties FROM objects WHERE organization_id = ? AND key = 'acme.com'`).bind(org.id).first<{ properties: string }>();
    expect(JSON.parse(row!.properties)).toEqual({ name: 'Acme' });
  });
});
