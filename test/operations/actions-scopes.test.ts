import { describe, expect, it } from 'vitest';
import { call, createKey, createOrganization } from '../helpers/fixtures.ts';
import { decide, importLines, requestCount, requestThroughRest } from './action-helpers.ts';

const UPDATE = { action: 'update_properties', params: { type: 'company', key: 'acme.com', properties: { name: 'X' } } };

async function refusal(response: Response, scope: string) {
  expect(response.status).toBe(403);
  const body = await response.json<{ error: string; message: string }>();
  expect(body.error).toBe('access_denied');
  expect(body.message).toContain(`lacks the '${scope}' scope`);
  expect(body.message).toContain("the dashboard's API key settings page (/dashboard/settings/keys");
}

describe('action scopes', () => {
  it('needs oms:write to request (nothing stored otherwise) and oms:approve to decide', async () => {
    const org = await createOrganization();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const reader = await createKey(org.id, ['oms:read']);
    const writer = await createKey(org.id, ['oms:write']);

    await refusal(await call('/api/v1/oms/actions', { key: reader.key, body: UPDATE }), 'oms:write');
    expect(await requestCount(org)).toBe(0);

    const request = await requestThroughRest(org.key, UPDATE);
    await refusal(await decide(writer.key, request.id, 'approve'), 'oms:approve');
    await refusal(await decide(reader.key, request.id, 'reject'), 'oms:approve');
    const approver = await createKey(org.id, ['oms:approve']);
    expect((await decide(approver.key, request.id, 'approve')).status).toBe(200);
  });

  it('lets any OMS scope read requests, and refuses a key with only commands', async () => {
    const org = await createOrganization();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const request = await requestThroughRest(org.key, UPDATE);
    for (const scope of ['oms:read', 'oms:write', 'oms:approve'] as const) {
      const { key } = await createKey(org.id, [scope]);
      expect((await call('/api/v1/oms/actions', { key })).status).toBe(200);
      expect((await call(`/api/v1/oms/actions?id=${request.id}`, { key })).status).toBe(200);
    }
    const { key } = await createKey(org.id, ['commands']);
    await refusal(await call('/api/v1/oms/actions', { key }), 'oms:read');
    await refusal(await call(`/api/v1/oms/actions?id=${request.id}`, { key }), 'oms:read');
  });
});
