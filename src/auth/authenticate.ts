import type { Principal } from '../ground/context.ts';
import { readConfig } from '../ground/config.ts';
import { DomainError } from '../ground/errors.ts';
import { findKeyByHash, touchKeyLastUsed, type KeyRecord } from '../db/api-keys.ts';
import { hashApiKey, looksLikeApiKey } from '../ground/api-key.ts';
import { BoundedMap } from '../ground/bounded-map.ts';
import type { RequestSession } from '../ground/db-session.ts';
import { clientAddressKey, FailedAuthThrottle } from './failed-auth-throttle.ts';

const LAST_USED_WRITE_INTERVAL_MS = 60_000;

interface CachedLookup {
  record: KeyRecord | null;
  fetchedAt: number;
}

/** Per kind of answer (found, not found), how many lookups an isolate remembers; the oldest goes first. */
const MAX_CACHED_LOOKUPS = 10_000;
const VALID_LATELY_MS = 60 * 60_000;

/**
 * Per-isolate memory of key lookups and last-used writes. Entries live at most `ttlMs`, which
 * bounds how long a revoked key keeps working in an isolate that already saw it. Keys that exist
 * and hashes that do not are kept apart, so a flood of made-up keys can only evict other made-up
 * keys, never the real ones.
 */
export class KeyCache {
  private readonly found: BoundedMap<string, CachedLookup>;
  private readonly missing: BoundedMap<string, CachedLookup>;
  /** Hashes of keys found valid lately: they skip the failed-authentication throttle (not the lookup). */
  private readonly validLately: BoundedMap<string, true>;
  /** Key ids whose last-used time was written within LAST_USED_WRITE_INTERVAL_MS. */
  private readonly lastUsedWrites: BoundedMap<string, true>;

  constructor(private readonly now: () => number = Date.now) {
    this.found = new BoundedMap({ max: MAX_CACHED_LOOKUPS });
    this.missing = new BoundedMap({ max: MAX_CACHED_LOOKUPS });
    this.validLately = new BoundedMap({ max: MAX_CACHED_LOOKUPS, ttlMs: VALID_LATELY_MS, now });
    this.lastUsedWrites = new BoundedMap({ max: MAX_CACHED_LOOKUPS, ttlMs: LAST_USED_WRITE_INTERVAL_MS, now });
  }

  get(hash: string, ttlMs: number): KeyRecord | null | undefined {
    for (const map of [this.found, this.missing]) {
      const hit = map.get(hash);
      if (!hit) continue;
      if (this.now() - hit.fetchedAt < ttlMs) return hit.record;
      map.delete(hash);
    }
    return undefined;
  }

  set(hash: string, record: KeyRecord | null): void {
    (record ? this.missing : this.found).delete(hash);
    (record ? this.found : this.missing).set(hash, { record, fetchedAt: this.now() });
    if (record && !record.revoked) this.validLately.set(hash, true);
    else this.validLately.delete(hash);
  }

  /**
   * True when this key was valid at its last lookup, within VALID_LATELY_MS: a client sharing an
   * address with someone who floods made-up keys keeps working when its cache entry expires.
   */
  wasValidLately(hash: string): boolean {
    return this.validLately.has(hash);
  }

  /** Forgets a key's lookup (after it was revoked here), so this isolate's next use reads D1 again. */
  forget(hash: string): void {
    this.found.delete(hash);
    this.missing.delete(hash);
    this.validLately.delete(hash);
  }

  /** True (and remembered) when this key's last-used time is due for a write. */
  claimLastUsedWrite(keyId: string): boolean {
    if (this.lastUsedWrites.has(keyId)) return false;
    this.lastUsedWrites.set(keyId, true);
    return true;
  }
}

const isolateCache = new KeyCache();

/**
 * SHA-256 of the keys this isolate saw lately (at most MAX_CACHED_LOOKUPS, the oldest dropped):
 * hashing was the largest single cost of a request with a cached key. A key is only ever compared
 * by its hash; the map holds what requests carried anyway, for as long as the isolate lives.
 */
const hashes = new BoundedMap<string, string>({ max: MAX_CACHED_LOOKUPS });

async function hashOf(key: string): Promise<string> {
  let hash = hashes.get(key);
  if (hash === undefined) {
    hash = await hashApiKey(key);
    hashes.set(key, hash);
  }
  return hash;
}
const isolateThrottle = new FailedAuthThrottle();

/**
 * Called when a key is revoked: this isolate stops accepting it at once. Other isolates that
 * cached it accept it until their entry is KEY_CACHE_TTL_MS old (at most 10 s).
 */
export function forgetCachedKey(hash: string, cache: KeyCache = isolateCache): void {
  cache.forget(hash);
}

export interface AuthenticateOptions {
  /** Where to hand the last-used write so it does not delay the response. */
  waitUntil: (promise: Promise<unknown>) => void;
  /** The client's address (`CF-Connecting-IP`); failed authentications are throttled per address. */
  clientAddress?: string;
  cache?: KeyCache;
  throttle?: FailedAuthThrottle;
}

/** How to get in, appended to every 401: what to send and where keys come from. */
const KEY_HINT = "send the header Authorization: Bearer rk_... with an API key of your organization (your organization's admin creates keys).";

function unauthorized(message: string): DomainError {
  return new DomainError('unauthorized', message, { challenge: 'Bearer realm="recon"' });
}

/**
 * Reads `Authorization: Bearer <key>`; returns the caller or throws 401 `unauthorized`. A key not
 * in the isolate's cache is looked up in D1, unless its address has failed too often lately: then
 * 429 `rate_limited` (FailedAuthThrottle), so made-up keys cannot turn into a flood of reads. Keys
 * that were valid at their last lookup (within the hour) are still looked up from such an address.
 * The lookup goes through the request's D1 session `db` at the primary (`latest()`), whatever
 * replica is near and whatever bookmark the client sent: with the cache's bound, a revoked key stops
 * working within KEY_CACHE_TTL_MS (at most 10 s).
 */
export async function authenticate(
  env: Env,
  db: RequestSession,
  authorization: string | undefined,
  options: AuthenticateOptions,
): Promise<Principal> {
  if (!authorization) {
    throw unauthorized(`Missing API key: ${KEY_HINT}`);
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) {
    throw unauthorized(`Malformed Authorization header: ${KEY_HINT}`);
  }
  const key = match[1]!;
  if (!looksLikeApiKey(key)) throw unauthorized(`Invalid API key: ${KEY_HINT}`);

  const cache = options.cache ?? isolateCache;
  const throttle = options.throttle ?? isolateThrottle;
  const address = clientAddressKey(options.clientAddress);
  const hash = await hashOf(key);
  let record = cache.get(hash, readConfig(env).KEY_CACHE_TTL_MS);
  if (record === undefined) {
    if (!cache.wasValidLately(hash)) throttle.assertAllowed(address);
    record = await findKeyByHash(db.latest(), hash);
    cache.set(hash, record);
  }
  if (!record || record.revoked) {
    await throttle.recordFailure(env.AUTH_FAILURE_RATE_LIMITER, address);
    throw record
      ? unauthorized("This API key has been revoked; ask your organization's admin for a new one and send it as the header Authorization: Bearer rk_...")
      : unauthorized(`Invalid API key: ${KEY_HINT}`);
  }

  if (cache.claimLastUsedWrite(record.principal.keyId)) {
    options.waitUntil(touchKeyLastUsed(db, record.principal.keyId, new Date().toISOString()));
  }
  return record.principal;
}
