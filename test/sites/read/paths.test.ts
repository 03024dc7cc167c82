import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { claimRunSlot } from '../../../src/db/runs.ts';
import { readArgs } from '../../../src/sites/read/state.ts';
import { call, createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { connectMcpClient } from '../../helpers/mcp-client.ts';

/**
 * includePaths and excludePaths of a site read, through both doors (POST /api/v1/oms/sites and the
 * read-site tool): bad patterns are refused as 400 invalid_input naming the pattern's field, writing
 * nothing; good ones reach the run's arguments, where readArgs finds them. The reads this file
 * starts are of a domain no fixture site serves (SITE_ORIGIN_OVERRIDES does not name it, so it is
 * not reached at all: no request, no site's log), each cancelled.
 */
const DOMAIN = 'path-scopes.example';

interface ErrorBody {
  error: string;
  message: string;
  details?: { path: string; message: string }[];
  requestId?: string;
}

type Text = { type: string; text: string }[];

async function runsOf(org: TestOrganization): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM runs WHERE organization_id = ?1').bind(org.id).first<{ n: number }>();
  return row!.n;
}

/** The run record of a read started through REST, after cancelling it (the record keeps its arguments). */
async function startAndCancel(org: TestOrganization, body: Record<string, unknown>) {
  const response = await call('/api/v1/oms/sites', { key: org.key, body: { domain: DOMAIN, pages: 2, ...body } });
  expect(response.status).toBe(202);
  const id = response.headers.get('X-Run-Id')!;
  await call(`/api/v1/runs/site-read/${id}`, { key: org.key, method: 'DELETE' });
  const run = await env.RUNS.get(env.RUNS.idFromString(id)).read();
  expect(run).toBeTruthy();
  return run!;
}

const BAD: [string, Record<string, unknown>, string, RegExp][] = [
  ['a pattern without a leading / or *', { includePaths: ['blog/**'] }, 'includePaths.0', /must start with "\/"/],
  ['a braces explosion', { includePaths: ['/ok', `/${'{a,b}'.repeat(30)}`] }, 'includePaths.1', /must not contain "\{"/],
  ['stacked globstars', { excludePaths: ['/**/**/**/**/x'] }, 'excludePaths.0', /must have at most one "\*\*"/],
  ['many stars in a segment', { excludePaths: [`/${'*a'.repeat(20)}x`] }, 'excludePaths.0', /must have at most one "\*" in a segment/],
  ['a pattern picomatch cannot compile', { includePaths: ['/[z-a]'] }, 'includePaths.0', /must be a pattern picomatch can compile; "\/\[z-a\]" is not/],
  ['a control character', { includePaths: ['/a%00b'] }, 'includePaths.0', /must be printable/],
  ['a pattern over 200 characters', { includePaths: [`/${'a'.repeat(200)}`] }, 'includePaths.0', /1 to 200 characters/],
  ['26 patterns', { excludePaths: Array.from({ length: 26 }, (_, i) => `/p${i}`) }, 'excludePaths', /at most 25 items/],
  ['a pattern in both lists', { includePaths: ['/blog/**'], excludePaths: ['/BLOG/**'] }, 'excludePaths.0', /must not also be in includePaths/],
  ['a list that is a string', { includePaths: '/blog/**' }, 'includePaths', /must be a list/],
];

describe('POST /api/v1/oms/sites with bad path patterns', () => {
  it.each(BAD)('refuses %s: 400 invalid_input naming the field, writing nothing', async (_what, paths, path, message) => {
    const org = await createOrganization();
    const response = await call('/api/v1/oms/sites', { key: org.key, body: { domain: DOMAIN, ...paths } });
    expect(response.status).toBe(400);
    const body = await response.json<ErrorBody>();
    expect(body.error).toBe('invalid_input');
    expect(body.details?.map((detail) => detail.path)).toEqual([path]);
    expect(body.details?.[0]?.message).toMatch(message);
    expect(await runsOf(org)).toBe(0);
  });

  it('names every offending pattern, each in its own detail', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/oms/sites', { key: org.key, body: { domain: DOMAIN, includePaths: ['x', '/ok', '/(a|b)'], excludePaths: ['/**/**'] } });
    expect(response.status).toBe(400);
    expect((await response.json<ErrorBody>()).details?.map((detail) => detail.path)).toEqual(['includePaths.0', 'includePaths.2', 'excludePaths.0']);
    expect(await runsOf(org)).toBe(0);
  });
});

