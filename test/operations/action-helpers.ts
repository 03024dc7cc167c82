import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { SCOPES, type Scope } from '../../src/ground/api-key.ts';
import type { CoreContext } from '../../src/ground/context.ts';
import type { ApprovalRequestView } from '../../src/operations/actions/actions.ts';
import { call, createKey, createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { requestDbOver } from '../helpers/request-db.ts';

/** An organization with two keys: `requester` asks, `approver` decides (both with every scope unless told). */
export async function twoKeys(approverScopes: readonly Scope[] = SCOPES) {
  const org = await createOrganization();
  const approver = await createKey(org.id, approverScopes);
  return { org, requester: { key: org.key, keyId: org.keyId }, approver };
}

/** Imports NDJSON lines through the real endpoint. */
export async function importLines(org: TestOrganization, lines: unknown[]) {
  const response = await call('/api/v1/oms/objects/import', {
    key: org.key,
    rawBody: lines.map((l) => JSON.stringify(l)).join('\n'),
    headers: { 'Content-Type': 'application/x-ndjson' },
  });
  expect(response.status).toBe(200);
  expect((await response.json<{ failed: number }>()).failed).toBe(0);
}

export async function requestThroughRest(key: string, body: unknown): Promise<ApprovalRequestView> {
  const response = await call('/api/v1/oms/actions', { key, body });
  expect(response.status, await response.clone().text()).toBe(202);
  return response.json<ApprovalRequestView>();
}

export async function decide(key: string, id: string, decision: 'approve' | 'reject') {
  return call(`/api/v1/oms/actions/${id}/${decision}`, { key, method: 'POST' });
}

/** The core context a door builds, for calling an operation with an injected clock. */
export function contextOf(org: TestOrganization, keyId = org.keyId, scopes: readonly Scope[] = SCOPES): CoreContext {
  return { env, db: requestDbOver(), principal: { organization: { id: org.id, slug: org.slug, name: `Test ${org.slug}` }, keyId, scopes }, requestId: 'test' };
}

export async function objectRow(org: TestOrganization, type: string, key: string) {
  return env.DB.prepare('SELECT properties, version FROM objects WHERE organization_id = ? AND type = ? AND key = ?')
    .bind(org.id, type, key)
    .first<{ properties: string; version: number }>();
}

export async function provenanceOf(org: TestOrganization, type: string, key: string) {
  const { results } = await env.DB.prepare(
    'SELECT name, source_kind AS kind, source_id AS id FROM property_sources WHERE organization_id = ? AND type = ? AND key = ? ORDER BY name',
  )
    .bind(org.id, type, key)
    .all<{ name: string; kind: string; id: string }>();
  return results;
}

export async function historyOf(org: TestOrganization, type: string, key: string) {
  const { results } = await env.DB.prepare(
    'SELECT property, from_value AS "from", to_value AS "to", source_kind AS kind, source_id AS id FROM object_history WHERE organization_id = ? AND type = ? AND key = ? ORDER BY object_history.id',
  )
    .bind(org.id, type, key)
    .all<{ property: string; from: string | null; to: string | null; kind: string; id: string }>();
  return results;
}

export async function requestCount(org: TestOrganization): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM approval_requests WHERE organization_id = ?').bind(org.id).first<{ n: number }>();
  return row!.n;
}
