/**
 * API key format, generation and hashing. It imports only sha256.ts and encoding.ts (Web Crypto and
 * nothing else), so the operator CLI (plain Node) and the Worker share it.
 *
 * A key is `rk_live_` followed by 43 base62 characters (32 random bytes). Only its SHA-256 (hex)
 * and a short display prefix are ever stored.
 */
import { toHex } from './encoding.ts';
import { sha256Hex } from './sha256.ts';

export const SCOPES = ['commands', 'oms:read', 'oms:write', 'oms:approve'] as const;
export type Scope = (typeof SCOPES)[number];

export const LIVE_KEY_PREFIX = 'rk_live_';
const KEY_PATTERN = /^rk_(?:live|test)_[A-Za-z0-9_]{16,100}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DISPLAY_PREFIX_LENGTH = 12;

/** True when `value` has the shape of a Recon key; a cheap check before any storage lookup. */
export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** A new random key: `rk_live_` + 32 random bytes in base62. */
export function generateApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let n = 0n;
  for (const byte of bytes) n = (n << 8n) | BigInt(byte);
  let body = '';
  for (let i = 0; i < 43; i++) {
    body = BASE62[Number(n % 62n)] + body;
    n /= 62n;
  }
  return LIVE_KEY_PREFIX + body;
}

/** Hex SHA-256 of the full key: what the api_keys table stores and looks up by. */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}

/** The part of a key that is safe to show in listings, e.g. `rk_live_7Gq2…`. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH) + '…';
}

/** Parses a comma- or space-separated scope list; returns the unknown names separately. */
export function parseScopes(list: string): { scopes: Scope[]; unknown: string[] } {
  const names = list.split(/[\s,]+/).filter(Boolean);
  const unknown = names.filter((name) => !(SCOPES as readonly string[]).includes(name));
  const scopes = SCOPES.filter((scope) => names.includes(scope));
  return { scopes, unknown };
}

/** An opaque random id with a type prefix, e.g. `key_9f3c…` (16 random bytes, hex). */
export function randomId(prefix: string): string {
  return `${prefix}_${toHex(crypto.getRandomValues(new Uint8Array(16)))}`;
}
