/**
 * Password hashing for dashboard accounts: PBKDF2-HMAC-SHA256 through WebCrypto, a random 16-byte
 * salt per password, a 32-byte derived key, compared in constant time.
 *
 * Stored as `pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>`, so the iteration count can be
 * raised later: a password stored with fewer than PASSWORD_ITERATIONS is re-hashed at its next
 * successful sign-in (`needsRehash`).
 *
 * Iterations: OWASP's Password Storage Cheat Sheet asks 600,000 for PBKDF2-HMAC-SHA256, but
 * deployed Workers refuse more than 100,000 (`Pbkdf2 failed: iteration counts above 100000 are not
 * supported`; workerd issue #1346), so 100,000 is the most a Worker can do. The local runtime
 * (workerd 1.20261023) accepts more, so a higher count would pass every local test and break
 * sign-in once deployed. One hash took 20-40 ms on this 2-core machine (test/auth/password.test.ts logs it).
 */
import { fromBase64, toBase64 } from '../ground/encoding.ts';

export const PASSWORD_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const SCHEME = 'pbkdf2-sha256';
/** Bounds the work an attacker can ask of one hash: a stored hash naming more iterations is refused. */
const MAX_ITERATIONS = 100_000;

const encoder = new TextEncoder();

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, HASH_BYTES * 8);
  return new Uint8Array(bits);
}

/** A new stored hash of `password` with a fresh random salt. */
export async function hashPassword(password: string, iterations = PASSWORD_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `${SCHEME}$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

interface ParsedHash {
  iterations: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

function parseStoredHash(stored: string): ParsedHash | undefined {
  const [scheme, iterationsText, saltText, hashText, ...rest] = stored.split('$');
  if (scheme !== SCHEME || rest.length > 0 || !iterationsText || !saltText || !hashText) return undefined;
  const iterations = Number(iterationsText);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) return undefined;
  const salt = fromBase64(saltText);
  const hash = fromBase64(hashText);
  if (!salt || !hash || hash.length !== HASH_BYTES) return undefined;
  return { iterations, salt, hash };
}

/** Constant-time equality of two byte strings of the same length. */
function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  return crypto.subtle.timingSafeEqual(a, b);
}

/** True when `password` matches `stored`; false for a wrong password or a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.iterations);
  return timingSafeEqual(candidate, parsed.hash);
}

/** True when `stored` was made with fewer iterations than today's (re-hash it after a successful sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parseStoredHash(stored);
  return !parsed || parsed.iterations < PASSWORD_ITERATIONS;
}

/** A hash of a random password nobody knows (made once with Node's crypto.pbkdf2Sync, same parameters). */
export const DUMMY_HASH = 'pbkdf2-sha256$100000$exIRh/Ufqrffj2O3FpHNWQ==$NWKdlu0BzF8j1Usban3FOvTf2c49ZQEc+x5q9Idn7Fk=';

/**
 * Spends what verifying a real password costs, for a sign-in with an unknown email: the answer
 * then takes as long as a wrong password, so timing does not tell which emails have accounts.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  await verifyPassword(password, DUMMY_HASH);
  return false;
}
