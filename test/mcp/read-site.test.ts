import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { claimRunSlot } from '../../src/db/runs.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { connectMcpClient } from '../helpers/mcp-client.ts';
import { advanceToEnd } from '../helpers/site-reads.ts';
import { COMPANY_DOMAINS } from '../sites/fixture-sites.ts';

/** The read-site tool: the same core as POST /api/v1/oms/sites, polled with run-status. Reads COMPANY_DOMAINS[6] (never its log). */
const DOMAIN = COMPANY_DOMAINS[6];

type Text = { type: string; text: string }[];

describe('the read-site tool', () => {
  it('starts a site read, answers what REST answers, and is polled with run-status until its report', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    try {
      const started = await client.callTool({ name: 'read-site', arguments: { domain: DOMAIN, pages: 5 } });
      expect(started.isError).toBeFalsy();
      const { runId, kind, status } = started.structuredContent as { runId: string; kind: string; status: string };
      expect({ kind, status }).toEqual({ kind: 'site-read', status: 'running' });
      expect((started.content as Text)[0]!.text).toContain(`GET /api/v1/runs/site-read/${runId}`);

      await advanceToEnd(runId);
      const polled = await client.callTool({ name: 'run-status', arguments: { kind: 'site-read', id: runId } });
      // A finished site read's report comes as data too (its fields: test/sites/read/real-web.test.ts).
      expect(polled.structuredContent).toMatchObject({ runId, kind: 'site-read', status: 'completed', siteRead: { domain: DOMAIN } });
      expect((polled.content as Text)[0]!.text).toContain(`# Site read of ${DOMAIN}`);
    } finally {
      await client.close();
    }
  });

  it('answers the read of a domain already running, through both doors, and starts no second one', async () => {
    const org = await createOrganization();
    // A read of DOMAIN in flight elsewhere: its D1 row, as a start writes it.
    const running = crypto.randomUUID().replaceAll('-', '').padEnd(64, '0');
    const claim = { id: running, organizationId: org.id, kind: 'site-read', target: DOMAIN, stepsTotal: 3, createdAt: new Date().toISOString(), args: '{}' };
    expect(await claimRunSlot(env.DB, claim, { cap: 30, kinds: ['site-read'], freshSince: new Date(Date.now() - 60_000).toISOString(), onePerTarget: true })).toEqual({ claimed: true });

    const rest = await call('/api/v1/oms/sites', { key: org.key, body: { domain: `www.${DOMAIN}` } });
    expect(rest.status).toBe(202);
    expect(rest.headers.get('X-Run-Id')).toBe(running);
    expect(await rest.text()).toContain(`A site read of ${DOMAIN} is already running (run ${running})`);
    const client = await connectMcpClient(org.key);
    try {
      const joined = await client.callTool({ name: 'read-site', arguments: { domain: DOMAIN } });
      expect((joined.structuredContent as { runId: string }).runId).toBe(running);
    } finally {
      await client.close();
    }
    const runs = await call('/api/v1/runs?kind=site-read', { key: org.key });
    expect((await runs.json<{ runs: { id: string }[] }>()).runs.map((run) => run.id)).toEqual([running]);
  });

  it('refuses a domain that is not a public domain name, naming domain, and starts nothing', async () => {
    const org = await createOrganization();
    const client = await connectMcpClient(org.key);
    try {
      for (const domain of ['127.0.0.1', 'localhost', 'intranet.internal']) {
        const refused = await client.callTool({ name: 'read-site', arguments: { domain } });
        expect(refused.isError).toBe(true);
        expect((refused.content as Text)[0]!.text).toMatch(/domain/);
      }
    } finally {
      await client.close();
    }
    const runs = await call('/api/v1/runs?kind=site-read', { key: org.key });
    expect((await runs.json<{ runs: unknown[] }>()).runs).toEqual([]);
  });
});

describe('a key with oms:write but not commands', () => {
  it('starts, polls and cancels its site reads, and still may not poll an audit', async () => {
    const org = await createOrganization({ scopes: ['oms:write'] });
    const start = await call('/api/v1/oms/sites', { key: org.key, body: { domain: DOMAIN, pages: 2 } });
    expect(start.status).toBe(202);
    const id = start.headers.get('X-Run-Id')!;
    const poll = await call(`/api/v1/runs/site-read/${id}`, { key: org.key });
    expect(poll.status).toBe(200);
    await advanceToEnd(id);
    const cancel = await call(`/api/v1/runs/site-read/${id}`, { key: org.key, method: 'DELETE' });
    expect(cancel.status).toBe(200);
    const audit = await call(`/api/v1/runs/audit/${'0'.repeat(64)}`, { key: org.key });
    expect(audit.status).toBe(403);
    expect((await audit.json<{ message: string }>()).message).toContain("'commands'");
  });
});
