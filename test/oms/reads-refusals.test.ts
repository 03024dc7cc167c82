import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { omsRead } from './read-helpers.ts';

describe('OMS reads refuse what they cannot answer', () => {
  it("answers 404 not_found for an unknown key and for a key that exists only in another organization", async () => {
    const owner = await createOrganization();
    const stranger = await createOrganization();
    await importMarket(owner.key);
    for (const [read, body] of [
      ['get', { type: 'company', key: 'acme.com' }],
      ['provenance', { type: 'company', key: 'acme.com' }],
      ['pivot', { type: 'company', key: 'acme.com', link: 'competitors' }],
      ['get', { type: 'source', key: 'https://acme.com/pricing' }],
    ] as const) {
      const answer = await omsRead(stranger.key, read, body);
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ error: 'not_found', message: expect.stringContaining(`No ${body.type} with key ${body.key} in your organization`) });
    }
    const search = await omsRead(stranger.key, 'search', { type: 'source', query: 'Acme pricing' });
    expect(search.json).toEqual({ objects: [], nextPageToken: null });
    expect((await omsRead(owner.key, 'get', { type: 'company', key: 'nowhere.example' })).status).toBe(404);
  });

  it('needs the oms:read scope (403 access_denied naming it)', async () => {
    const org = await createOrganization({ scopes: ['commands', 'oms:write'] });
    const metadata = await call('/api/v1/oms/metadata', { key: org.key });
    expect(metadata.status).toBe(403);
    expect(await metadata.json()).toMatchObject({ error: 'access_denied', message: expect.stringContaining("'oms:read'") });
    for (const read of ['search', 'pivot', 'get', 'provenance']) {
      const answer = await omsRead(org.key, read, { type: 'company', key: 'acme.com', link: 'competitors' });
      expect(answer.status).toBe(403);
      expect(answer.json.error).toBe('access_denied');
    }
  });

  it('names what is allowed for an unknown type, link, property, op or order, and a malformed key', async () => {
    const org = await createOrganization();
    const cases: [string, unknown, string, string][] = [
      ['get', { type: 'widget', key: 'x' }, 'type', '"company", "person", "source", "brief"'],
      ['pivot', { type: 'company', key: 'acme.com', link: 'cites' }, 'link', 'competitors, people, competitorOf, briefs'],
      ['search', { type: 'company', filters: [{ property: 'revenue', op: 'eq', value: 1 }] }, 'filters.0.property', 'name, domain, description'],
      ['search', { type: 'company', filters: [{ property: 'name', op: 'like', value: 'a' }] }, 'filters.0.op', '"eq"'],
      ['search', { type: 'company', filters: [{ property: 'name', op: 'in', value: 'a' }] }, 'filters.0.value', 'a list of values for in'],
      ['search', { type: 'company', orderBy: { property: 'title' } }, 'orderBy.property', 'key, updatedAt, createdAt, name, domain'],
      ['search', { type: 'company', pageSize: 101 }, 'pageSize', '100'],
      ['search', { type: 'source', query: '!!!' }, 'query', 'letters or digits'],
      ['get', { type: 'source', key: 'not a url' }, 'key', 'http(s) URL'],
      ['get', { type: 'company', key: 'acme.com', extra: 1 }, 'extra', 'unknown field'],
    ];
    for (const [read, body, path, allowed] of cases) {
      const answer = await omsRead(org.key, read, body);
      expect(answer.status, `${read} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.json).toMatchObject({ error: 'invalid_input', details: [expect.objectContaining({ path })] });
      expect(answer.json.message).toContain(allowed);
    }
  });

  it('binds filter values as parameters: SQL in a value is only text', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const answer = await omsRead(org.key, 'search', { type: 'company', filters: [{ property: 'name', op: 'eq', value: "x' OR 1=1 --" }] });
    expect(answer.json.objects).toEqual([]);
    const { results } = await env.DB.prepare('SELECT count(*) AS n FROM objects WHERE organization_id = ?1').bind(org.id).all<{ n: number }>();
    expect(results[0]!.n).toBe(6);
  });
});
