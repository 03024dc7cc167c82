/**
 * Bytes as text and back: hex (hashes and random ids), base64 (password hashes, webhook secrets and
 * signatures), base64url without padding (tokens in URLs and cookies) and percent-encoding. Free of imports, so the
 * operator CLI (plain Node) shares it through api-key.ts.
 */

/** Lower-case hex of `bytes`, two digits a byte. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** `text` percent-encoded byte by byte as UTF-8, upper-case hex (`(` -> `%28`, `é` -> `%C3%A9`). */
export function percentEncode(text: string): string {
  let encoded = '';
  for (const byte of new TextEncoder().encode(text)) encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return encoded;
}

function binaryOf(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return binary;
}

/** Standard base64, with padding. */
export function toBase64(bytes: Uint8Array): string {
  return btoa(binaryOf(bytes));
}

/** The bytes of standard base64 text; undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** URL- and cookie-safe base64 (`-` and `_`), without padding. */
export function toBase64url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of unpadded base64url text; undefined when it is not base64url. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}