describe('the read-site tool with bad path patterns', () => {
  it('refuses them with the error REST answers, and starts nothing', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    try {
      for (const [what, paths] of BAD) {
        const args = { domain: DOMAIN, ...paths };
        const tool = await client.callTool({ name: 'read-site', arguments: args });
        expect(tool.isError, what).toBe(true);
        const rest = await call('/api/v1/oms/sites', { key: org.key, body: args });
        const { requestId: _rest, ...restBody } = await rest.json<ErrorBody>();
        const { requestId: _tool, ...toolBody } = tool.structuredContent as unknown as ErrorBody;
        expect(toolBody, what).toEqual(restBody);
        expect((tool.content as Text)[0]!.text, what).toContain(restBody.details![0]!.path);
      }
    } finally {
      await client.close();
    }
    expect(await runsOf(org)).toBe(0);
  });
});

describe('a site read with path patterns', () => {
  it('keeps them in its run arguments, as given, and readArgs returns them', async () => {
    const org = await createOrganization();
    const run = await startAndCancel(org, { includePaths: ['/blog/**', ' /pricing '], excludePaths: ['*.pdf'] });
    expect(run.args).toMatchObject({ domain: DOMAIN, pages: 2, includePaths: ['/blog/**', '/pricing'], excludePaths: ['*.pdf'] });
    expect(readArgs(run)).toMatchObject({ domain: DOMAIN, budget: 2, includePaths: ['/blog/**', '/pricing'], excludePaths: ['*.pdf'] });
  });

  it('keeps no lists for a read without them (or with empty ones), and readArgs returns empty lists', async () => {
    const org = await createOrganization();
    const run = await startAndCancel(org, { includePaths: [], excludePaths: [] });
    expect(run.args).not.toHaveProperty('includePaths');
    expect(run.args).not.toHaveProperty('excludePaths');
    expect(readArgs(run)).toMatchObject({ includePaths: [], excludePaths: [] });
  });

  it('accepts them through the read-site tool too', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    try {
      const started = await client.callTool({ name: 'read-site', arguments: { domain: DOMAIN, pages: 2, excludePaths: ['/careers/**'] } });
      expect(started.isError).toBeFalsy();
      const { runId } = started.structuredContent as { runId: string };
      await call(`/api/v1/runs/site-read/${runId}`, { key: org.key, method: 'DELETE' });
      const run = await env.RUNS.get(env.RUNS.idFromString(runId)).read();
      expect(readArgs(run!)).toMatchObject({ includePaths: [], excludePaths: ['/careers/**'] });
    } finally {
      await client.close();
    }
  });

  it('says so when the read of the domain already running was started with its own paths', async () => {
    const org = await createOrganization();
    // A read of the domain in flight: its D1 row, as a start writes it.
    const running = crypto.randomUUID().replaceAll('-', '').padEnd(64, '0');
    const claim = { id: running, organizationId: org.id, kind: 'site-read', target: DOMAIN, stepsTotal: 3, createdAt: new Date().toISOString(), args: '{}' };
    expect(await claimRunSlot(env.DB, claim, { cap: 30, kinds: ['site-read'], freshSince: new Date(Date.now() - 60_000).toISOString(), onePerTarget: true })).toEqual({ claimed: true });
    const scoped = await call('/api/v1/oms/sites', { key: org.key, body: { domain: DOMAIN, includePaths: ['/blog/**'] } });
    expect(scoped.headers.get('X-Run-Id')).toBe(running);
    expect(await scoped.text()).toContain(`A site read of ${DOMAIN} is already running (run ${running}); one read per domain runs at a time, and it reads the paths and hosts it was started with, not these.`);
    const plain = await call('/api/v1/oms/sites', { key: org.key, body: { domain: DOMAIN } });
    expect(await plain.text()).not.toContain('paths');
  });
});
