/**
 * Teammates: members of the caller's organization, and one-time invitation links. A link carries
 * a random token (only its SHA-256 is stored), expires after INVITE_TTL_MS and works once: the
 * acceptance that marks it used is the one that adds its person (src/db/invites.ts).
 */
import { z } from 'zod';
import { hashPassword } from '../../auth/password.ts';
import { hashSecretToken, looksLikeSecretToken, newSecretToken } from '../../auth/secret-token.ts';
import { randomId } from '../../ground/api-key.ts';
import type { CoreContext, Organization } from '../../ground/context.ts';
import { DomainError } from '../../ground/errors.ts';
import { parseInput } from '../../ground/validation.ts';
import { acceptInviteStatements, countOpenInvites, findOpenInvite, insertInviteStatement, listInvites, type InviteRecord } from '../../db/invites.ts';
import { listMembers, type MemberRecord } from '../../db/users.ts';
import type { Db } from '../../ground/db-session.ts';
import {
  addressThrottleKey,
  Email,
  emailTaken,
  NewPassword,
  PersonName,
  signOut,
  startSession,
  throttleAttempt,
  type IssuedSession,
} from './account.ts';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Open invitations an organization may have at once. */
export const MAX_OPEN_INVITES = 20;
/** Members and invitations the team page lists. */
export const TEAM_LIST_LIMIT = 200;

export interface TeamView {
  members: MemberRecord[];
  invites: InviteRecord[];
}

export async function getTeam(ctx: CoreContext): Promise<TeamView> {
  const org = ctx.principal.organization.id;
  const [members, invites] = await Promise.all([listMembers(ctx.db, org, TEAM_LIST_LIMIT), listInvites(ctx.db, org, TEAM_LIST_LIMIT)]);
  return { members, invites };
}

/**
 * A new invitation link's token (shown once) and expiry. The inviter is the caller's credential,
 * a person's user id (`usr_...`): the dashboard's core context names the signed-in person so.
 */
export async function createInvite(ctx: CoreContext): Promise<{ token: string; expiresAt: string }> {
  const now = new Date();
  const org = ctx.principal.organization.id;
  if ((await countOpenInvites(ctx.db, org, now.toISOString())) >= MAX_OPEN_INVITES) {
    throw new DomainError('conflict', `Your organization already has ${MAX_OPEN_INVITES} open invitations; wait until some are used or expire.`);
  }
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS).toISOString();
  await insertInviteStatement(ctx.db, {
    id: randomId('inv'),
    organizationId: org,
    tokenHash: await hashSecretToken(token),
    createdBy: ctx.principal.keyId,
    createdAt: now.toISOString(),
    expiresAt,
  }).run();
  return { token, expiresAt };
}

const INVALID_LINK = 'This invitation link cannot be used: it may have expired or been used already. Ask your teammate for a new one.';

/** The organization an open invitation joins, or 404 when the link is unknown, used or expired. */
export async function describeInvite(db: Db, token: string | undefined): Promise<{ organization: Organization; expiresAt: string }> {
  const invite = token && looksLikeSecretToken(token) ? await findOpenInvite(db, await hashSecretToken(token), new Date().toISOString()) : null;
  if (!invite) throw new DomainError('not_found', INVALID_LINK);
  return { organization: invite.organization, expiresAt: invite.expiresAt };
}

export const AcceptInviteInput = z.strictObject({ name: PersonName, email: Email, password: NewPassword });

/**
 * Spends the invitation: a signed-in person (`userId`) joins its organization; anyone else gives a
 * name, email and password (`raw`) and gets a new account. Either way a new session in the
 * invitation's organization starts. A link already used or expired is 404, and adds nobody.
 */
export async function acceptInvite(
  env: Env,
  db: Db,
  token: string | undefined,
  who: { userId: string; previousToken?: string } | { raw: unknown },
  options: { clientAddress?: string },
): Promise<IssuedSession> {
  const input = 'raw' in who ? parseInput(AcceptInviteInput, who.raw, 'invitation form') : undefined;
  await throttleAttempt(env, [addressThrottleKey(options.clientAddress)], 'invitation');
  const { organization } = await describeInvite(db, token);
  const tokenHash = await hashSecretToken(token!);
  const now = new Date().toISOString();
  const userId = 'userId' in who ? who.userId : randomId('usr');
  const newUser = input ? { id: userId, email: input.email, name: input.name, passwordHash: await hashPassword(input.password), createdAt: now } : undefined;
  const statements = acceptInviteStatements(db, { tokenHash, userId, now, newUser });
  let started: Awaited<ReturnType<typeof startSession>>;
  try {
    started = await startSession(db, userId, organization.id, {
      previousToken: 'userId' in who ? who.previousToken : undefined,
      before: statements,
    });
  } catch (error) {
    if (error instanceof Error && /UNIQUE constraint failed/i.test(error.message) && error.message.includes('users.email')) throw emailTaken();
    // A new person lost the race for the link: their user row was not inserted, so their session's
    // foreign key failed and the whole batch was rolled back. Nothing was written.
    if (error instanceof Error && /FOREIGN KEY constraint failed/i.test(error.message) && 'raw' in who) throw new DomainError('not_found', INVALID_LINK);
    throw error;
  }
  // A signed-in person lost the race: nobody was added, and the session written with the batch
  // could never be read (its lookup joins memberships); drop it.
  if (started.results[0]?.meta.changes !== 1) {
    await signOut(db, started.token);
    throw new DomainError('not_found', INVALID_LINK);
  }
  return { token: started.token, expiresAt: started.expiresAt };
}
