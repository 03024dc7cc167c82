/** Approval requests (table `approval_requests`): D1 statements only, every one scoped by organization. */

import { guardStatement } from './guard.ts';
import type { Db } from '../ground/db-session.ts';

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

export async function insertApprovalRequest(db: Db, row: ApprovalRow): Promise<void> {
  await db
    .prepare(
      `INSERT INTO approval_requests (id, organization_id, action, params, reason, status, requested_by, base_version, created_at, expires_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    )
    .bind(row.id, row.organizationId, row.action, JSON.stringify(row.params), row.reason, row.status, row.requestedBy, row.baseVersion, row.createdAt, row.expiresAt)
    .run();
}

/**
 * How long a request may stay `approved` before it is settled as failed. Approval now moves a
 * request from pending to applied or failed in one step and never stores `approved`; a request in
 * `approved` was left by an earlier release whose apply was interrupted (its change and its
 * `applied` commit together, so nothing of the change was written). The wait covers an apply of
 * that release still under way during a deploy.
 */
export const INTERRUPTED_AFTER_MS = 10 * 60 * 1000;

export const INTERRUPTED_FAILURE =
  'the approval was interrupted before its change was written, so nothing was changed; request the change again against the current data.';

/**
 * Settles what time decided, in one batch: the organization's pending requests whose time ran out
 * (`expires_at` at or before `now`) become expired, and requests left `approved` for longer than
 * INTERRUPTED_AFTER_MS become failed (INTERRUPTED_FAILURE). `id`: only that request.
 */
export async function settleDueRequests(db: Db, organizationId: string, now: string, id?: string): Promise<void> {
  const interruptedBefore = new Date(Date.parse(now) - INTERRUPTED_AFTER_MS).toISOString();
  await db.batch([
    db
      .prepare(
        `UPDATE approval_requests SET status = 'expired'
          WHERE organization_id = ?1 AND status = 'pending' AND expires_at <= ?2 AND (?3 IS NULL OR id = ?3)`,
      )
      .bind(organizationId, now, id ?? null),
    db
      .prepare(
        `UPDATE approval_requests SET status = 'failed', failure = ?4
          WHERE organization_id = ?1 AND status = 'approved' AND decided_at <= ?2 AND (?3 IS NULL OR id = ?3)`,
      )
      .bind(organizationId, interruptedBefore, id ?? null, INTERRUPTED_FAILURE),
  ]);
}

export async function readApprovalRequest(db: Db, organizationId: string, id: string): Promise<ApprovalRow | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM approval_requests WHERE organization_id = ?1 AND id = ?2`)
    .bind(organizationId, id)
    .first<StoredRow>();
  return row ? parsed(row) : null;
}

/** A page of the organization's requests (optionally of one status), newest first, after the (createdAt, id) given. */
export async function listApprovalRequests(
  db: Db,
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
 * Rejects a pending, unexpired request, as one compare-and-set: false when it was no longer
 * pending (decided meanwhile, or expired), and nothing was written.
 */
export async function rejectApprovalRequest(db: Db, organizationId: string, id: string, decidedBy: string, now: string): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE approval_requests SET status = 'rejected', decided_by = ?3, decided_at = ?4
        WHERE organization_id = ?1 AND id = ?2 AND status = 'pending' AND expires_at > ?4`,
    )
    .bind(organizationId, id, decidedBy, now)
    .run();
  return result.meta.changes === 1;
}

export type ApprovalOutcome = { status: 'applied' } | { status: 'failed'; failure: string };

/**
 * The statement that records an approval and its outcome at once: a pending, unexpired request
 * becomes `applied`, or `failed` with why, decided by `decidedBy` at `now`. It changes nothing
 * (meta.changes 0) when the request was no longer pending; in a batch, put approvalPendingGuard
 * beside it so the whole batch is refused then.
 */
export function finishApprovalStatement(db: Db, organizationId: string, id: string, outcome: ApprovalOutcome, decidedBy: string, now: string) {
  return db
    .prepare(
      `UPDATE approval_requests SET status = ?3, failure = ?4, decided_by = ?5, decided_at = ?6
        WHERE organization_id = ?1 AND id = ?2 AND status = 'pending' AND expires_at > ?6`,
    )
    .bind(organizationId, id, outcome.status, outcome.status === 'failed' ? outcome.failure : null, decidedBy, now);
}

/** A guard that fails its batch unless the request is still pending and unexpired at `now`. */
export function approvalPendingGuard(db: Db, organizationId: string, id: string, now: string): D1PreparedStatement {
  return guardStatement(
    db,
    `EXISTS (SELECT 1 FROM approval_requests WHERE organization_id = ?1 AND id = ?2 AND status = 'pending' AND expires_at > ?3)`,
    [organizationId, id, now],
    'approval-pending',
  );
}

/** The current version of an object, or null when it does not exist. */
export async function objectVersion(db: Db, organizationId: string, type: string, key: string): Promise<{ version: number; properties: Record<string, unknown> } | null> {
  const row = await db
    .prepare(`SELECT version, properties FROM objects WHERE organization_id = ?1 AND type = ?2 AND key = ?3`)
    .bind(organizationId, type, key)
    .first<{ version: number; properties: string }>();
  return row ? { version: row.version, properties: JSON.parse(row.properties) as Record<string, unknown> } : null;
}

export async function linkExists(db: Db, organizationId: string, link: { link: string; from: { type: string; key: string }; to: { type: string; key: string } }): Promise<boolean> {
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
  db: Db,
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
