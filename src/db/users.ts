import type { Organization } from '../ground/context.ts';
import type { Db } from '../ground/db-session.ts';

/** A dashboard user as sign-in needs it. */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
}

interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
}

/** The user with this (already normalized) email, or null. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRecord | null> {
  const row = await db.prepare('SELECT id, email, name, password_hash FROM users WHERE email = ?').bind(email).first<UserRow>();
  return row ? { id: row.id, email: row.email, name: row.name, passwordHash: row.password_hash } : null;
}

export interface NewUser {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  createdAt: string;
}

export function insertUserStatement(db: Db, user: NewUser): D1PreparedStatement {
  return db
    .prepare('INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(user.id, user.email, user.name, user.passwordHash, user.createdAt);
}

export function insertMembershipStatement(db: Db, organizationId: string, userId: string, createdAt: string): D1PreparedStatement {
  return db
    .prepare('INSERT INTO memberships (organization_id, user_id, created_at) VALUES (?, ?, ?)')
    .bind(organizationId, userId, createdAt);
}

export async function updatePasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').bind(passwordHash, userId).run();
}

/** The organization the user joined first (where a sign-in lands), or null when they belong to none. */
export async function firstOrganizationOf(db: Db, userId: string): Promise<Organization | null> {
  return db
    .prepare(
      `SELECT o.id, o.slug, o.name FROM memberships m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = ? ORDER BY m.created_at, o.id LIMIT 1`,
    )
    .bind(userId)
    .first<Organization>();
}

export interface MemberRecord {
  userId: string;
  name: string;
  email: string;
  joinedAt: string;
}

/** The organization's members, in the order they joined, at most `limit`. */
export async function listMembers(db: Db, organizationId: string, limit: number): Promise<MemberRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT u.id AS userId, u.name, u.email, m.created_at AS joinedAt
         FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = ? ORDER BY m.created_at, u.id LIMIT ?`,
    )
    .bind(organizationId, limit)
    .all<MemberRecord>();
  return results;
}
