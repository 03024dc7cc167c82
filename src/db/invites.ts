import type { Organization } from '../ground/context.ts';
import type { NewUser } from './users.ts';
import type { Db } from '../ground/db-session.ts';

export interface NewInvite {
  id: string;
  organizationId: string;
  tokenHash: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

export function insertInviteStatement(db: Db, invite: NewInvite): D1PreparedStatement {
  return db
    .prepare('INSERT INTO invites (id, organization_id, token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(invite.id, invite.organizationId, invite.tokenHash, invite.createdBy, invite.createdAt, invite.expiresAt);
}

/** An invitation that can still be accepted at `now`, with its organization; null otherwise. */
export async function findOpenInvite(db: Db, tokenHash: string, now: string): Promise<{ id: string; organization: Organization; expiresAt: string } | null> {
  const row = await db
    .prepare(
      `SELECT i.id, i.expires_at, o.id AS organization_id, o.slug, o.name
         FROM invites i JOIN organizations o ON o.id = i.organization_id
        WHERE i.token_hash = ? AND i.used_at IS NULL AND i.expires_at > ?`,
    )
    .bind(tokenHash, now)
    .first<{ id: string; expires_at: string; organization_id: string; slug: string; name: string }>();
  return row ? { id: row.id, expiresAt: row.expires_at, organization: { id: row.organization_id, slug: row.slug, name: row.name } } : null;
}

/** How many invitations of the organization can still be accepted at `now`. */
export async function countOpenInvites(db: Db, organizationId: string, now: string): Promise<number> {
  const row = await db
    .prepare('SELECT count(*) AS n FROM invites WHERE organization_id = ? AND used_at IS NULL AND expires_at > ?')
    .bind(organizationId, now)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export interface InviteRecord {
  id: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  usedBy: string | null;
}

/** The organization's invitations, newest first, at most `limit`. */
export async function listInvites(db: Db, organizationId: string, limit: number): Promise<InviteRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT i.id, c.name AS createdBy, i.created_at AS createdAt, i.expires_at AS expiresAt, i.used_at AS usedAt, u.name AS usedBy
         FROM invites i JOIN users c ON c.id = i.created_by LEFT JOIN users u ON u.id = i.used_by
        WHERE i.organization_id = ? ORDER BY i.created_at DESC, i.id DESC LIMIT ?`,
    )
    .bind(organizationId, limit)
    .all<InviteRecord>();
  return results;
}

/**
 * The statements that spend an invitation on `userId` and add them to its organization, for one
 * D1 batch (one transaction). The first marks the invitation used only if it is still open; the
 * others insert only when that mark carries this user, so a second acceptance of the same link,
 * even a simultaneous one, adds nobody. `newUser` is inserted first when the person is new.
 * The first statement's `meta.changes` is 1 exactly when this acceptance won.
 */
export function acceptInviteStatements(
  db: Db,
  accept: { tokenHash: string; userId: string; now: string; newUser?: NewUser },
): D1PreparedStatement[] {
  const spent = 'SELECT 1 FROM invites WHERE token_hash = ? AND used_by = ?';
  const statements = [
    db
      .prepare('UPDATE invites SET used_at = ?, used_by = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?')
      .bind(accept.now, accept.userId, accept.tokenHash, accept.now),
  ];
  if (accept.newUser) {
    const user = accept.newUser;
    statements.push(
      db
        .prepare(`INSERT INTO users (id, email, name, password_hash, created_at) SELECT ?, ?, ?, ?, ? WHERE EXISTS (${spent})`)
        .bind(user.id, user.email, user.name, user.passwordHash, user.createdAt, accept.tokenHash, accept.userId),
    );
  }
  statements.push(
    db
      .prepare(
        `INSERT OR IGNORE INTO memberships (organization_id, user_id, created_at)
         SELECT organization_id, ?, ? FROM invites WHERE token_hash = ? AND used_by = ?`,
      )
      .bind(accept.userId, accept.now, accept.tokenHash, accept.userId),
  );
  return statements;
}
