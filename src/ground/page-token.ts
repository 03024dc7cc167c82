import type { z } from 'zod';
import { readConfig } from './config.ts';
import { fromBase64url, toBase64url } from './encoding.ts';
import { DomainError } from './errors.ts';
import { logEvent } from './log.ts';

/**
 * Page tokens: what every paged list hands out as `nextCursor` / `nextPageToken` and takes back.
 * Opaque and tamper-evident, for keyset pagination (never OFFSET), as the contract decides: `<payload>.<mac>`, both base64url, where the
 * payload is JSON `{ o: organization id, l: list name, p: keyset position, e: expiry (epoch s) }`
 * and the mac is HMAC-SHA256 over the payload with the `PAGE_TOKEN_SECRET` secret. A token is
 * only valid for the organization and the list that issued it, and for a day.
 *
 * Without the secret (local development), each isolate generates one: tokens still verify within
 * that isolate, and nothing that was not issued by it is ever accepted.
 */

/** How long a token stays valid: long enough to page through anything, short enough to age out. */
export const PAGE_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** Tokens we issue are far shorter; anything longer is rejected before any decoding. */
export const MAX_PAGE_TOKEN_LENGTH = 1_024;

interface TokenPayload {
  o: string;
  l: string;
  p: unknown;
  e: number;
}

export interface PageTokenScope {
  organizationId: string;
  /** Which list the token pages through, e.g. `runs`; a token of another list is refused. */
  list: string;
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();
let generatedSecret: string | undefined;

function secretOf(env: Env): string {
  const configured = readConfig(env).PAGE_TOKEN_SECRET;
  if (configured) return configured;
  if (!generatedSecret) {
    generatedSecret = toBase64url(crypto.getRandomValues(new Uint8Array(32)));
    logEvent('page_token_secret_generated', {
      note: 'PAGE_TOKEN_SECRET is not set; page tokens are valid only in this isolate. Set the secret in production.',
    });
  }
  return generatedSecret;
}

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

/** A signed token for `position` in the list `scope` names. */
export async function signPageToken(env: Env, scope: PageTokenScope, position: unknown, now = Date.now()): Promise<string> {
  const payload: TokenPayload = { o: scope.organizationId, l: scope.list, p: position, e: Math.floor(now / 1000) + PAGE_TOKEN_TTL_SECONDS };
  const body = toBase64url(encoder.encode(JSON.stringify(payload)));
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secretOf(env)), encoder.encode(body)));
  return `${body}.${toBase64url(mac)}`;
}

/**
 * The position a token carries, once its signature, organization, list, expiry and the position's
 * shape all check out; otherwise 400 `invalid_input` naming `field`. Which check failed is not
 * said: a forged token learns nothing.
 */
export async function readPageToken<S extends z.ZodType>(
  env: Env,
  token: string,
  scope: PageTokenScope,
  position: S,
  field: string,
  now = Date.now(),
): Promise<z.output<S>> {
  const invalid = () =>
    new DomainError('invalid_input', `The ${field} is not one this API gave out for this list, or it has expired; start again without it.`, {
      details: [{ path: field, message: 'invalid or expired page token' }],
    });
  if (token.length > MAX_PAGE_TOKEN_LENGTH) throw invalid();
  const [body, mac, extra] = token.split('.');
  const macBytes = mac === undefined ? undefined : fromBase64url(mac);
  if (!body || !macBytes || extra !== undefined) throw invalid();
  const genuine = await crypto.subtle.verify('HMAC', await hmacKey(secretOf(env)), macBytes, encoder.encode(body));
  if (!genuine) throw invalid();
  let payload: TokenPayload;
  try {
    payload = JSON.parse(new TextDecoder().decode(fromBase64url(body))) as TokenPayload;
  } catch {
    throw invalid();
  }
  if (payload.o !== scope.organizationId || payload.l !== scope.list || !(payload.e * 1000 > now)) throw invalid();
  const parsed = position.safeParse(payload.p);
  if (!parsed.success) throw invalid();
  return parsed.data;
}
