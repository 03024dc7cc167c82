/**
 * Dashboard accounts: sign up (an organization and its first user), sign in, sign out, and the
 * session a browser's cookie stands for. The dashboard is the only door that calls these.
 *
 * Sessions: the cookie holds a random token (src/auth/secret-token.ts); D1 keeps only its SHA-256,
 * the user, the organization and an absolute expiry (SESSION_TTL_MS). Every sign-in makes a new
 * token and deletes the one the browser brought (rotation), sign-out deletes the row.
 *
 * Sign-in answers the same thing, after the same work, whether the email is unknown or the
 * password wrong (an unknown email is checked against a dummy hash), and it is throttled per
 * client address and per account with the SIGN_IN_RATE_LIMITER binding.
 */
import { z } from 'zod';
import { hashPassword, needsRehash, verifyDummyPassword, verifyPassword } from '../../auth/password.ts';
import { hashSecretToken, looksLikeSecretToken, newSecretToken } from '../../auth/secret-token.ts';
import { clientAddressKey } from '../../auth/failed-auth-throttle.ts';
import { randomId } from '../../ground/api-key.ts';
import { DomainError, rateLimited } from '../../ground/errors.ts';
import { toHex } from '../../ground/encoding.ts';
import { parseInput } from '../../ground/validation.ts';
import { insertOrganizationStatement } from '../../db/organizations.ts';
import {
  deleteExpiredSessionsStatement,
  deleteSessionStatement,
  findLiveSession,
  insertSessionStatement,
  type SessionRecord,
} from '../../db/sessions.ts';
import { findUserByEmail, firstOrganizationOf, insertMembershipStatement, insertUserStatement, updatePasswordHash } from '../../db/users.ts';
import type { Db } from '../../ground/db-session.ts';

/** How long a session lasts from sign-in, whatever happens in between (then: sign in again). */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A live session: the signed-in person, their current organization and whether it finished onboarding. */
export type { SessionRecord };

// ---------------------------------------------------------------------------------------------
// Inputs

export const Email = z.string().trim().toLowerCase().max(254).pipe(z.email()).describe('Your work email, e.g. ada@acme.com.');
/** A new password: 12 to 256 characters (long enough to resist guessing, short enough to bound hashing). */
export const NewPassword = z.string().min(12).max(256).describe('At least 12 characters.');
export const PersonName = z.string().trim().min(1).max(100).describe('Your name, e.g. Ada Lovelace.');

export const SignUpInput = z.strictObject({
  organizationName: z.string().trim().min(1).max(100).describe('Your organization, e.g. Acme Analytics.'),
  name: PersonName,
  email: Email,
  password: NewPassword,
});

export const SignInInput = z.strictObject({
  email: Email,
  // Not the sign-up rules: a wrong password must get the one generic answer, never a rule.
  password: z.string().min(1).max(256),
});

// ---------------------------------------------------------------------------------------------
// Throttling

const THROTTLE_RETRY_SECONDS = 60;

/**
 * Counts one attempt against each key (`address:<ip>`, `account:<email>`) with SIGN_IN_RATE_LIMITER
 * (wrangler.toml: 10 a minute each); throws 429 once any is spent, before any password is hashed.
 */
export async function throttleAttempt(env: Env, keys: string[], what: string): Promise<void> {
  for (const key of keys) {
    const { success } = await env.SIGN_IN_RATE_LIMITER.limit({ key });
    if (!success) throw rateLimited(THROTTLE_RETRY_SECONDS, `Too many ${what} attempts from your address or for this account; wait a minute and try again.`);
  }
}

export function addressThrottleKey(clientAddress: string | undefined): string {
  return `address:${clientAddressKey(clientAddress)}`;
}

// ---------------------------------------------------------------------------------------------
// Sessions

/** A new session's cookie token and when it expires. */
export interface IssuedSession {
  token: string;
  expiresAt: string;
}

async function newSession(db: Db, userId: string, organizationId: string, now: Date): Promise<{ issued: IssuedSession; statement: D1PreparedStatement }> {
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
  const statement = insertSessionStatement(db, {
    tokenHash: await hashSecretToken(token),
    userId,
    organizationId,
    createdAt: now.toISOString(),
    expiresAt,
  });
  return { issued: { token, expiresAt }, statement };
}

/**
 * Starts a session for `userId` in `organizationId`. The statements `before` run first in the same
 * batch (one transaction); their results come back in `results`.
 */
