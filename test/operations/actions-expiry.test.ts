import { describe, expect, it } from 'vitest';
import { decideActionRequest, requestAction, type ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { call } from '../helpers/fixtures.ts';
import { contextOf, decide, importLines, objectRow, twoKeys } from './action-helpers.ts';

const DAY = 24 * 3600 * 1000;

describe('expiry after 7 days', () => {
  it('shows a request made 7 days ago as expired, and refuses to approve it (409)', async () => {
    const { org, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const made = new Date(Date.now() - 7 * DAY - 1000);
    const request = await requestAction(
      contextOf(org),
      { action: 'update_properties', params: { type: 'company', key: 'acme.com', properties: { name: 'Late' } } },
      made,
    );
    expect(request.expiresAt).toBe(new Date(made.getTime() + 7 * DAY).toISOString());

    const read = await (await call(`/api/v1/oms/actions?id=${request.id}`, { key: approver.key })).json<ApprovalRequestView>();
    expect(read).toEqual({ ...request, status: 'expired' });
    const listed = await (await call('/api/v1/oms/actions?status=expired', { key: approver.key })).json<{ requests: ApprovalRequestView[] }>();
    expect(listed.requests.map((r) => r.id)).toEqual([request.id]);

    const response = await decide(approver.key, request.id, 'approve');
    expect(response.status).toBe(409);
    expect((await response.json<{ message: string }>()).message).toContain(`is expired at ${request.expiresAt}`);
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme' });
  });

  it('still approves a request one second before it expires, and expires it on decide once the time has passed', async () => {
    const { org, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const made = new Date();
    const params = { action: 'update_properties' as const, params: { type: 'company', key: 'acme.com', properties: { name: 'In time' } } };
    const first = await requestAction(contextOf(org), params, made);
    const second = await requestAction(contextOf(org), params, made);
    const approverCtx = contextOf(org, approver.keyId);

    const inTime = await decideActionRequest(approverCtx, first.id, 'approve', new Date(made.getTime() + 7 * DAY - 1000));
    expect(inTime.status).toBe('applied');
    // Decided after its time, without anyone having read it first: expired on decide.
    await expect(decideActionRequest(approverCtx, second.id, 'reject', new Date(made.getTime() + 7 * DAY))).rejects.toMatchObject({ code: 'conflict' });
    const read = await (await call(`/api/v1/oms/actions?id=${second.id}`, { key: approver.key })).json<ApprovalRequestView>();
    expect(read.status).toBe('expired');
  });
});
