import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { WatchView } from '../../src/ground/schemas/watch.ts';
import { readArgs } from '../../src/sites/read/state.ts';
import { call, createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { OFFLINE_DOMAIN } from '../sites/fixture-sites.ts';
import { createWatch, GLOBEX_WATCH, json, marketOrganization, stubOf, untilExecutions } from './helpers.ts';

/**
 * A watch's includePaths and excludePaths: refused like a read's when bad (writing nothing),
 * stored with the watch and answered by create, get and list (the object and the D1 mirror), and
 * handed to the read of the target's site each execution starts. That read is of OFFLINE_DOMAIN
 * (nothing listens there: it ends at once, and no site's log is touched).
 */

interface ErrorBody {
  error: string;
  details?: { path: string; message: string }[];
  requestId?: string;
}

const PATHS = { includePaths: ['/blog/**', '/pricing'], excludePaths: ['*.pdf'] };

async function watchRows(org: TestOrganization): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM watches WHERE organization_id = ?1').bind(org.id).first<{ n: number }>();
  return row!.n;
}

async function cancel(org: TestOrganization, id: string): Promise<void> {
  await call(`/api/v1/oms/watches?id=${id}`, { key: org.key, method: 'DELETE' });
}

async function listed(org: TestOrganization, id: string): Promise<WatchView | undefined> {
  const { watches } = await json<{ watches: WatchView[] }>(await call('/api/v1/oms/watches', { key: org.key }), 200);
  return watches.find((watch) => watch.id === id);
}

describe('a watch created with path patterns', () => {
  it('answers them on create, get (the object) and list (the D1 mirror)', async () => {
    const org = await marketOrganization();
    const created = await createWatch(org.key, { ...GLOBEX_WATCH, ...PATHS });
    try {
      expect(created).toMatchObject(PATHS);
      expect(await json<WatchView>(await call(`/api/v1/oms/watches?id=${created.id}`, { key: org.key }), 200)).toMatchObject(PATHS);
      expect(await listed(org, created.id)).toMatchObject(PATHS);
      const row = await env.DB.prepare('SELECT include_paths AS i, exclude_paths AS e FROM watches WHERE id = ?1').bind(created.id).first<{ i: string; e: string }>();
      expect(row).toEqual({ i: JSON.stringify(PATHS.includePaths), e: JSON.stringify(PATHS.excludePaths) });
    } finally {
      await cancel(org, created.id);
    }
  });

  it('answers empty lists for a watch created without them', async () => {
    const org = await marketOrganization();
    const created = await createWatch(org.key, GLOBEX_WATCH);
    try {
      const none = { includePaths: [], excludePaths: [] };
      expect(created).toMatchObject(none);
      expect(await stubOf(created.id).get()).toMatchObject(none);
      expect(await listed(org, created.id)).toMatchObject(none);
    } finally {
      await cancel(org, created.id);
    }
  });

  it('answers the same through the watch-create and watch-get tools', async () => {
    const org = await marketOrganization();
    const client = await connectMcpClient(org.key);
    try {
      const created = await client.callTool({ name: 'watch-create', arguments: { ...GLOBEX_WATCH, ...PATHS } });
      expect(created.isError).toBeFalsy();
      const watch = created.structuredContent as unknown as WatchView;
      expect(watch).toMatchObject(PATHS);
      const got = await client.callTool({ name: 'watch-get', arguments: { id: watch.id } });
      expect(got.structuredContent).toMatchObject(PATHS);
      await cancel(org, watch.id);
    } finally {
      await client.close();
    }
  });

  it("hands them to the read of the target's site each execution starts", async () => {
    const org = await createOrganization();
    const company = JSON.stringify({ type: 'company', key: OFFLINE_DOMAIN, properties: { name: 'Offline Example' } });
    const imported = await call('/api/v1/oms/objects/import', { key: org.key, rawBody: company, headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(imported.status).toBe(200);
    const watch = await createWatch(org.key, { ...GLOBEX_WATCH, target: { type: 'company', key: OFFLINE_DOMAIN }, ...PATHS });
    try {
      const [first] = await untilExecutions(watch.id, 1);
      const runId = first?.siteRead?.runId;
      expect(runId).toMatch(/^[0-9a-f]{64}$/);
      const run = await env.RUNS.get(env.RUNS.idFromString(runId!)).read();
      expect(run!.args).toMatchObject({ domain: OFFLINE_DOMAIN, ...PATHS });
      expect(readArgs(run!)).toMatchObject(PATHS);
    } finally {
      await cancel(org, watch.id);
    }
  });
});

describe('a watch create with bad path patterns', () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['a pattern without a leading / or *', { includePaths: ['pricing'] }, 'includePaths.0', /must start with "\/"/],
    ['a braces explosion', { includePaths: [`/${'{a,b}'.repeat(30)}`] }, 'includePaths.0', /braces are not supported/],
    ['stacked globstars', { excludePaths: ['/**/**/**/**/x'] }, 'excludePaths.0', /at most one "\*\*"/],
    ['a pattern picomatch cannot compile', { excludePaths: ['/ok', '/[z-a]'] }, 'excludePaths.1', /picomatch can compile; "\/\[z-a\]" is not/],
    ['26 patterns', { includePaths: Array.from({ length: 26 }, (_, i) => `/p${i}`) }, 'includePaths', /at most 25 items/],
    ['a pattern in both lists', { includePaths: ['/docs/**'], excludePaths: ['/docs/**'] }, 'excludePaths.0', /must not also be in includePaths/],
  ];

  it.each(cases)('refuses %s: 400 invalid_input naming the field, writing nothing', async (_what, paths, path, message) => {
    const org = await marketOrganization();
    const response = await call('/api/v1/oms/watches', { key: org.key, body: { ...GLOBEX_WATCH, ...paths } });
    expect(response.status).toBe(400);
    const body = await response.json<ErrorBody>();
    expect(body.error).toBe('invalid_input');
    expect(body.details?.map((detail) => detail.path)).toEqual([path]);
    expect(body.details?.[0]?.message).toMatch(message);
    expect(await watchRows(org)).toBe(0);
  });

  it('is refused by the watch-create tool with the error REST answers, writing nothing', async () => {
    const org = await marketOrganization();
    const client = await connectMcpClient(org.key);
    try {
      for (const [what, paths] of cases) {
        const args = { ...GLOBEX_WATCH, ...paths };
        const tool = await client.callTool({ name: 'watch-create', arguments: args });
        expect(tool.isError, what).toBe(true);
        const rest = await call('/api/v1/oms/watches', { key: org.key, body: args });
        const { requestId: _rest, ...restBody } = await rest.json<ErrorBody>();
        const { requestId: _tool, ...toolBody } = tool.structuredContent as unknown as ErrorBody;
        expect(toolBody, what).toEqual(restBody);
      }
    } finally {
      await client.close();
    }
    expect(await watchRows(org)).toBe(0);
  });
});
