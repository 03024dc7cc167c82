/**
 * API keys of the caller's organization, for the dashboard's key settings page: list, create,
 * revoke, replace. Keys are made exactly as the operator CLI makes them (src/ground/api-key.ts):
 * only the SHA-256 and a display prefix are stored, and the full key is answered once, here.
 *
 * Revocation: the key's row gets `revoked_at`, and this isolate forgets its cached lookup, so
 * here it fails at once; other isolates that cached it accept it until their cache entry is
 * KEY_CACHE_TTL_MS old (at most 10 s: the contract promises revocation everywhere within 10 s).
 */
import { z } from 'zod';
import { forgetCachedKey } from '../../auth/authenticate.ts';
import { displayPrefix, generateApiKey, hashApiKey, randomId, SCOPES, type Scope } from '../../ground/api-key.ts';
import type { CoreContext } from '../../ground/context.ts';
import { DomainError } from '../../ground/errors.ts';
import { parseInput } from '../../ground/validation.ts';
import {
  countActiveKeys,
  findKeyOfOrganization,
  insertKeyStatement,
  insertReplacementStatement,
  listKeysOfOrganization,
  revokeKeyStatement,
  type KeyListing,
} from '../../db/api-keys.ts';

/** Active keys an organization may hold at once. */
export const MAX_ACTIVE_KEYS = 50;
/** Keys (active and revoked) the settings page lists. */
export const KEY_LIST_LIMIT = 200;

export type { KeyListing };

export const CreateKeyInput = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('What the key is for, e.g. "CRM sync" (1-100 characters).'),
  scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length).describe('What the key may do: at least one scope.'),
});

/** A key just created: its listing and, this once, the full key. */
export interface CreatedKey {
  key: string;
  listing: KeyListing;
}

export async function listApiKeys(ctx: CoreContext): Promise<KeyListing[]> {
  return listKeysOfOrganization(ctx.db, ctx.principal.organization.id, KEY_LIST_LIMIT);
}

/** One key of the organization; 404 for an unknown key or another organization's. */
export async function getApiKey(ctx: CoreContext, keyId: string): Promise<KeyListing> {
  const key = await findKeyOfOrganization(ctx.db, ctx.principal.organization.id, keyId);
  if (!key) throw new DomainError('not_found', 'No such API key in your organization.');
  return key;
}

async function newKeyMaterial(ctx: CoreContext) {
  const key = generateApiKey();
  return {
    key,
    row: {
      id: randomId('key'),
      organizationId: ctx.principal.organization.id,
      prefix: displayPrefix(key),
      hash: await hashApiKey(key),
      createdAt: new Date().toISOString(),
    },
  };
}

async function assertRoomForAKey(ctx: CoreContext): Promise<void> {
  if ((await countActiveKeys(ctx.db, ctx.principal.organization.id)) >= MAX_ACTIVE_KEYS) {
    throw new DomainError('conflict', `Your organization already has ${MAX_ACTIVE_KEYS} active keys; revoke one you no longer use first.`);
  }
}

export async function createApiKey(ctx: CoreContext, raw: unknown): Promise<CreatedKey> {
  const input = parseInput(CreateKeyInput, raw, 'new key');
  await assertRoomForAKey(ctx);
  const { key, row } = await newKeyMaterial(ctx);
  const scopes: Scope[] = SCOPES.filter((scope) => input.scopes.includes(scope));
  await insertKeyStatement(ctx.db, { ...row, name: input.name, scopes }).run();
  return { key, listing: { id: row.id, name: input.name, prefix: row.prefix, scopes, createdAt: row.createdAt, lastUsedAt: null, revokedAt: null } };
}

function alreadyRevoked(): DomainError {
  return new DomainError('conflict', 'This API key is already revoked.');
}

/** Revokes an active key of the organization; 404 unknown, 409 already revoked. */
export async function revokeApiKey(ctx: CoreContext, keyId: string): Promise<KeyListing> {
  const key = await getApiKey(ctx, keyId);
  const row = await revokeKeyStatement(ctx.db, ctx.principal.organization.id, keyId, new Date().toISOString()).first<{ hash: string }>();
  if (!row) throw alreadyRevoked();
  forgetCachedKey(row.hash);
  return getApiKey(ctx, key.id);
}

/**
 * Replaces an active key: a new key with the same name and scopes, and the old one revoked, in one
 * batch (both or neither). Answers the new key, once.
 */
export async function replaceApiKey(ctx: CoreContext, keyId: string): Promise<CreatedKey & { replaced: KeyListing }> {
  const old = await getApiKey(ctx, keyId);
  if (old.revokedAt) throw alreadyRevoked();
  const { key, row } = await newKeyMaterial(ctx);
  const [inserted, revoked] = await ctx.db.batch<{ hash: string }>([
    insertReplacementStatement(ctx.db, row, keyId),
    revokeKeyStatement(ctx.db, ctx.principal.organization.id, keyId, row.createdAt),
  ]);
  if (inserted?.meta.changes !== 1) {
    // Revoked by someone else meanwhile: the batch inserted nothing and revoked nothing.
    throw alreadyRevoked();
  }
  const hash = revoked?.results[0]?.hash;
  if (hash) forgetCachedKey(hash);
  return { key, listing: await getApiKey(ctx, row.id), replaced: await getApiKey(ctx, keyId) };
}
