import { describe, expect, it } from 'vitest';
import { call, createKey, createOrganization } from '../helpers/fixtures.ts';
import { advanceToEnd } from '../helpers/site-reads.ts';
import { COMPANY_DOMAINS } from '../sites/fixture-sites.ts';

/** The organization's page budget per site read (GET/PUT /api/v1/oms/sites/settings). Reads COMPANY_DOMAINS[6], never its log. */
const DOMAIN = COMPANY_DOMAINS[6];

interface Settings {
  pagesPerRead: number;
  pagesPerReadIsDefault: boolean;
  pagesPerDay: number;
  pagesFetchedToday: number;
}

const settings = async (key: string) => (await call('/api/v1/oms/sites/settings', { key })).json<Settings>();
const put = (key: string, body: unknown) => call('/api/v1/oms/sites/settings', { key, method: 'PUT', body });

describe('site-read settings', () => {
  it('default to 50 pages per read, and say the day\'s limit and count', async () => {
    const org = await createOrganization();
    expect(await settings(org.key)).toEqual({ pagesPerRead: 50, pagesPerReadIsDefault: true, pagesPerDay: 5000, pagesFetchedToday: 0 });
  });

  it('set the budget of a read whose request names none, and null goes back to the default', async () => {
    const org = await createOrganization();
    const response = await put(org.key, { pagesPerRead: 3 });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ pagesPerRead: 3, pagesPerReadIsDefault: false });

    const start = await call('/api/v1/oms/sites', { key: org.key, body: { domain: DOMAIN } });
    expect(start.status).toBe(202);
    const id = start.headers.get('X-Run-Id')!;
    await advanceToEnd(id);
    const report = await (await call(`/api/v1/runs/site-read/${id}`, { key: org.key })).text();
    expect(report).toContain('page budget 3.');
    expect(report).toContain('- Pages requested: 3 (budget 3).');
    const after = await settings(org.key);
    expect(after.pagesFetchedToday).toBeGreaterThan(0);
    expect(after.pagesFetchedToday).toBeLessThanOrEqual(3);

    expect(await (await put(org.key, { pagesPerRead: null })).json()).toMatchObject({ pagesPerRead: 50, pagesPerReadIsDefault: true });
  });

  it('refuse a budget out of bounds, of another type, missing or with other fields, naming pagesPerRead, and change nothing', async () => {
    const org = await createOrganization();
    await put(org.key, { pagesPerRead: 7 });
    for (const body of [{ pagesPerRead: 0 }, { pagesPerRead: 501 }, { pagesPerRead: 2.5 }, { pagesPerRead: '10' }, {}, { pagesPerRead: 10, budget: 10 }]) {
      const response = await put(org.key, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await response.json<{ error: string; message: string }>();
      expect(error.error).toBe('invalid_input');
      expect(error.message).toMatch(/pagesPerRead|budget/);
    }
    expect((await settings(org.key)).pagesPerRead).toBe(7);
  });

  it('are read with oms:read and set with oms:write only', async () => {
    const org = await createOrganization();
    const { key } = await createKey(org.id, ['oms:read']);
    expect((await call('/api/v1/oms/sites/settings', { key })).status).toBe(200);
    expect((await put(key, { pagesPerRead: 5 })).status).toBe(403);
    expect((await settings(org.key)).pagesPerReadIsDefault).toBe(true);
  });
});
