import type { Organization } from '../ground/context.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * Which organizations a dashboard user belongs to (the memberships table), as OAuth consent and
 * OAuth access tokens need it: the consent page lists them, and every token's organization is
 * checked against them on use, so someone removed from an organization loses its tokens at once.
 */

/** The organizations `userId` belongs to, in the order they joined, at most `limit`. */
export async function listOrganizationsOfUser(db: Db, userId: string, limit: number): Promise<Organization[]> {
  const { results } = await db
    .prepare(
      `SELECT o.id, o.slug, o.name FROM memberships m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = ? ORDER BY m.created_at, o.id LIMIT ?`,
    )
    .bind(userId, limit)
    .all<Organization>();
  return results;
}

/** The organization `organizationId` when `userId` is one of its members, else null. */
export async function findOrganizationOfMember(db: Db, userId: string, organizationId: string): Promise<Organization | null> {
  return db
    .prepare(
      `SELECT o.id, o.slug, o.name FROM memberships m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = ? AND m.organization_id = ?`,
    )
    .bind(userId, organizationId)
    .first<Organization>();
}
