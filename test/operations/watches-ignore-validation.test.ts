import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, type TestOrganization } from '../helpers/fixtures.ts';
import { GLOBEX_WATCH, marketOrganization } from '../watches/helpers.ts';

/**
 * A watch's own ignore patterns and its webhook's change kinds (issue 32), each bound at and beyond:
 * a refused create writes nothing. An organization of its own (the per-key command limit).
 */
let org: TestOrganization;

beforeAll(async () => {
  org = await marketOrganization();
});

async function watchRows(): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM watches WHERE organization_id = ?').bind(org.id).first<{ n: number }>();
  return row!.n;
}

async function attempt(change: Record<string, unknown>) {
  const response = await call('/api/v1/oms/watches', { key: org.key, body: { ...GLOBEX_WATCH, ...change } });
  const body = (await response.json()) as { error?: string; details?: { path: string; message: string }[]; id?: string };
  return { status: response.status, body, paths: (body.details ?? []).map((d) => d.path), messages: (body.details ?? []).map((d) => d.message) };
}

async function accepted(change: Record<string, unknown>) {
  const result = await attempt(change);
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  await call(`/api/v1/oms/watches?id=${result.body.id}`, { key: org.key, method: 'DELETE' });
}

async function refused(change: Record<string, unknown>, path: string) {
  const before = await watchRows();
  const result = await attempt(change);
  expect(result.status, JSON.stringify(result.body)).toBe(400);
  expect(result.body.error).toBe('invalid_input');
  expect(result.paths).toContain(path);
  expect(await watchRows()).toBe(before);
  return result;
}

describe('watch ignore patterns and webhook kinds', () => {
  it('ignore: at most 20 patterns of at most 200 characters, each a regular expression that cannot take exponential time', async () => {
    await accepted({ ignore: ['\\d+ open tickets', "Today's special: [^.]*"] });
    await refused({ ignore: Array.from({ length: 21 }, (_, i) => `rule ${i}`) }, 'ignore');
    await refused({ ignore: ['x'.repeat(201)] }, 'ignore.0');
    for (const slow of ['(a+)+$', '(.*a){12}', '(a|ab)*c']) {
      const result = await refused({ ignore: ['fine', slow] }, 'ignore.1');
      expect(result.messages.join(' '), slow).toMatch(/time|backtrack|quantifier|overlap|repeat/i);
    }
    await refused({ ignore: ['(unclosed'] }, 'ignore.0');
    await refused({ ignore: ['a*'] }, 'ignore.0');
  });

  it('webhook.kinds: change kinds only', async () => {
    await refused({ webhook: { url: 'http://127.0.0.1:9/hook', kinds: ['pricing', 'rumours'] } }, 'webhook.kinds.1');
  });

});
