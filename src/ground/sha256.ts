/**
 * SHA-256 of text and bytes as lower-case hex: how API keys, session and invite tokens and OAuth
 * tokens are stored or compared, and how list names of page tokens are derived. Web Crypto only and
 * free of imports, so the operator CLI (plain Node) shares it through api-key.ts.
 */

const encoder = new TextEncoder();

/** Lower-case hex of `bytes`, two digits a byte. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** The SHA-256 digest (32 bytes) of `text` in UTF-8. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** The SHA-256 of `text` in UTF-8 as 64 lower-case hex digits. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await sha256(text));
}
