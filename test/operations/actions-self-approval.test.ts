import { describe, expect, it } from 'vitest';
import type { ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { call } from '../helpers/fixtures.ts';
import { decide, importLines, objectRow, requestThroughRest, twoKeys } from './action-helpers.ts';

describe('the self-approval ban', () => {
  it('refuses 403 when the requesting key approves its own request, and nothing changes', async () => {
    const { org, requester } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const request = await requestThroughRest(requester.key, {
      action: 'update_properties',
      params: { type: 'company', key: 'acme.com', properties: { name: 'Mine' } },
    });

    const response = await decide(requester.key, request.id, 'approve');
    expect(response.status).toBe(403);
    const body = await response.json<{ error: string; message: string }>();
    expect(body.error).toBe('access_denied');
    expect(body.message).toContain('a key cannot approve its own request');

    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme' });
    const stored = await (await call(`/api/v1/oms/actions?id=${request.id}`, { key: requester.key })).json<ApprovalRequestView>();
    expect(stored).toEqual(request);
  });

  it('lets the requesting key withdraw its own request by rejecting it', async () => {
    const { org, requester } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const request = await requestThroughRest(requester.key, { action: 'delete_object', params: { type: 'company', key: 'acme.com' } });
    const response = await decide(requester.key, request.id, 'reject');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'rejected', decidedBy: { keyId: requester.keyId } });
    expect(await objectRow(org, 'company', 'acme.com')).not.toBeNull();
  });
});
