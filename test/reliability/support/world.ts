import { env } from 'cloudflare:workers';
import { SCOPES, type Scope } from '../../../src/ground/api-key.ts';
import { call, createKey, createOrganization, type TestOrganization } from '../../helpers/fixtures.ts';
import { importMarket } from '../../helpers/market.ts';
import { createAndSettle } from '../../watches/helpers.ts';
import { MAX_RUNNING_RUNS } from '../../../src/operations/runs/runs.ts';
import { MAX_RUNNING_SITE_READS } from '../../../src/sites/read/start.ts';

/**
 * One organization holding data of every shape the API serves, with the ids, keys, tokens and
 * URLs that name it: objects and links (the test market), a finished run, approval requests
 * (pending, rejected, applied), a watch (its first execution done, then cancelled), a webhook
 * signing secret, and page tokens of every list. Both suites build their organizations with it.
 *
 * It cannot start background work afterwards, so that a D1 snapshot taken around a refused request
 * sees only that request: its run slots are held by three rows that never go stale (every start,
 * once validated, answers 429), and its only watch is cancelled.
 */
export interface World {
  org: TestOrganization;
  /** A second key with every scope, for approvals (a key never approves its own request). */
  approverKey: string;
  run: { kind: 'gtm-audit'; id: string };
  /** The ids of the rows that hold the run slots (no object behind them). */
  heldSlots: string[];
  watchId: string;
  /** Approval requests by state. */
  actions: { pending: string; rejected: string; applied: string };
  webhookSecret: string;
  /** Object keys that exist, by type. */
  objects: { company: string; source: string; brief?: string };
  /** A real page token of each list, for the same filters as `query` (with limit 1). */
  cursors: { runs: string; actions: string; search: string };
}

async function json<T>(response: Response, expected: number): Promise<T> {
  const text = await response.text();
  if (response.status !== expected) throw new Error(`world setup: expected ${expected}, got ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function waitForRun(key: string, kind: string, id: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const response = await call(`/api/v1/runs/${kind}/${id}`, { key });
    await response.arrayBuffer();
    if (response.headers.get('X-Run-Status') !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`world setup: run ${id} never finished`);
}

export async function buildWorld(): Promise<World> {
  const org = await createOrganization();
  await importMarket(org.key);
  const approverKey = (await createKey(org.id, SCOPES)).key;

  // A run, finished.
  const started = await call('/api/v1/commands/gtm-audit', { key: org.key, body: { focus: ['pricing'] } });
  await started.arrayBuffer();
  if (started.status !== 202) throw new Error(`world setup: gtm-audit answered ${started.status}`);
  const runId = started.headers.get('X-Run-Id')!;
  await waitForRun(org.key, 'gtm-audit', runId);

  // A watch with its first execution done, then cancelled: it never executes again.
  const watch = await createAndSettle(org.key);
  await json(await call(`/api/v1/oms/watches?id=${watch.id}`, { key: org.key, method: 'DELETE' }), 200);

  // Approval requests: pending, rejected, applied.
  const request = async (body: unknown) => (await json<{ id: string }>(await call('/api/v1/oms/actions', { key: org.key, body }), 202)).id;
  const rename = (name: string) => ({ action: 'update_properties', params: { type: 'company', key: 'globex.com', properties: { name } } });
  const pending = await request(rename('Globex Corporation'));
  const rejected = await request(rename('Globex Inc.'));
  await json(await call(`/api/v1/oms/actions/${rejected}/reject`, { key: approverKey, body: {} }), 200);
  const applied = await request(rename('Globex'));
  await json(await call(`/api/v1/oms/actions/${applied}/approve`, { key: approverKey, body: {} }), 200);

  const { secret } = await json<{ secret: string }>(await call('/api/v1/oms/webhooks/secret', { key: org.key, body: {} }), 201);

  // Every later start answers 429 after validation: rows hold the slots (3 audits, and the site reads'
  // own) and never go stale.
  const heldSlots = [];
  const slots = [...Array.from({ length: MAX_RUNNING_RUNS }, () => 'audit'), ...Array.from({ length: MAX_RUNNING_SITE_READS }, () => 'site-read')];
  for (const [i, kind] of slots.entries()) {
    const id = env.RUNS.newUniqueId().toString();
    if (kind === 'audit') heldSlots.push(id);
    await env.DB.prepare(
      `INSERT INTO runs (id, organization_id, kind, target, status, steps_done, steps_total, created_at, updated_at, args)
       VALUES (?1, ?2, ?4, ?5, 'running', 0, 6, ?3, '2999-01-01T00:00:00.000Z', '{}')`,
    )
      .bind(id, org.id, new Date().toISOString(), kind, kind === 'audit' ? 'held slot' : `held-slot-${i}.example`)
      .run();
  }

  const runs = await json<{ nextCursor: string | null }>(await call('/api/v1/runs?limit=1', { key: org.key }), 200);
  const actionList = await json<{ nextCursor: string | null }>(await call('/api/v1/oms/actions?limit=1', { key: org.key }), 200);
  const search = await json<{ nextPageToken: string | null }>(
    await call('/api/v1/oms/objects/search', { key: org.key, body: { type: 'source', pageSize: 1 } }),
    200,
  );
  const brief = await json<{ objects: { key: string }[] }>(await call('/api/v1/oms/objects/search', { key: org.key, body: { type: 'brief', pageSize: 1 } }), 200);
  if (!runs.nextCursor || !actionList.nextCursor || !search.nextPageToken) throw new Error('world setup: a list has no second page');

  return {
    org,
    approverKey,
    run: { kind: 'gtm-audit', id: runId },
    heldSlots,
    watchId: watch.id,
    actions: { pending, rejected, applied },
    webhookSecret: secret,
    objects: { company: 'globex.com', source: 'https://acme.com/pricing', brief: brief.objects[0]?.key },
    cursors: { runs: runs.nextCursor, actions: actionList.nextCursor, search: search.nextPageToken },
  };
}

/** A fresh key of the world's organization: each property run spends its own rate-limit budget. */
export async function freshKey(world: World, scopes: readonly Scope[] = SCOPES): Promise<string> {
  return (await createKey(world.org.id, scopes)).key;
}
