import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type TestOrganization } from '../helpers/fixtures.ts';
import { GLOBEX_WATCH, marketOrganization } from '../watches/helpers.ts';

let org: TestOrganization;

beforeAll(async () => {
  org = await marketOrganization();
});

const domains = (n: number, prefix = 'site') => Array.from({ length: n }, (_, i) => `${prefix}${i}.com`);

async function watchRows(): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM watches WHERE organization_id = ?').bind(org.id).first<{ n: number }>();
  return row!.n;
}

/** Creates a watch with `change` applied to a valid body: the status and, for a 400, the detail paths and messages. */
async function attempt(change: Record<string, unknown>) {
  const response = await call('/api/v1/oms/watches', { key: org.key, body: { ...GLOBEX_WATCH, ...change } });
  const body = (await response.json()) as { error?: string; message?: string; details?: { path: string; message: string }[] };
  return { status: response.status, body, paths: (body.details ?? []).map((d) => d.path), messages: (body.details ?? []).map((d) => d.message) };
}

async function accepted(change: Record<string, unknown>) {
  const result = await attempt(change);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  // Cancelled at once, so no accepted watch goes on researching during the other cases.
  await call(`/api/v1/oms/watches?id=${(result.body as { id: string }).id}`, { key: org.key, method: 'DELETE' });
}

async function refused(change: Record<string, unknown>, path: string, message?: RegExp) {
  const before = await watchRows();
  const result = await attempt(change);
  expect(result.status, JSON.stringify(result.body)).toBe(400);
  expect(result.body.error).toBe('invalid_input');
  expect(result.paths).toContain(path);
  if (message) expect(result.messages.find((m) => m.includes(path))).toMatch(message);
  expect(await watchRows()).toBe(before);
}

describe('watch validation, each bound at and beyond', () => {
  it('frequency: 1h to 30d in hours, days or weeks', async () => {
    for (const frequency of ['1h', '720h', '30d', '4w', '1d', '2w']) await accepted({ frequency });
    for (const frequency of ['0h', '721h', '31d', '5w', '0d']) await refused({ frequency }, 'frequency', /must be from 1h to 30d/);
    for (const frequency of ['1.5h', '1m', '1 h', 'h', '6', 'daily', '-1h']) await refused({ frequency }, 'frequency', /must be a whole number and a unit/);
    await refused({ frequency: 6 }, 'frequency');
    await refused({ frequency: undefined }, 'frequency', /is required/);
  });

  it('tier: lite or base', async () => {
    await refused({ tier: 'deep' }, 'tier', /must be one of "lite", "base"/);
    await refused({ tier: undefined }, 'tier', /tier must be one of "lite", "base"/);
  });

  it('costCapMicros: an integer, at least the tier price, at most 100000000', async () => {
    await accepted({ tier: 'lite', costCapMicros: 3000 });
    await accepted({ tier: 'base', costCapMicros: 10000 });
    await accepted({ tier: 'base', costCapMicros: 100_000_000 });
    await refused({ tier: 'lite', costCapMicros: 2999 }, 'costCapMicros');
    await refused({ tier: 'base', costCapMicros: 9999 }, 'costCapMicros', /must be at least 10000 for the base tier/);
    await refused({ tier: 'lite', costCapMicros: 100_000_001 }, 'costCapMicros');
    await refused({ costCapMicros: 3000.5 }, 'costCapMicros', /must be an integer/);
    await refused({ costCapMicros: '9000' }, 'costCapMicros');
    await refused({ costCapMicros: undefined }, 'costCapMicros', /is required/);
  });

  it('sourcePolicy: at most 25 bare domains per list, none in both', async () => {
    await accepted({ sourcePolicy: { include: domains(25), exclude: domains(25, 'other') } });
    await refused({ sourcePolicy: { include: domains(26) } }, 'sourcePolicy.include');
    await refused({ sourcePolicy: { exclude: domains(26) } }, 'sourcePolicy.exclude');
    await refused({ sourcePolicy: { include: ['acme.com'], exclude: ['ACME.com.'] } }, 'sourcePolicy.exclude.0', /must not also be in include: acme.com is in both lists/);
    for (const bad of ['https://acme.com', 'acme.com/pricing', 'acme.com:8080', '*.acme.com', 'user@acme.com', 'acme', '10.0.0.1', '']) {
      await refused({ sourcePolicy: { include: [bad] } }, 'sourcePolicy.include.0');
    }
    await refused({ sourcePolicy: { include: [], exclude: [], extra: [] } }, 'sourcePolicy.extra');
  });

  it('stores domains normalized', async () => {
    const response = await call('/api/v1/oms/watches', { key: org.key, body: { ...GLOBEX_WATCH, sourcePolicy: { include: ['WWW.Globex.com.'] } } });
    const watch = (await response.json()) as { id: string; sourcePolicy: unknown };
    expect(watch.sourcePolicy).toEqual({ include: ['globex.com'], exclude: [] });
    await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key, method: 'DELETE' });
  });

  it('query: optional, 1 to 500 characters', async () => {
    await accepted({ query: 'x'.repeat(500) });
    await refused({ query: 'x'.repeat(501) }, 'query');
    await refused({ query: '   ' }, 'query');
  });

  it('target: a company (the only watchable type), its key normalized; one not in the organization yet is created', async () => {
    await accepted({ target: { type: 'company', key: 'https://WWW.Globex.com/pricing' } });
    await accepted({ target: { type: 'company', key: 'Initech.com' } });
    const made = await call('/api/v1/oms/objects/get', { key: org.key, body: { type: 'company', key: 'initech.com' } });
    expect(made.status).toBe(200);
    for (const type of ['person', 'source', 'brief', 'planet']) await refused({ target: { type, key: 'globex.com' } }, 'target.type', /only companies can be watched/);
    await refused({ target: { type: 'company', key: 'not a domain' } }, 'target.key', /must be a domain/);
    await refused({ target: undefined }, 'target', /is required/);
    await refused({ target: { type: 'company' } }, 'target.key', /is required/);
  });

  it('unknown fields, and a body that is not an object', async () => {
    await refused({ frequency: undefined, frequncy: '1d' }, 'frequncy', /did you mean 'frequency'/);
    const response = await call('/api/v1/oms/watches', { key: org.key, body: [GLOBEX_WATCH] });
    expect(response.status).toBe(400);
  });

  it('names every offending field at once', async () => {
    const result = await attempt({ frequency: '0h', tier: 'deep', sourcePolicy: { include: domains(26) } });
    expect(result.status).toBe(400);
    expect(result.paths).toEqual(expect.arrayContaining(['frequency', 'tier', 'sourcePolicy.include']));
  });
});
