import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importLines, requestCount } from './action-helpers.ts';

async function refused(key: string, body: unknown) {
  const response = await call('/api/v1/oms/actions', { key, body });
  const json = await response.json<{ error: string; message: string; details?: { path: string; message: string }[] }>();
  return { status: response.status, ...json };
}

describe('an invalid action request', () => {
  it('is 400 naming each field and what it allows, and stores nothing', async () => {
    const org = await createOrganization();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);

    expect(await refused(org.key, { action: 'rename', params: {} })).toMatchObject({
      status: 400,
      error: 'invalid_input',
      details: [{ path: 'action', message: 'action must be one of "upsert_object", "update_properties", "link", "unlink", "delete_object", not "rename"' }],
    });
    expect(await refused(org.key, { action: 'delete_object', params: { type: 'company', key: 'acme.com' }, reasn: 'x' })).toMatchObject({
      status: 400,
      details: [{ path: 'reasn', message: "unknown field 'reasn' (did you mean 'reason'?)" }],
    });
    const badParams = await refused(org.key, { action: 'delete_object', params: { type: 'planet', key: 'mars' } });
    expect(badParams.status).toBe(400);
    expect(badParams.details?.[0]?.path).toBe('params.type');
    expect(badParams.message).toMatch(/^Invalid params of delete_object: params\.type must be one of "company", "person", "source", "brief", not "planet"\.$/);

    const badKey = await refused(org.key, { action: 'delete_object', params: { type: 'company', key: 'not a domain' } });
    expect(badKey).toMatchObject({ status: 400, error: 'invalid_input' });
    expect(badKey.details?.[0]?.path).toBe('params.key');

    // Properties are checked as an import line's are.
    const badProperty = await refused(org.key, { action: 'upsert_object', params: { type: 'company', key: 'globex.com', properties: { name: 7 } } });
    expect(badProperty).toMatchObject({
      status: 400,
      error: 'invalid_input',
      message: 'Invalid params of upsert_object: params.properties.name must be a string of 1 to 200 characters, not a number.',
      details: [{ path: 'params.properties.name', message: 'params.properties.name must be a string of 1 to 200 characters, not a number' }],
    });
    const badSource = await refused(org.key, { action: 'upsert_object', params: { type: 'source', key: 'https://acme.com/x', properties: { title: 'T' } } });
    expect(badSource.details).toEqual([{ path: 'params.properties.content', message: 'params.properties.content is required: a string of 1 to 200000 characters' }]);

    const badLink = await refused(org.key, {
      action: 'link',
      params: { link: 'competitors', from: { type: 'company', key: 'acme.com' }, to: { type: 'person', key: 'ada@example.com' } },
    });
    expect(badLink).toMatchObject({
      message: "Invalid params of link: params: link 'competitors' goes from a company to a company.",
      details: [{ path: 'params', message: "params: link 'competitors' goes from a company to a company" }],
    });

    const empty = await refused(org.key, { action: 'update_properties', params: { type: 'company', key: 'acme.com', properties: {} } });
    expect(empty.details).toEqual([{ path: 'params.properties', message: 'params.properties must name at least one property' }]);

    expect(await requestCount(org)).toBe(0);
  });

  it('is 404 when the object to update or delete, or the link to remove, does not exist', async () => {
    const org = await createOrganization();
    expect(await refused(org.key, { action: 'update_properties', params: { type: 'company', key: 'nowhere.com', properties: { name: 'N' } } })).toMatchObject({
      status: 404,
      error: 'not_found',
      message: 'No company nowhere.com in your organization; an action can only change an object that exists (create it with upsert_object).',
    });
    expect((await refused(org.key, { action: 'delete_object', params: { type: 'person', key: 'ghost@example.com' } })).status).toBe(404);
    const unlink = await refused(org.key, {
      action: 'unlink',
      params: { link: 'competitors', from: { type: 'company', key: 'a.com' }, to: { type: 'company', key: 'b.com' } },
    });
    expect(unlink).toMatchObject({ status: 404, message: 'No competitors link from company a.com to company b.com in your organization.' });
    expect(await requestCount(org)).toBe(0);
  });

  it('answers 400 to a list query that mixes id with paging, and to an unknown status', async () => {
    const org = await createOrganization();
    const mixed = await call('/api/v1/oms/actions?id=apr_x&limit=5', { key: org.key });
    expect(mixed.status).toBe(400);
    expect(await mixed.json()).toMatchObject({ error: 'invalid_input', details: [{ path: 'limit', message: 'limit cannot be combined with id' }] });
    const status = await call('/api/v1/oms/actions?status=done', { key: org.key });
    expect(status.status).toBe(400);
    expect(await status.json()).toMatchObject({ error: 'invalid_input', details: [{ path: 'status' }] });
  });
});
