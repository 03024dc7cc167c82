import type { Scope } from '../ground/api-key.ts';
import { parseScopes } from '../ground/api-key.ts';
import type { Principal } from '../ground/context.ts';
import type { Db } from '../ground/db-session.ts';

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
export async function findKeyByHash(db: Db, hash: string): Promise<KeyRecord | null> {
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
export async function touchKeyLastUsed(db: Db, keyId: string, at: string): Promise<void> {
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
export function insertKeyStatement(db: Db, key: NewKey): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO api_keys (id, organization_id, name, prefix, hash, scopes, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(key.id, key.organizationId, key.name, key.prefix, key.hash, key.scopes.join(' '), key.createdAt);
}

/** A key as the dashboard lists it: never the key itself or its hash. */
export interface KeyListing {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface KeyListingRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function toListing(row: KeyListingRow): KeyListing {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: parseScopes(row.scopes).scopes,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

const LISTING_COLUMNS = 'id, name, prefix, scopes, created_at, last_used_at, revoked_at';

/** The organization's keys, active ones first, then newest first; at most `limit`. */
export async function listKeysOfOrganization(db: Db, organizationId: string, limit: number): Promise<KeyListing[]> {
  const { results } = await db
    .prepare(
      `SELECT ${LISTING_COLUMNS} FROM api_keys WHERE organization_id = ?
        ORDER BY revoked_at IS NOT NULL, created_at DESC, id DESC LIMIT ?`,
    )
    .bind(organizationId, limit)
    .all<KeyListingRow>();
  return results.map(toListing);
}

/** One key of the organization, or null (another organization's key is null too). */
export async function findKeyOfOrganization(db: Db, organizationId: string, keyId: string): Promise<KeyListing | null> {
  const row = await db
    .prepare(`SELECT ${LISTING_COLUMNS} FROM api_keys WHERE organization_id = ? AND id = ?`)
    .bind(organizationId, keyId)
    .first<KeyListingRow>();
  return row ? toListing(row) : null;
}

/** How many of the organization's keys are not revoked. */
export async function countActiveKeys(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .prepare('SELECT count(*) AS n FROM api_keys WHERE organization_id = ? AND revoked_at IS NULL')
    .bind(organizationId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Revokes the organization's key `keyId` if it is active; answers its hash (to forget it from the
 * isolate's key cache), or null when there was no such active key.
 */
export function revokeKeyStatement(db: Db, organizationId: string, keyId: string, at: string): D1PreparedStatement {
  return db
    .prepare('UPDATE api_keys SET revoked_at = ? WHERE organization_id = ? AND id = ? AND revoked_at IS NULL RETURNING hash')
    .bind(at, organizationId, keyId);
}

/**
 * Inserts `key` with the name and scopes of the organization's active key `oldKeyId`, and only if
 * that key is active: with revokeKeyStatement after it in one batch, a replacement.
 */
export function insertReplacementStatement(db: Db, key: Omit<NewKey, 'name' | 'scopes'>, oldKeyId: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO api_keys (id, organization_id, name, prefix, hash, scopes, created_at)
       SELECT ?, organization_id, name, ?, ?, scopes, ? FROM api_keys
        WHERE organization_id = ? AND id = ? AND revoked_at IS NULL`,
    )
    .bind(key.id, key.prefix, key.hash, key.createdAt, key.organizationId, oldKeyId);
}

/** An active key as the audit checks it: when it was made and last used. */
export interface ActiveKey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The organization's active (not revoked) keys, the oldest first; at most `limit`. */
export async function listActiveKeys(db: Db, organizationId: string, limit: number): Promise<ActiveKey[]> {
  const { results } = await db
    .prepare(`SELECT id, name, created_at, last_used_at FROM api_keys WHERE organization_id = ? AND revoked_at IS NULL ORDER BY created_at LIMIT ?`)
    .bind(organizationId, limit)
    .all<{ id: string; name: string; created_at: string; last_used_at: string | null }>();
  return results.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at }));
}
