/** The INSERT for an organization (the operator CLI writes the same row through `wrangler d1 execute`). */
export function insertOrganizationStatement(
  db: D1Database,
  organization: { id: string; slug: string; name: string; createdAt: string },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO organizations (id, slug, name, created_at) VALUES (?, ?, ?, ?)')
    .bind(organization.id, organization.slug, organization.name, organization.createdAt);
}
