import type { Principal } from '../core/context.ts';
import { readConfig } from '../config.ts';
import { DomainError } from '../core/errors.ts';
import { findKeyByHash, touchKeyLastUsed, type KeyRecord } from '../db/api-keys.ts';
import { hashApiKey, looksLikeApiKey } from './api-key.ts';

const LAST_USED_WRITE_INTERVAL_MS = 60_000;

interface CachedLookup {
  record: KeyRecord | null;
  fetchedAt: number;
}

/**
 * Per-isolate memory of key lookups and last-used writes. Entries live at most `ttlMs`, which
 * bounds how long a revoked key keeps working in an isolate that already saw it.
 */
export class KeyCache {
  private readonly lookups = new Map<string, CachedLookup>();
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  get(hash: string, ttlMs: number): KeyRecord | null | undefined {
    const hit = this.lookups.get(hash);
    if (!hit) return undefined;
    if (this.now() - hit.fetchedAt >= ttlMs) {
      this.lookups.delete(hash);
      return undefined;
    }
    return hit.record;
  }

  set(hash: string, record: KeyRecord | null): void {
    // Unknown hashes are remembered too, so a flood of bad keys does not become a flood of reads;
    // the map is bounded so it cannot grow without limit either.
    if (this.lookups.size >= 10_000) this.lookups.clear();
    this.lookups.set(hash, { record, fetchedAt: this.now() });
  }

  /** True (and remembered) when this key's last-used time is due for a write. */
  claimLastUsedWrite(keyId: string): boolean {
    const last = this.lastUsedWrites.get(keyId);
    if (last !== undefined && this.now() - last < LAST_USED_WRITE_INTERVAL_MS) return false;
    this.lastUsedWrites.set(keyId, this.now());
    return true;
  }
}

const isolateCache = new KeyCache();

export interface AuthenticateOptions {
  /** Where to hand the last-used write so it does not delay the response. */
  waitUntil: (promise: Promise<unknown>) => void;
  cache?: KeyCache;
}

function unauthorized(message: string): DomainError {
  return new DomainError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer realm="recon"' } });
}

/** Reads `Authorization: Bearer <key>`; returns the caller or throws 401 `unauthorized`. */
export async function authenticate(
  env: Env,
  authorization: string | undefined,
  options: AuthenticateOptions,
): Promise<Principal> {
  if (!authorization) {
    throw unauthorized('Missing API key: send it as the header Authorization: Bearer <key>.');
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) {
    throw unauthorized('Malformed Authorization header: expected "Bearer <key>".');
  }
  const key = match[1]!;
  if (!looksLikeApiKey(key)) throw unauthorized('Invalid API key.');

  const cache = options.cache ?? isolateCache;
  const hash = await hashApiKey(key);
  let record = cache.get(hash, readConfig(env).KEY_CACHE_TTL_MS);
  if (record === undefined) {
    record = await findKeyByHash(env.DB, hash);
    cache.set(hash, record);
  }
  if (!record) throw unauthorized('Invalid API key.');
  if (record.revoked) throw unauthorized('This API key has been revoked; create a new one.');

  if (cache.claimLastUsedWrite(record.principal.keyId)) {
    options.waitUntil(touchKeyLastUsed(env.DB, record.principal.keyId, new Date().toISOString()));
  }
  return record.principal;
}
