import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/ground/api-key.ts';
import { call, createKey } from '../helpers/fixtures.ts';
import { createAndSettle, executionsOf, marketOrganization, stubOf } from '../watches/helpers.ts';

describe('watches across organizations', () => {
  it("another organization's watch is not found, whatever the operation, and is left as it was", async () => {
    const owner = await marketOrganization();
    const other = await marketOrganization();
    const watch = await createAndSettle(owner.key);
    const before = await stubOf(watch.id).get();

    for (const [method, path] of [
      ['GET', `/api/v1/oms/watches?id=${watch.id}`],
      ['DELETE', `/api/v1/oms/watches?id=${watch.id}`],
      ['POST', `/api/v1/oms/watches/run?id=${watch.id}`],
      ['GET', `/api/v1/oms/watches/executions?id=${watch.id}`],
    ] as const) {
      const response = await call(path, { key: other.key, method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'not_found', message: `No watch ${watch.id} in your organization; GET /api/v1/oms/watches lists them.` });
    }
    expect(await (await call('/api/v1/oms/watches', { key: other.key })).json()).toEqual({ watches: [], nextCursor: null });
    expect(await stubOf(watch.id).get()).toEqual(before);
    expect(await executionsOf(watch.id)).toHaveLength(1);
    // Unknown and malformed ids read the same.
    for (const id of ['wch_nope', '../x', 'x'.repeat(100)]) {
      expect((await call(`/api/v1/oms/watches?id=${encodeURIComponent(id)}`, { key: owner.key })).status).toBe(404);
    }
  });

  it("a watch on a company another organization holds makes the company in the watcher's own organization, and leaves the other's as it was", async () => {
    const owner = await marketOrganization();
    const other = await marketOrganization();
    await call(`/api/v1/oms/objects/import`, {
      key: owner.key,
      method: 'POST',
      rawBody: JSON.stringify({ type: 'company', key: 'initech.com', properties: { name: 'Initech' } }),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    const response = await call('/api/v1/oms/watches', { key: other.key, body: { target: { type: 'company', key: 'initech.com' }, frequency: '1d', tier: 'lite', costCapMicros: 3000 } });
    expect(response.status).toBe(201);
    const get = async (key: string) => (await call('/api/v1/oms/objects/get', { key, body: { type: 'company', key: 'initech.com' } })).json<{ properties: Record<string, unknown> }>();
    expect((await get(owner.key)).properties).toEqual({ name: 'Initech' });
    expect((await get(other.key)).properties.name).not.toBe('Initech');
  });

  it('needs oms:write to create, cancel and run, oms:read to read', async () => {
    const org = await marketOrganization();
    const watch = await createAndSettle(org.key);
    const reader = await createKey(org.id, ['oms:read']);
    const writer = await createKey(org.id, SCOPES.filter((s) => s !== 'oms:read'));
    expect((await call('/api/v1/oms/watches', { key: reader.key, body: { target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 3000 } })).status).toBe(403);
    expect((await call(`/api/v1/oms/watches/run?id=${watch.id}`, { key: reader.key, method: 'POST' })).status).toBe(403);
    expect((await call(`/api/v1/oms/watches?id=${watch.id}`, { key: reader.key, method: 'DELETE' })).status).toBe(403);
    expect((await call(`/api/v1/oms/watches?id=${watch.id}`, { key: reader.key })).status).toBe(200);
    expect((await call(`/api/v1/oms/watches/executions?id=${watch.id}`, { key: reader.key })).status).toBe(200);
    expect((await call('/api/v1/oms/watches', { key: writer.key })).status).toBe(403);
    expect((await stubOf(watch.id).get())!.status).toBe('active');
  });
});
