import { describe, expect, it } from 'vitest';
import type { ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { decide, importLines, objectRow, requestThroughRest, twoKeys } from './action-helpers.ts';

describe('rejecting, and deciding twice', () => {
  it('rejects a pending request without changing anything; deciding it again is 409 conflict', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const request = await requestThroughRest(requester.key, {
      action: 'update_properties',
      params: { type: 'company', key: 'acme.com', properties: { name: 'Not Acme' } },
    });

    const response = await decide(approver.key, request.id, 'reject');
    expect(response.status).toBe(200);
    const rejected = await response.json<ApprovalRequestView>();
    expect(rejected).toMatchObject({ id: request.id, status: 'rejected', decidedBy: { keyId: approver.keyId }, failure: null });
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme' });

    for (const decision of ['approve', 'reject'] as const) {
      const again = await decide(approver.key, request.id, decision);
      expect(again.status).toBe(409);
      const body = await again.json<{ error: string; message: string }>();
      expect(body.error).toBe('conflict');
      expect(body.message).toBe(
        `Approval request ${request.id} is rejected since ${rejected.decidedAt}; only a pending request can be approved or rejected. To make the change now, request it again (POST /api/v1/oms/actions).`,
      );
    }
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme' });
  });

  it('answers 409 to approving an applied request, and applies it only once', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const request = await requestThroughRest(requester.key, {
      action: 'update_properties',
      params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Two' } },
    });
    expect((await decide(approver.key, request.id, 'approve')).status).toBe(200);
    expect((await decide(approver.key, request.id, 'approve')).status).toBe(409);
    expect((await objectRow(org, 'company', 'acme.com'))!.version).toBe(2);
  });
});
