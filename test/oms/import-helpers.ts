import { env } from 'cloudflare:workers';
import type { CoreContext } from '../../src/ground/context.ts';
import { call, type TestOrganization } from '../helpers/fixtures.ts';
import { requestDbOver } from '../helpers/request-db.ts';

export function ndjson(...lines: unknown[]): string {
  return lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');
}

export function importBody(key: string, body: BodyInit, headers: Record<string, string> = {}) {
  return call('/api/v1/oms/objects/import', { key, method: 'POST', rawBody: body, headers: { 'Content-Type': 'application/x-ndjson', ...headers } });
}

/** A core context for `org` whose D1 binding is `db` (by default the real one). */
export function contextFor(org: TestOrganization, db: D1Database = env.DB): CoreContext {
  return {
    env: { ...env, DB: db },
    db: requestDbOver(db),
    requestId: 'import-test',
    principal: { organization: { id: org.id, slug: org.slug, name: org.slug }, keyId: org.keyId, scopes: ['oms:write'] },
  };
}

/** Rows the organization has in each table an import writes. */
export async function rowsOf(organizationId: string) {
  const count = async (table: string) =>
    (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE organization_id = ?`).bind(organizationId).first<{ n: number }>())!.n;
  return {
    objects: await count('objects'),
    links: await count('links'),
    passages: await count('passages'),
    history: await count('object_history'),
    provenance: await count('property_sources'),
  };
}
