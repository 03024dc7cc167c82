/**
 * SHA-256 of text in UTF-8: how API keys, session and invite tokens and OAuth tokens are stored or
 * compared, and how page-token list names of OMS searches are derived. Web Crypto only, importing
 * only encoding.ts, so the operator CLI (plain Node) shares it through api-key.ts.
 */
import { toHex } from './encoding.ts';

const encoder = new TextEncoder();

/** The SHA-256 digest (32 bytes) of `text` in UTF-8. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** The SHA-256 of `text` in UTF-8 as 64 lower-case hex digits. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await sha256(text));
}
