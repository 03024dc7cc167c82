import type { Scope } from '../ground/api-key.ts';
import { parseScopes } from '../ground/api-key.ts';
import type { Principal } from '../ground/context.ts';

/** A key as the auth path needs it: its principal, or the fact that it was revoked. */
export interface KeyRecord {
  principal: Principal;
  revoked: boolean;
}

interface KeyRow {
  key_id: string;
  scopes: string;
  revoked_at: string | null;
  organization_id: string;
  slug: string;
  org_name: string;
}

/** The key whose SHA-256 is `hash`, with its organization; null when there is none. */
export async function findKeyByHash(db: D1Database, hash: string): Promise<KeyRecord | null> {
  const row = await db
    .prepare(
      `SELECT k.id AS key_id, k.scopes, k.revoked_at, o.id AS organization_id, o.slug, o.name AS org_name
         FROM api_keys k JOIN organizations o ON o.id = k.organization_id
        WHERE k.hash = ?`,
    )
    .bind(hash)
    .first<KeyRow>();
  if (!row) return null;
  return {
    revoked: row.revoked_at !== null,
    principal: {
      keyId: row.key_id,
      scopes: parseScopes(row.scopes).scopes,
      organization: { id: row.organization_id, slug: row.slug, name: row.org_name },
    },
  };
}

/** Records that a key was used at `at` (ISO 8601). Called at most once a minute per key per isolate. */
export async function touchKeyLastUsed(db: D1Database, keyId: string, at: string): Promise<void> {
  await db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').bind(at, keyId).run();
}

export interface NewKey {
  id: string;
  organizationId: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: readonly Scope[];
  createdAt: string;
}

/** The INSERT for a key (the operator CLI writes the same row through `wrangler d1 execute`). */
export function insertKeyStatement(db: D1Database, key: NewKey): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO api_keys (id, organization_id, name, prefix, hash, scopes, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(key.id, key.organizationId, key.name, key.prefix, key.hash, key.scopes.join(' '), key.createdAt);
}
