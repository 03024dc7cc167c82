import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/fixtures.ts';
import { mcpRpc } from '../../helpers/mcp-client.ts';
import { label, servedApi } from '../support/answers.ts';
import { seen } from '../support/compare.ts';
import { Tally } from '../support/seed.ts';
import { buildWorld, type World } from '../support/world.ts';

/**
 * Suite 2, isolation: two organizations with data of the same shapes. For every route and tool
 * that takes an id, key or page token, the other organization's value answers exactly like a
 * made-up value of the same form: the same status, content type and body, once the value itself
 * (which a message may quote) and the request id are masked.
 */
const api = await servedApi();
const tally = new Tally();
let ours: World;
let theirs: World;
/** A company, a source and a brief that only the other organization has, and made-up twins of each. */
const ONLY_THEIRS = { company: 'only-theirs.example', source: 'https://only-theirs.example/pricing' };
const MADE_UP = { company: 'made-up.example', source: 'https://made-up.example/pricing' };

const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
/** A value of the same form as `value`: each letter or digit replaced by a random one of its kind (prefixes such as `wch_` kept). */
function madeUpLike(value: string): string {
  const [prefix, rest] = /^([a-z]+_)?(.*)$/s.exec(value)!.slice(1) as [string | undefined, string];
  return (prefix ?? '') + [...rest].map((c) => (/[0-9a-f]/.test(c) ? hex(1)[0] : /[A-Za-z0-9]/.test(c) ? 'xYz9'[Math.floor(Math.random() * 4)] : c)).join('');
}

beforeAll(async () => {
  [ours, theirs] = [await buildWorld(), await buildWorld()];
  const lines = [
    { type: 'company', key: ONLY_THEIRS.company, properties: { name: 'Only Theirs' } },
    { type: 'source', key: ONLY_THEIRS.source, properties: { title: 'Only theirs', publishedAt: '2026-05-01', content: 'Only theirs costs $5.' } },
  ];
  const imported = await call('/api/v1/oms/objects/import', { key: theirs.org.key, rawBody: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'Content-Type': 'application/x-ndjson' } });
  expect(imported.status).toBe(200);
});

interface Case {
  /** The operation or tool it exercises. */
  target: string;
  /** Their value, and a made-up one of the same form. */
  values: () => [string, string];
  send: (value: string) => Promise<Response>;
}

const rest = (path: (v: string) => string, init: { method?: string; body?: (v: string) => unknown } = {}) => (value: string) =>
  call(path(value), { key: ours.org.key, method: init.method, body: init.body?.(value) });
const restApprove = (path: (v: string) => string) => (value: string) => call(path(value), { key: ours.approverKey, body: {} });
const tool = (name: string, args: (v: string) => Record<string, unknown>) => (value: string) =>
  mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args(value) } }, { key: ours.org.key });
const rpc = (method: string, params: (v: string) => Record<string, unknown>) => (value: string) =>
  mcpRpc({ jsonrpc: '2.0', id: 1, method, params: params(value) }, { key: ours.org.key, headers: { 'Mcp-Protocol-Version': '2025-11-25' } });

const runId = (): [string, string] => [theirs.run.id, env.RUNS.newUniqueId().toString()];
const watchId = (): [string, string] => [theirs.watchId, madeUpLike(theirs.watchId)];
const pendingAction = (): [string, string] => [theirs.actions.pending, madeUpLike(theirs.actions.pending)];
const company = (): [string, string] => [ONLY_THEIRS.company, MADE_UP.company];
const source = (): [string, string] => [ONLY_THEIRS.source, MADE_UP.source];
const brief = (): [string, string] => [theirs.objects.brief!, madeUpLike(theirs.objects.brief!)];
const cursor = (name: keyof World['cursors']) => (): [string, string] => [theirs.cursors[name], madeUpLike(theirs.cursors[name])];