export async function startSession(
  db: Db,
  userId: string,
  organizationId: string,
  options: { previousToken?: string; before?: D1PreparedStatement[] } = {},
): Promise<IssuedSession & { results: D1Result[] }> {
  const now = new Date();
  const { issued, statement } = await newSession(db, userId, organizationId, now);
  const statements = [...(options.before ?? []), statement, deleteExpiredSessionsStatement(db, userId, now.toISOString())];
  if (options.previousToken && looksLikeSecretToken(options.previousToken)) {
    statements.push(deleteSessionStatement(db, await hashSecretToken(options.previousToken)));
  }
  const results = await db.batch(statements);
  return { ...issued, results: results.slice(0, options.before?.length ?? 0) };
}

/** The live session the cookie's token stands for, or null (unknown, expired, signed out, malformed). */
export async function readSession(db: Db, token: string | undefined): Promise<SessionRecord | null> {
  if (!token || !looksLikeSecretToken(token)) return null;
  return findLiveSession(db, await hashSecretToken(token), new Date().toISOString());
}

/** Ends the session of `token` (a no-op when there is none). */
export async function signOut(db: Db, token: string | undefined): Promise<void> {
  if (!token || !looksLikeSecretToken(token)) return;
  await deleteSessionStatement(db, await hashSecretToken(token)).run();
}

// ---------------------------------------------------------------------------------------------
// Sign up and sign in

const SLUG_MAX = 40;

/** An operator-facing slug from an organization's name: `Acme Analytics` -> `acme-analytics`. */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug.length >= 2 ? slug : 'org';
}

function randomSuffix(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(3)));
}

function isUniqueViolation(error: unknown, column: string): boolean {
  return error instanceof Error && /UNIQUE constraint failed/i.test(error.message) && error.message.includes(column);
}

/** The answer when an email already has an account (sign-up and invitations alike). */
export function emailTaken(): DomainError {
  return new DomainError('conflict', 'This email cannot be used for a new account. If it is yours, sign in instead.', {
    details: [{ path: 'email', message: 'This email cannot be used for a new account. If it is yours, sign in instead.' }],
  });
}

/**
 * Creates an organization (slug from its name, made unique with a suffix when taken), its first
 * user and their session, in one batch: all or nothing.
 */
export async function signUp(env: Env, db: Db, raw: unknown, options: { clientAddress?: string }): Promise<IssuedSession & { organizationSlug: string }> {
  const input = parseInput(SignUpInput, raw, 'sign-up form');
  await throttleAttempt(env, [addressThrottleKey(options.clientAddress)], 'sign-up');
  const now = new Date().toISOString();
  const userId = randomId('usr');
  const passwordHash = await hashPassword(input.password);
  const base = slugFromName(input.organizationName);
  for (let attempt = 0; attempt < 3; attempt++) {
    const organization = { id: randomId('org'), slug: attempt === 0 ? base : `${base}-${randomSuffix()}`, name: input.organizationName, createdAt: now };
    try {
      const issued = await startSession(db, userId, organization.id, {
        before: [
          insertOrganizationStatement(db, organization),
          insertUserStatement(db, { id: userId, email: input.email, name: input.name, passwordHash, createdAt: now }),
          insertMembershipStatement(db, organization.id, userId, now),
        ],
      });
      return { token: issued.token, expiresAt: issued.expiresAt, organizationSlug: organization.slug };
    } catch (error) {
      if (isUniqueViolation(error, 'users.email')) throw emailTaken();
      if (!isUniqueViolation(error, 'organizations.slug')) throw error;
    }
  }
  throw new Error('Could not find a free organization slug in 3 attempts.');
}

const WRONG_CREDENTIALS = 'That email and password do not match an account. Check both and try again.';

/**
 * Checks the email and password and starts a new session in the user's first organization. One
 * answer for an unknown email and a wrong password, after the same hashing work.
 */
export async function signIn(env: Env, db: Db, raw: unknown, options: { clientAddress?: string; previousToken?: string }): Promise<IssuedSession> {
  const input = parseInput(SignInInput, raw, 'sign-in form');
  await throttleAttempt(env, [addressThrottleKey(options.clientAddress), `account:${input.email}`], 'sign-in');
  const user = await findUserByEmail(db, input.email);
  const matches = user ? await verifyPassword(input.password, user.passwordHash) : await verifyDummyPassword(input.password);
  if (!user || !matches) throw new DomainError('unauthorized', WRONG_CREDENTIALS);
  const organization = await firstOrganizationOf(db, user.id);
  if (!organization) throw new DomainError('unauthorized', WRONG_CREDENTIALS);
  if (needsRehash(user.passwordHash)) await updatePasswordHash(db, user.id, await hashPassword(input.password));
  const { token, expiresAt } = await startSession(db, user.id, organization.id, { previousToken: options.previousToken });
  return { token, expiresAt };
}
