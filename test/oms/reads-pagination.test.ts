import { describe, expect, it } from 'vitest';
import { createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';
import { COMPETITORS, importLines, omsRead } from './read-helpers.ts';

const company = (i: number) => ({ type: 'company', key: `co-${String(i).padStart(3, '0')}.com`, properties: { name: `Rank ${i % 7}` } });

describe('OMS search and pivot pagination', () => {
  it('pages over more objects than a page, objects added between pages, none missed or repeated', async () => {
    const org = await createOrganization();
    await importLines(org.key, Array.from({ length: 60 }, (_, i) => company(i * 2)));
    const seen: string[] = [];
    let token: string | null = null;
    let added = 1;
    do {
      const { status, json } = await omsRead(org.key, 'search', {
        type: 'company',
        orderBy: { property: 'name', direction: 'desc' },
        pageSize: 7,
        ...(token ? { pageToken: token } : {}),
      });
      expect(status).toBe(200);
      expect(json.objects.length).toBeLessThanOrEqual(7);
      seen.push(...json.objects.map((o: any) => o.key));
      token = json.nextPageToken;
      // Between pages, add more companies (odd numbers): they may or may not appear; the originals must, once each.
      if (token) await importLines(org.key, [company(added), company(added + 2)]);
      added += 4;
    } while (token);
    expect(new Set(seen).size).toBe(seen.length);
    const originals = Array.from({ length: 60 }, (_, i) => company(i * 2).key);
    expect(seen.filter((key) => originals.includes(key)).sort()).toEqual(originals.sort());
  });

  it('refuses a tampered token, a token of another search or organization, with 400 invalid_input', async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    await importLines(org.key, Array.from({ length: 5 }, (_, i) => company(i)));
    await importLines(other.key, Array.from({ length: 5 }, (_, i) => company(i)));
    const first = await omsRead(org.key, 'search', { type: 'company', pageSize: 2 });
    const token: string = first.json.nextPageToken;
    expect(token).toEqual(expect.any(String));
    const next = await omsRead(org.key, 'search', { type: 'company', pageSize: 2, pageToken: token });
    expect(next.json.objects.map((o: any) => o.key)).toEqual(['co-002.com', 'co-003.com']);

    const [body, mac] = token.split('.');
    const forged = `${btoa(atob(body!.replace(/-/g, '+').replace(/_/g, '/')).replace('co-001.com', 'co-000.com')).replace(/=+$/, '')}.${mac}`;
    const refusals = [
      await omsRead(org.key, 'search', { type: 'company', pageSize: 2, pageToken: forged }),
      await omsRead(org.key, 'search', { type: 'company', pageSize: 2, pageToken: `${body}.${mac!.slice(1)}` }),
      await omsRead(org.key, 'search', { type: 'company', query: 'rank', pageSize: 2, pageToken: token }),
      await omsRead(org.key, 'search', { type: 'company', filters: [{ property: 'name', op: 'neq', value: 'x' }], pageToken: token }),
      await omsRead(org.key, 'search', { type: 'person', pageSize: 2, pageToken: token }),
      await omsRead(other.key, 'search', { type: 'company', pageSize: 2, pageToken: token }),
      await omsRead(org.key, 'pivot', { type: 'company', key: 'co-000.com', link: 'competitors', pageToken: token }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      expect(refusal.json).toMatchObject({ error: 'invalid_input', message: expect.stringContaining('pageToken'), details: [{ path: 'pageToken' }] });
    }
  });

  it('pages a pivot in key order', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    await importLines(org.key, COMPETITORS);
    const first = await omsRead(org.key, 'pivot', { type: 'company', key: 'acme.com', link: 'competitors', pageSize: 1 });
    expect(first.json.objects.map((o: any) => o.key)).toEqual(['globex.com']);
    const second = await omsRead(org.key, 'pivot', { type: 'company', key: 'acme.com', link: 'competitors', pageSize: 1, pageToken: first.json.nextPageToken });
    expect(second.json).toEqual({ objects: [expect.objectContaining({ key: 'initech.com' })], nextPageToken: null });
    const elsewhere = await omsRead(org.key, 'pivot', { type: 'company', key: 'globex.com', link: 'competitorOf', pageToken: first.json.nextPageToken });
    expect(elsewhere.status).toBe(400);
  });
});