const CASES: Case[] = [
  { target: 'GET /api/v1/runs/{kind}/{id}', values: runId, send: rest((v) => `/api/v1/runs/gtm-audit/${v}`) },
  { target: 'DELETE /api/v1/runs/{kind}/{id}', values: runId, send: rest((v) => `/api/v1/runs/gtm-audit/${v}`, { method: 'DELETE' }) },
  { target: 'GET /api/v1/audit', values: runId, send: rest((v) => `/api/v1/audit?id=${v}`) },
  { target: 'GET /api/v1/runs', values: cursor('runs'), send: rest((v) => `/api/v1/runs?limit=1&cursor=${encodeURIComponent(v)}`) },
  { target: 'GET /api/v1/oms/watches', values: watchId, send: rest((v) => `/api/v1/oms/watches?id=${v}`) },
  { target: 'DELETE /api/v1/oms/watches', values: watchId, send: rest((v) => `/api/v1/oms/watches?id=${v}`, { method: 'DELETE' }) },
  { target: 'POST /api/v1/oms/watches/run', values: watchId, send: rest((v) => `/api/v1/oms/watches/run?id=${v}`, { method: 'POST' }) },
  { target: 'GET /api/v1/oms/watches/executions', values: watchId, send: rest((v) => `/api/v1/oms/watches/executions?id=${v}`) },
  { target: 'GET /api/v1/oms/changes', values: company, send: rest((v) => `/api/v1/oms/changes?company=${v}`) },
  { target: 'changes', values: company, send: tool('changes', (v) => ({ company: v })) },
  // A watch on a company only they hold makes the company in our own organization, as on a made-up one.
  { target: 'POST /api/v1/oms/watches', values: company, send: rest(() => '/api/v1/oms/watches', { body: (v) => ({ target: { type: 'company', key: v }, frequency: '1d', tier: 'lite', costCapMicros: 9000 }) }) },
  { target: 'GET /api/v1/oms/actions', values: pendingAction, send: rest((v) => `/api/v1/oms/actions?id=${v}`) },
  { target: 'GET /api/v1/oms/actions', values: cursor('actions'), send: rest((v) => `/api/v1/oms/actions?limit=1&cursor=${encodeURIComponent(v)}`) },
  { target: 'POST /api/v1/oms/actions/{id}/approve', values: pendingAction, send: restApprove((v) => `/api/v1/oms/actions/${v}/approve`) },
  { target: 'POST /api/v1/oms/actions/{id}/reject', values: pendingAction, send: restApprove((v) => `/api/v1/oms/actions/${v}/reject`) },
  { target: 'POST /api/v1/oms/actions', values: company, send: rest(() => '/api/v1/oms/actions', { body: (v) => ({ action: 'update_properties', params: { type: 'company', key: v, properties: { name: 'Mine now' } } }) }) },
  { target: 'POST /api/v1/oms/actions', values: company, send: rest(() => '/api/v1/oms/actions', { body: (v) => ({ action: 'delete_object', params: { type: 'company', key: v } }) }) },
  { target: 'POST /api/v1/oms/objects/get', values: company, send: rest(() => '/api/v1/oms/objects/get', { body: (v) => ({ type: 'company', key: v }) }) },
  { target: 'POST /api/v1/oms/objects/get', values: source, send: rest(() => '/api/v1/oms/objects/get', { body: (v) => ({ type: 'source', key: v }) }) },
  { target: 'POST /api/v1/oms/objects/get', values: brief, send: rest(() => '/api/v1/oms/objects/get', { body: (v) => ({ type: 'brief', key: v }) }) },
  { target: 'POST /api/v1/oms/objects/provenance', values: company, send: rest(() => '/api/v1/oms/objects/provenance', { body: (v) => ({ type: 'company', key: v }) }) },
  { target: 'POST /api/v1/oms/objects/pivot', values: company, send: rest(() => '/api/v1/oms/objects/pivot', { body: (v) => ({ type: 'company', key: v, link: 'competitors' }) }) },
  { target: 'POST /api/v1/oms/objects/search', values: cursor('search'), send: rest(() => '/api/v1/oms/objects/search', { body: (v) => ({ type: 'source', pageSize: 1, pageToken: v }) }) },
  { target: 'POST /api/v1/oms/objects/search', values: company, send: rest(() => '/api/v1/oms/objects/search', { body: (v) => ({ type: 'company', filters: [{ property: 'domain', op: 'eq', value: v }] }) }) },
  { target: 'POST /api/v1/commands/gtm-audit', values: company, send: rest(() => '/api/v1/commands/gtm-audit', { body: (v) => ({ company: v }) }) },
  { target: 'POST /api/v1/commands/competitors', values: company, send: rest(() => '/api/v1/commands/competitors', { body: (v) => ({ company: v }) }) },
  { target: 'POST /api/v1/commands/competitors', values: () => ['Only Theirs', 'Zzzz Qqqqqq'], send: rest(() => '/api/v1/commands/competitors', { body: (v) => ({ company: v }) }) },
  // Their source's words find nothing of theirs: the brief reads like one on words nobody wrote.
  { target: 'POST /api/v1/commands/research', values: () => ['Only theirs costs', 'Zzzz qqqqqq costs'], send: rest(() => '/api/v1/commands/research', { body: (v) => ({ topic: v }) }) },
  // The same through MCP.
  { target: 'run-status', values: runId, send: tool('run-status', (v) => ({ kind: 'gtm-audit', id: v })) },
  { target: 'tasks/get', values: runId, send: rpc('tasks/get', (v) => ({ taskId: v })) },
  { target: 'tasks/cancel', values: runId, send: rpc('tasks/cancel', (v) => ({ taskId: v })) },
  { target: 'tasks/result', values: runId, send: rpc('tasks/result', (v) => ({ taskId: v })) },
  { target: 'watch-get', values: watchId, send: tool('watch-get', (v) => ({ id: v })) },
  { target: 'watch-cancel', values: watchId, send: tool('watch-cancel', (v) => ({ id: v })) },
  { target: 'watch-run', values: watchId, send: tool('watch-run', (v) => ({ id: v })) },
  { target: 'watch-executions', values: watchId, send: tool('watch-executions', (v) => ({ id: v })) },
  { target: 'watch-create', values: company, send: tool('watch-create', (v) => ({ target: { type: 'company', key: v }, frequency: '1d', tier: 'lite', costCapMicros: 9000 })) },
  { target: 'watch-list', values: cursor('runs'), send: tool('watch-list', (v) => ({ cursor: v })) },
  { target: 'action-list', values: pendingAction, send: tool('action-list', (v) => ({ id: v })) },
  { target: 'action-list', values: cursor('actions'), send: tool('action-list', (v) => ({ cursor: v })) },
  { target: 'action-request', values: company, send: tool('action-request', (v) => ({ action: 'update_properties', params: { type: 'company', key: v, properties: { name: 'Mine now' } } })) },
  { target: 'oms-get', values: company, send: tool('oms-get', (v) => ({ type: 'company', key: v })) },
  { target: 'oms-get', values: brief, send: tool('oms-get', (v) => ({ type: 'brief', key: v })) },
  { target: 'oms-provenance', values: source, send: tool('oms-provenance', (v) => ({ type: 'source', key: v })) },
  { target: 'oms-pivot', values: company, send: tool('oms-pivot', (v) => ({ type: 'company', key: v, link: 'competitors' })) },
  { target: 'oms-search', values: cursor('search'), send: tool('oms-search', (v) => ({ type: 'source', pageToken: v })) },
  { target: 'gtm-audit', values: company, send: tool('gtm-audit', (v) => ({ company: v })) },
];

