import type { Organization } from '../ground/context.ts';
import type { Db } from '../ground/db-session.ts';

export interface NewSession {
  tokenHash: string;
  userId: string;
  organizationId: string;
  createdAt: string;
  expiresAt: string;
}

export function insertSessionStatement(db: Db, session: NewSession): D1PreparedStatement {
  return db
    .prepare('INSERT INTO sessions (token_hash, user_id, organization_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
    .bind(session.tokenHash, session.userId, session.organizationId, session.createdAt, session.expiresAt);
}

/** A live session with its user, organization and whether that organization finished onboarding. */
export interface SessionRecord {
  user: { id: string; email: string; name: string };
  organization: Organization;
  onboarded: boolean;
  expiresAt: string;
}

interface SessionRow {
  user_id: string;
  email: string;
  user_name: string;
  organization_id: string;
  slug: string;
  org_name: string;
  complete: number | null;
  expires_at: string;
}

/**
 * The session whose token hashes to `tokenHash`, unless it expired by `now` or its user no longer
 * belongs to its organization. One read: the onboarding state comes with it for the banner.
 */
export async function findLiveSession(db: Db, tokenHash: string, now: string): Promise<SessionRecord | null> {
  const row = await db
    .prepare(
      `SELECT s.user_id, u.email, u.name AS user_name, o.id AS organization_id, o.slug, o.name AS org_name,
              p.complete, s.expires_at
         FROM sessions s
         JOIN users u ON u.id = s.user_id
         JOIN memberships m ON m.user_id = s.user_id AND m.organization_id = s.organization_id
         JOIN organizations o ON o.id = s.organization_id
         LEFT JOIN sales_profiles p ON p.organization_id = s.organization_id
        WHERE s.token_hash = ? AND s.expires_at > ?`,
    )
    .bind(tokenHash, now)
    .first<SessionRow>();
  if (!row) return null;
  return {
    user: { id: row.user_id, email: row.email, name: row.user_name },
    organization: { id: row.organization_id, slug: row.slug, name: row.org_name },
    onboarded: row.complete === 1,
    expiresAt: row.expires_at,
  };
}

export function deleteSessionStatement(db: Db, tokenHash: string): D1PreparedStatement {
  return db.prepare('DELETE FROM sessions WHERE token_hash = ?').bind(tokenHash);
}

/** Removes the user's sessions that expired by `now`, so the table does not grow with old sign-ins. */
export function deleteExpiredSessionsStatement(db: Db, userId: string, now: string): D1PreparedStatement {
  return db.prepare('DELETE FROM sessions WHERE user_id = ? AND expires_at <= ?').bind(userId, now);
}
