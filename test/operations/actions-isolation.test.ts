import { describe, expect, it } from 'vitest';
import type { ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { decide, importLines, objectRow, requestThroughRest } from './action-helpers.ts';

describe("another organization's approval requests", () => {
  it('are 404 to read, approve and reject, and never listed', async () => {
    const acme = await createOrganization();
    const globex = await createOrganization();
    await importLines(acme, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const request = await requestThroughRest(acme.key, { action: 'delete_object', params: { type: 'company', key: 'acme.com' } });

    const read = await call(`/api/v1/oms/actions?id=${request.id}`, { key: globex.key });
    expect(read.status).toBe(404);
    expect(await read.json()).toMatchObject({
      error: 'not_found',
      message: `No approval request ${request.id} in your organization; GET /api/v1/oms/actions lists them.`,
    });
    for (const decision of ['approve', 'reject'] as const) expect((await decide(globex.key, request.id, decision)).status).toBe(404);
    expect((await (await call('/api/v1/oms/actions', { key: globex.key })).json<{ requests: unknown[] }>()).requests).toEqual([]);

    expect(await objectRow(acme, 'company', 'acme.com')).not.toBeNull();
    expect((await (await call(`/api/v1/oms/actions?id=${request.id}`, { key: acme.key })).json<ApprovalRequestView>()).status).toBe('pending');
  });

  it("cannot request a change to an object that exists only in another organization (404)", async () => {
    const acme = await createOrganization();
    const globex = await createOrganization();
    await importLines(acme, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const response = await call('/api/v1/oms/actions', { key: globex.key, body: { action: 'delete_object', params: { type: 'company', key: 'acme.com' } } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});
