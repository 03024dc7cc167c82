import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_RUNNING_RUNS, RUN_SLOT_STALE_MS } from '../../src/operations/runs/runs.ts';
import { claimRunSlot } from '../../src/db/runs.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';

const fresh = () => new Date(Date.now() - RUN_SLOT_STALE_MS).toISOString();

/** Claims a slot the way a start does, for a run whose object is busy elsewhere. */
function claim(organizationId: string, updatedAt = new Date().toISOString()) {
  const id = crypto.randomUUID();
  return claimRunSlot(env.DB, { id, organizationId, kind: 'gtm-audit', target: 'acme.com', stepsTotal: 6, createdAt: updatedAt, args: '{}' }, { cap: MAX_RUNNING_RUNS, kinds: ['gtm-audit', 'audit'], freshSince: fresh() }).then((claim) => claim.claimed);
}

async function rows(organizationId: string) {
  const { results } = await env.DB.prepare(`SELECT id, status FROM runs WHERE organization_id = ?`).bind(organizationId).all<{ id: string; status: string }>();
  return results;
}

async function fill(organizationId: string) {
  for (let i = 0; i < MAX_RUNNING_RUNS; i++) expect(await claim(organizationId)).toBe(true);
}

describe(`at most ${MAX_RUNNING_RUNS} running runs per organization`, () => {
  it('lets exactly the cap through when many starts arrive at once', async () => {
    const org = await createOrganization();
    const claimed = await Promise.all(Array.from({ length: 10 }, () => claim(org.id)));
    expect(claimed.filter(Boolean)).toHaveLength(MAX_RUNNING_RUNS);
    expect(await rows(org.id)).toHaveLength(MAX_RUNNING_RUNS);
  });

  it('answers one start over the cap with 429 rate_limited, Retry-After and an actionable message, writing nothing', async () => {
    const org = await createOrganization();
    await fill(org.id);
    for (const [path, body] of [['/api/v1/commands/gtm-audit', { focus: ['pricing'] }], ['/api/v1/commands/audit', {}], ['/api/v1/audit', {}]] as const) {
      const response = await call(path, { key: org.key, body });
      expect(response.status).toBe(429);
      expect(response.headers.get('Retry-After')).toBe('10');
      expect(response.headers.get('X-Run-Id')).toBeNull();
      const error = await response.json<{ error: string; message: string; requestId: string }>();
      expect(error).toEqual({
        error: 'rate_limited',
        message: `Rate limited: retry in 10 s. Your organization already has ${MAX_RUNNING_RUNS} runs going, the most it may run at once; wait for one to finish (GET /api/v1/runs lists them) or cancel one (DELETE /api/v1/runs/{kind}/{id}), then start again.`,
        requestId: expect.any(String),
      });
    }
    expect(await rows(org.id)).toHaveLength(MAX_RUNNING_RUNS);
  });

  it('applies to MCP tool calls and task-augmented calls too', async () => {
    const org = await createOrganization();
    await fill(org.id);
    const called = await (await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gtm-audit', arguments: {} } }, { key: org.key })).json<{
      result: { isError: boolean; structuredContent: { error: string } };
    }>();
    expect(called.result.isError).toBe(true);
    expect(called.result.structuredContent.error).toBe('rate_limited');
    const task = await (
      await mcpRpc(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'audit', arguments: {}, task: {} } },
        { key: org.key, headers: { 'Mcp-Protocol-Version': '2025-11-25' } },
      )
    ).json<{ error: { message: string; data: { error: string; retryAfterSeconds: number } } }>();
    // A JSON-RPC rate limit leads with when to retry (the run cap's Retry-After), and carries it in data.
    expect(task.error.message).toContain(`Rate limited: retry in 10 s. Your organization already has ${MAX_RUNNING_RUNS} runs going`);
    expect(task.error.data).toMatchObject({ error: 'rate_limited', retryAfterSeconds: 10 });
    expect(await rows(org.id)).toHaveLength(MAX_RUNNING_RUNS);
  });

  it("does not count another organization's runs, finished runs, or a running row not updated for 10 minutes", async () => {
    const busy = await createOrganization();
    await fill(busy.id);
    const other = await createOrganization();
    expect((await call('/api/v1/commands/gtm-audit', { key: other.key, body: { focus: ['pricing'] } })).status).toBe(202);

    const org = await createOrganization();
    const stale = new Date(Date.now() - RUN_SLOT_STALE_MS - 60_000).toISOString();
    expect(await claim(org.id, stale)).toBe(true);
    expect(await claim(org.id)).toBe(true);
    expect(await claim(org.id)).toBe(true);
    await env.DB.prepare(`UPDATE runs SET status = 'cancelled' WHERE organization_id = ? AND updated_at > ?`).bind(org.id, stale).run();
    // One stale row and two cancelled ones: every slot is free.
    for (let i = 0; i < MAX_RUNNING_RUNS; i++) expect(await claim(org.id)).toBe(true);
    expect(await claim(org.id)).toBe(false);
  });
});
