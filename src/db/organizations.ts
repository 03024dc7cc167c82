import type { Db } from '../ground/db-session.ts';
/** The INSERT for an organization (the operator CLI writes the same row through `wrangler d1 execute`). */
export function insertOrganizationStatement(
  db: Db,
  organization: { id: string; slug: string; name: string; createdAt: string },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO organizations (id, slug, name, created_at) VALUES (?, ?, ?, ?)')
    .bind(organization.id, organization.slug, organization.name, organization.createdAt);
}

/** The organization's page budget per site read, or null for the default. */
export async function readSiteReadPages(db: Db, organizationId: string): Promise<number | null> {
  const row = await db.prepare('SELECT site_read_pages AS pages FROM organizations WHERE id = ?1').bind(organizationId).first<{ pages: number | null }>();
  return row?.pages ?? null;
}

/** Sets the organization's page budget per site read (null: back to the default). */
export async function writeSiteReadPages(db: Db, organizationId: string, pages: number | null): Promise<void> {
  await db.prepare('UPDATE organizations SET site_read_pages = ?2 WHERE id = ?1').bind(organizationId, pages).run();
}
