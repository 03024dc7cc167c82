/** Approval requests (table `approval_requests`): D1 statements only, every one scoped by organization. */

export const APPROVAL_STATUSES = ['pending', 'approved', 'applied', 'failed', 'rejected', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface ApprovalRow {
  id: string;
  organizationId: string;
  action: string;
  params: Record<string, unknown>;
  reason: string | null;
  status: ApprovalStatus;
  requestedBy: string;
  baseVersion: number | null;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  failure: string | null;
}

const COLUMNS = `id, organization_id AS organizationId, action, params, reason, status, requested_by AS requestedBy,
  base_version AS baseVersion, created_at AS createdAt, expires_at AS expiresAt, decided_at AS decidedAt,
  decided_by AS decidedBy, failure`;

type StoredRow = Omit<ApprovalRow, 'params'> & { params: string };

const parsed = (row: StoredRow): ApprovalRow => ({ ...row, params: JSON.parse(row.params) as Record<string, unknown> });

export async function insertApprovalRequest(db: D1Database, row: ApprovalRow): Promise<void> {
  await db
    .prepare(
      `INSERT INTO approval_requests (id, organization_id, action, params, reason, status, requested_by, base_version, created_at, expires_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    )
    .bind(row.id, row.organizationId, row.action, JSON.stringify(row.params), row.reason, row.status, row.requestedBy, row.baseVersion, row.createdAt, row.expiresAt)
    .run();
}

/** Marks the organization's pending requests whose time ran out (`expires_at` at or before `now`) as expired. */
export async function expireDueRequests(db: D1Database, organizationId: string, now: string, id?: string): Promise<void> {
  await db
    .prepare(
      `UPDATE approval_requests SET status = 'expired'
        WHERE organization_id = ?1 AND status = 'pending' AND expires_at <= ?2 AND (?3 IS NULL OR id = ?3)`,
    )
    .bind(organizationId, now, id ?? null)
    .run();
}

export async function readApprovalRequest(db: D1Database, organizationId: string, id: string): Promise<ApprovalRow | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM approval_requests WHERE organization_id = ?1 AND id = ?2`)
    .bind(organizationId, id)
    .first<StoredRow>();
  return row ? parsed(row) : null;
}

/** A page of the organization's requests (optionally of one status), newest first, after the (createdAt, id) given. */
export async function listApprovalRequests(
  db: D1Database,
  organizationId: string,
  limit: number,
  after?: { createdAt: string; id: string },
  status?: ApprovalStatus,
): Promise<ApprovalRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM approval_requests
        WHERE organization_id = ?1 AND (?2 IS NULL OR (created_at, id) < (?2, ?3)) AND (?5 IS NULL OR status = ?5)
        ORDER BY created_at DESC, id DESC
        LIMIT ?4`,
    )
    .bind(organizationId, after?.createdAt ?? null, after?.id ?? null, limit, status ?? null)
    .all<StoredRow>();
  return results.map(parsed);
}

/**
 * Moves a pending, unexpired request to `status` (approved or rejected), as one compare-and-set:
 * false when it was no longer pending (decided meanwhile, or expired), and nothing was written.
 */
export async function decideApprovalRequest(
  db: D1Database,
  organizationId: string,
  id: string,
  status: 'approved' | 'rejected',
  decidedBy: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE approval_requests SET status = ?3, decided_by = ?4, decided_at = ?5
        WHERE organization_id = ?1 AND id = ?2 AND status = 'pending' AND expires_at > ?5`,
    )
    .bind(organizationId, id, status, decidedBy, now)
    .run();
  return result.meta.changes === 1;
}

/**
 * The statement that records how an approved request ended: `applied`, or `failed` with why. A
 * failure may also replace an `applied` written in the same batch as a change the store then
 * refused (an object that would be too large).
 */
export function finishApprovalStatement(db: D1Database, organizationId: string, id: string, outcome: { status: 'applied' } | { status: 'failed'; failure: string }) {
  const from = outcome.status === 'applied' ? `('approved')` : `('approved', 'applied')`;
  return db
    .prepare(`UPDATE approval_requests SET status = ?3, failure = ?4 WHERE organization_id = ?1 AND id = ?2 AND status IN ${from}`)
    .bind(organizationId, id, outcome.status, outcome.status === 'failed' ? outcome.failure : null);
}

/** The current version of an object, or null when it does not exist. */
export async function objectVersion(db: D1Database, organizationId: string, type: string, key: string): Promise<{ version: number; properties: Record<string, unknown> } | null> {
  const row = await db
    .prepare(`SELECT version, properties FROM objects WHERE organization_id = ?1 AND type = ?2 AND key = ?3`)
    .bind(organizationId, type, key)
    .first<{ version: number; properties: string }>();
  return row ? { version: row.version, properties: JSON.parse(row.properties) as Record<string, unknown> } : null;
}

export async function linkExists(db: D1Database, organizationId: string, link: { link: string; from: { type: string; key: string }; to: { type: string; key: string } }): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT 1 AS found FROM links WHERE organization_id = ?1 AND link = ?2 AND from_type = ?3 AND from_key = ?4 AND to_type = ?5 AND to_key = ?6`,
    )
    .bind(organizationId, link.link, link.from.type, link.from.key, link.to.type, link.to.key)
    .first<{ found: number }>();
  return row !== null;
}

/** Pending, unexpired requests created before `olderThan`: how many, and the oldest few (for the audit). */
export async function waitingApprovalRequests(
  db: D1Database,
  organizationId: string,
  olderThan: string,
  now: string,
  shown: number,
): Promise<{ count: number; oldest: Pick<ApprovalRow, 'id' | 'action' | 'createdAt' | 'requestedBy'>[] }> {
  const [count, oldest] = await db.batch([
    db
      .prepare(`SELECT count(*) AS n FROM approval_requests WHERE organization_id = ?1 AND status = 'pending' AND created_at < ?2 AND expires_at > ?3`)
      .bind(organizationId, olderThan, now),
    db
      .prepare(
        `SELECT id, action, created_at AS createdAt, requested_by AS requestedBy FROM approval_requests
          WHERE organization_id = ?1 AND status = 'pending' AND created_at < ?2 AND expires_at > ?3
          ORDER BY created_at LIMIT ?4`,
      )
      .bind(organizationId, olderThan, now, shown),
  ]);
  return {
    count: (count!.results[0] as { n: number }).n,
    oldest: oldest!.results as Pick<ApprovalRow, 'id' | 'action' | 'createdAt' | 'requestedBy'>[],
  };
}
