import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { SLOW_DOMAIN } from '../fixture-sites.ts';

/**
 * What POST /api/v1/oms/sites refuses, and what it answers to a second read of a domain or past the
 * day's pages: every refusal is 400 invalid_input naming the field (or 429 with Retry-After) and
 * writes nothing. The one read this file starts is of SLOW_DOMAIN, whose pages time out, so it is
 * still running when the second request comes; it is cancelled at the end. (The slow site's log
 * belongs to site-read-slow.test.ts; this file never reads it.)
 */

interface Refusal {
  status: number;
  error: string;
  message: string;
  details?: { path: string; message: string }[];
}

let org: TestOrganization;
let running: string | undefined;

async function post(target: TestOrganization, body: unknown): Promise<Response> {
  return call('/api/v1/oms/sites', { key: target.key, body: body as Record<string, unknown> });
}

async function refused(body: unknown, target = org): Promise<Refusal> {
  const response = await post(target, body);
  return { status: response.status, ...(await response.json<Omit<Refusal, 'status'>>()) };
}

async function written(target: TestOrganization): Promise<{ runs: number; pages: number; usage: number }> {
  const count = async (table: string) =>
    (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE organization_id = ?1`).bind(target.id).first<{ n: number }>())!.n;
  return { runs: await count('runs'), pages: await count('site_pages'), usage: await count('site_read_usage') };
}

beforeAll(async () => {
  org = await createOrganization();
});

afterAll(async () => {
  if (running) expect((await call(`/api/v1/runs/site-read/${running}`, { key: org.key, method: 'DELETE' })).status).toBe(200);
});

describe('POST /api/v1/oms/sites with bad input', () => {
  it.each([
    ['an IPv4 literal', '203.0.113.7'],
    ['an IPv6 literal', '[2001:db8::1]'],
    ['localhost', 'localhost'],
    ['a name under .internal', 'foo.internal'],
    ['a name under .local', 'printer.local'],
    ['a URL of an IP literal', 'http://10.0.0.7/status'],
    ['not a domain at all', 'not a domain'],
    ['an empty string', ''],
    ['a number', 42],
  ])('refuses %s: 400 invalid_input naming domain', async (_what, domain) => {
    const refusal = await refused({ domain });
    expect(refusal).toMatchObject({ status: 400, error: 'invalid_input' });
    expect(refusal.details?.map((detail) => detail.path)).toEqual(['domain']);
  });

  it.each([
    ['0', 0],
    ['501', 501],
    ['"x"', 'x'],
    ['1.5', 1.5],
    ['-1', -1],
  ])('refuses pages %s: 400 invalid_input naming pages', async (_what, pages) => {
    const refusal = await refused({ domain: 'globex.com', pages });
    expect(refusal).toMatchObject({ status: 400, error: 'invalid_input' });
    expect(refusal.details?.map((detail) => detail.path)).toEqual(['pages']);
  });

  it('refuses an unknown field, naming it', async () => {
    const refusal = await refused({ domain: 'globex.com', budget: 10 });
    expect(refusal).toMatchObject({ status: 400, error: 'invalid_input' });
    expect(refusal.details?.map((detail) => detail.path)).toEqual(['budget']);
  });

  it('refuses a body without domain, or one that is not an object', async () => {
    expect((await refused({ pages: 5 })).details?.map((detail) => detail.path)).toEqual(['domain']);
    expect((await refused([{ domain: 'globex.com' }])).status).toBe(400);
  });

  it('writes nothing for any of them: no run, no page record, no page count', async () => {
    expect(await written(org)).toEqual({ runs: 0, pages: 0, usage: 0 });
  });
});

describe('POST /api/v1/oms/sites with a URL, twice', () => {
  it('reduces a URL with a path, query and www. to its domain, and starts one read', async () => {
    const response = await post(org, { domain: `https://WWW.${SLOW_DOMAIN.toUpperCase()}/hang?x=1#top`, pages: 3 });
    expect(response.status).toBe(202);
    running = response.headers.get('X-Run-Id')!;
    expect(running).toBeTruthy();
    const row = await env.DB.prepare('SELECT kind, target FROM runs WHERE id = ?1 AND organization_id = ?2').bind(running, org.id).first();
    expect(row).toEqual({ kind: 'site-read', target: SLOW_DOMAIN });
    const poll = await call(`/api/v1/runs/site-read/${running}`, { key: org.key });
    expect(poll.status).toBe(200);
    expect(poll.headers.get('X-Run-Status')).toBe('running');
  });

  it('answers a second read of the same domain while the first runs with 202 and the same X-Run-Id', async () => {
    const again = await post(org, { domain: SLOW_DOMAIN });
    expect(again.status).toBe(202);
    expect(again.headers.get('X-Run-Id')).toBe(running);
    expect(await again.text()).toContain('already running');
    expect((await written(org)).runs).toBe(1);
  });
});

describe("POST /api/v1/oms/sites past the organization's pages of the day", () => {
  it('answers 429 with Retry-After and starts nothing', async () => {
    const spent = await createOrganization();
    const limit = Number((env as unknown as Record<string, string | undefined>).SITE_READ_PAGES_PER_DAY ?? 5_000);
    const today = new Date().toISOString().slice(0, 10);
    await env.DB.prepare('INSERT INTO site_read_usage (organization_id, day, pages) VALUES (?1, ?2, ?3)').bind(spent.id, today, limit).run();
    const response = await post(spent, { domain: SLOW_DOMAIN });
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
    expect(await response.json()).toMatchObject({ error: 'rate_limited' });
    expect(await written(spent)).toEqual({ runs: 0, pages: 0, usage: 1 });
  });
});