describe("another organization's ids, keys and page tokens answer exactly like made-up ones", () => {
  it.each(CASES.map((c, i) => [`${c.target} #${i}`, c] as const))('%s', async (_name, testCase) => {
    const [theirValue, madeUp] = testCase.values();
    const a = await seen(await testCase.send(theirValue), theirValue);
    const b = await seen(await testCase.send(madeUp), madeUp);
    tally.add(testCase.target, 2);
    expect(a, `their ${theirValue} vs made-up ${madeUp}`).toEqual(b);
  });

  it("leaves the other organization's data as it was", async () => {
    const pending = await call(`/api/v1/oms/actions?id=${theirs.actions.pending}`, { key: theirs.org.key });
    expect(await pending.json()).toMatchObject({ status: 'pending' });
    const object = await call('/api/v1/oms/objects/get', { key: theirs.org.key, body: { type: 'company', key: ONLY_THEIRS.company } });
    expect(await object.json()).toMatchObject({ properties: { name: 'Only Theirs' } });
    const run = await call(`/api/v1/runs/gtm-audit/${theirs.run.id}`, { key: theirs.org.key });
    expect(run.headers.get('X-Run-Status')).toBe('completed');
  });

  it('covers every documented operation that takes an id, a key or a page token', () => {
    const takesOne = api.operations.filter((op) => {
      if (op.path === '/api/mcp') return false;
      if (op.parameters.some((p) => p.in === 'path' || ['id', 'cursor'].includes(p.name))) return true;
      const example = JSON.stringify(Object.values(op.requestBody?.content ?? {})[0] ?? {});
      return /"(key|pageToken|id|company)"/.test(example);
    });
    const covered = new Set(CASES.map((c) => c.target));
    expect(takesOne.map(label).filter((name) => !covered.has(name))).toEqual([]);
    console.log(`[reliability] isolation: ${CASES.length} id, key and token cases over ${covered.size} operations and tools`);
  });
});
