import { describe, expect, it } from 'vitest';
import type { ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { decide, historyOf, importLines, objectRow, provenanceOf, requestThroughRest, twoKeys } from './action-helpers.ts';

async function approved(key: string, id: string) {
  const response = await decide(key, id, 'approve');
  expect(response.status).toBe(200);
  return response.json<ApprovalRequestView>();
}

describe('a change that no longer applies ends failed with the reason', () => {
  it('fails an update whose object was deleted between the request and the approval', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const update = await requestThroughRest(requester.key, {
      action: 'update_properties',
      params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Renamed' } },
    });
    const removal = await requestThroughRest(requester.key, { action: 'delete_object', params: { type: 'company', key: 'acme.com' } });
    expect((await approved(approver.key, removal.id)).status).toBe('applied');

    const failed = await approved(approver.key, update.id);
    expect(failed).toMatchObject({ status: 'failed', decidedBy: { keyId: approver.keyId } });
    expect(failed.failure).toBe('company acme.com no longer exists; request the change again against the current data.');
    expect(await objectRow(org, 'company', 'acme.com')).toBeNull();
    expect((await historyOf(org, 'company', 'acme.com')).filter((h) => h.id === update.id)).toEqual([]);
  });

  it('fails an update when the object changed after the request (its version moved)', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const update = await requestThroughRest(requester.key, {
      action: 'update_properties',
      params: { type: 'company', key: 'acme.com', properties: { description: 'Analytics' } },
    });
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics' } }]);

    const failed = await approved(approver.key, update.id);
    expect(failed.status).toBe('failed');
    expect(failed.failure).toBe('company acme.com changed after the request (version 1 then, 2 now); request the change again against the current data.');
    expect(JSON.parse((await objectRow(org, 'company', 'acme.com'))!.properties)).toEqual({ name: 'Acme Analytics' });
    expect((await provenanceOf(org, 'company', 'acme.com')).map((p) => p.kind)).toEqual(['import']);
  });

  it('fails a link whose endpoint was deleted meanwhile, writing no link', async () => {
    const { org, requester, approver } = await twoKeys();
    await importLines(org, [
      { type: 'company', key: 'acme.com', properties: { name: 'Acme' } },
      { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
    ]);
    const link = await requestThroughRest(requester.key, {
      action: 'link',
      params: { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'company', key: 'globex.com' } },
    });
    const removal = await requestThroughRest(requester.key, { action: 'delete_object', params: { type: 'company', key: 'globex.com' } });
    await approved(approver.key, removal.id);
    const failed = await approved(approver.key, link.id);
    expect(failed.status).toBe('failed');
    expect(failed.failure).toBe('company globex.com no longer exists; request the change again against the current data.');
  });
});
