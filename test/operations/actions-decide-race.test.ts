import { describe, expect, it } from 'vitest';
import { createKey } from '../helpers/fixtures.ts';
import { decide, historyOf, importLines, requestThroughRest, twoKeys } from './action-helpers.ts';

describe('two decisions at once', () => {
  it('lets exactly one win (compare-and-set on pending): the other is 409, and the change is applied once', async () => {
    const { org, requester, approver } = await twoKeys();
    const second = await createKey(org.id, ['oms:approve']);
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const request = await requestThroughRest(requester.key, {
      action: 'update_properties',
      params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Once' } },
    });

    const [a, b] = await Promise.all([decide(approver.key, request.id, 'approve'), decide(second.key, request.id, 'reject')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = await (a.status === 200 ? a : b).json<{ status: string }>();
    const actionHistory = (await historyOf(org, 'company', 'acme.com')).filter((h) => h.id === request.id);
    expect(actionHistory).toHaveLength(winner.status === 'applied' ? 1 : 0);
  });
});
