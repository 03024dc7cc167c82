import type { SalesProfile } from '../ground/schemas/profile.ts';
import type { Db } from '../ground/db-session.ts';

export interface StoredProfile {
  profile: SalesProfile;
  updatedAt: string;
}

export async function readSalesProfile(db: Db, organizationId: string): Promise<StoredProfile | null> {
  const row = await db
    .prepare('SELECT profile, updated_at FROM sales_profiles WHERE organization_id = ?')
    .bind(organizationId)
    .first<{ profile: string; updated_at: string }>();
  return row ? { profile: JSON.parse(row.profile) as SalesProfile, updatedAt: row.updated_at } : null;
}

export async function writeSalesProfile(
  db: Db,
  organizationId: string,
  profile: SalesProfile,
  complete: boolean,
  updatedAt: string,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO sales_profiles (organization_id, profile, complete, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (organization_id) DO UPDATE SET profile = excluded.profile, complete = excluded.complete,
         updated_at = excluded.updated_at`,
    )
    .bind(organizationId, JSON.stringify(profile), complete ? 1 : 0, updatedAt)
    .run();
}
