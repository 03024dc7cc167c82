import { hashApiKey } from '../ground/api-key.ts';
import { toBase64url } from '../ground/encoding.ts';

/**
 * Random bearer tokens for browser sessions and invitation links: 32 random bytes, base64url.
 * Only their SHA-256 (hex, as for API keys) is ever stored.
 */
export function newSecretToken(): string {
  return toBase64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** What sessions and invites are stored and looked up by. */
export const hashSecretToken: (token: string) => Promise<string> = hashApiKey;

/** True when `value` has the shape of a token from newSecretToken; a cheap check before any lookup. */
export function looksLikeSecretToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
