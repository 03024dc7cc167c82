import type { Db } from '../ground/db-session.ts';
/**
 * Watches (table `watches`): the D1 mirror of each watch object, for listing and the org audit.
 * Every read is scoped by organization and bounded by LIMIT. The only writer is the watch object,
 * through `mirrorWatchStatement`, whose rows carry the object's ledger version: a write lands only
 * if it is newer than the row, so mirror writes that finish out of order never go backwards.
 */

export interface WatchRow {
  id: string;
  organizationId: string;
  targetType: string;
  targetKey: string;
  query: string | null;
  frequency: string;
  tier: string;
  costCapMicros: number;
  spentMicros: number;
  sourcePolicy: { include: string[]; exclude: string[] };
  /** Path patterns of the site read before each execution (JSON lists in D1; migration 0017). */
  includePaths: string[];
  excludePaths: string[];
  status: string;
  executions: number;
  lastRunAt: string | null;
  nextRunAt: string | null;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  version: number;
  /** The webhook's URL (fixed at creation), or null. */
  webhookUrl: string | null;
  /** Charged executions whose findings added or removed a cited claim. */
  executionsWithChanges: number;
  /** The watch's ignore patterns and its webhook's change kinds (JSON lists in D1; migration 0018). */
  ignorePatterns: string[];
  webhookKinds: string[];
}

const COLUMNS = `id, organization_id AS organizationId, target_type AS targetType, target_key AS targetKey, query, frequency,
  tier, cost_cap_micros AS costCapMicros, spent_micros AS spentMicros, source_policy AS sourcePolicy, status, executions,
  last_run_at AS lastRunAt, next_run_at AS nextRunAt, created_at AS createdAt, updated_at AS updatedAt,
  cancelled_at AS cancelledAt, version, webhook_url AS webhookUrl, executions_with_changes AS executionsWithChanges,
  include_paths AS includePaths, exclude_paths AS excludePaths, ignore_patterns AS ignorePatterns, webhook_kinds AS webhookKinds`;

type ListColumn = 'sourcePolicy' | 'includePaths' | 'excludePaths' | 'ignorePatterns' | 'webhookKinds';
type StoredRow = Omit<WatchRow, ListColumn> & Record<ListColumn, string>;

const parsed = (row: StoredRow): WatchRow => ({
  ...row,
  sourcePolicy: JSON.parse(row.sourcePolicy) as WatchRow['sourcePolicy'],
  includePaths: JSON.parse(row.includePaths) as string[],
  excludePaths: JSON.parse(row.excludePaths) as string[],
  ignorePatterns: JSON.parse(row.ignorePatterns) as string[],
  webhookKinds: JSON.parse(row.webhookKinds) as string[],
});

/** Inserts or updates the watch's row, unless the row already holds this version or a newer one. */
export function mirrorWatchStatement(db: Db, row: WatchRow): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO watches (id, organization_id, target_type, target_key, query, frequency, tier, cost_cap_micros, spent_micros,
                            source_policy, status, executions, last_run_at, next_run_at, created_at, updated_at, cancelled_at, version, webhook_url,
                            executions_with_changes, include_paths, exclude_paths, ignore_patterns, webhook_kinds)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)
       ON CONFLICT (id) DO UPDATE SET
         spent_micros = excluded.spent_micros, status = excluded.status, executions = excluded.executions,
         last_run_at = excluded.last_run_at, next_run_at = excluded.next_run_at, updated_at = excluded.updated_at,
         cancelled_at = excluded.cancelled_at, version = excluded.version, executions_with_changes = excluded.executions_with_changes
       WHERE excluded.version > watches.version AND excluded.organization_id = watches.organization_id`,
    )
    .bind(
      row.id,
      row.organizationId,
      row.targetType,
      row.targetKey,
      row.query,
      row.frequency,
      row.tier,
      row.costCapMicros,
      row.spentMicros,
      JSON.stringify(row.sourcePolicy),
      row.status,
      row.executions,
      row.lastRunAt,
      row.nextRunAt,
      row.createdAt,
      row.updatedAt,
      row.cancelledAt,
      row.version,
      row.webhookUrl,
      row.executionsWithChanges,
      JSON.stringify(row.includePaths),
      JSON.stringify(row.excludePaths),
      JSON.stringify(row.ignorePatterns),
      JSON.stringify(row.webhookKinds),
    );
}

export async function readWatch(db: Db, organizationId: string, id: string): Promise<WatchRow | null> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM watches WHERE organization_id = ?1 AND id = ?2`).bind(organizationId, id).first<StoredRow>();
  return row ? parsed(row) : null;
}

export interface WatchFilter {
  status?: string;
  target?: { type: string; key: string };
}

/** A page of the organization's watches, newest first, after the (createdAt, id) given, filtered by status and target. */
export async function listWatches(
  db: Db,
  organizationId: string,
  limit: number,
  after: { createdAt: string; id: string } | undefined,
  filter: WatchFilter,
): Promise<WatchRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM watches
        WHERE organization_id = ?1 AND (?2 IS NULL OR (created_at, id) < (?2, ?3))
          AND (?5 IS NULL OR status = ?5) AND (?6 IS NULL OR (target_type = ?6 AND target_key = ?7))
        ORDER BY created_at DESC, id DESC
        LIMIT ?4`,
    )
    .bind(organizationId, after?.createdAt ?? null, after?.id ?? null, limit, filter.status ?? null, filter.target?.type ?? null, filter.target?.key ?? null)
    .all<StoredRow>();
  return results.map(parsed);
}

/** A watch as the org audit names it. */
export interface AuditedWatch {
  id: string;
  targetType: string;
  targetKey: string;
  tier: string;
  status: string;
  costCapMicros: number;
  spentMicros: number;
  lastRunAt: string | null;
  /** Whether its target no longer exists in the organization. */
  dangling: number;
}

export interface WatchAudit {
  /** Watches examined: the newest `read` (so at most `read`). */
  examined: number;
  byStatus: { active: number; failing: number; capped: number; cancelled: number };
  /** Spent by all examined watches, and by the open ones (active, failing) against their caps. */
  spentMicros: number;
  openSpentMicros: number;
  openCapMicros: number;
  /** Charged executions of the examined watches, and those of them whose findings added or removed a cited claim. */
  executions: number;
  executionsWithChanges: number;
  /** Examined watches not cancelled whose target is gone, and those of them that are active. */
  dangling: number;
  danglingActive: number;
  /** At most `shown` of each, among the examined: failing and capped (newest first), dangling, and the open ones nearest their cap. */
  failing: AuditedWatch[];
  capped: AuditedWatch[];
  danglingShown: AuditedWatch[];
  nearestCap: AuditedWatch[];
}

const AUDITED = `id, target_type AS targetType, target_key AS targetKey, tier, status, cost_cap_micros AS costCapMicros,
  spent_micros AS spentMicros, last_run_at AS lastRunAt,
  NOT EXISTS (SELECT 1 FROM objects o WHERE o.organization_id = w.organization_id AND o.type = w.target_type AND o.key = w.target_key) AS dangling`;

/**
 * The org audit's reads of watches (src/runs/audit.ts): counts over the organization's newest
 * `read` watches, and at most `shown` watches per list, in one batch of bounded statements (each
 * target is looked up by the objects table's primary key).
 */
export async function auditWatches(db: Db, organizationId: string, read: number, shown: number): Promise<WatchAudit> {
  const sample = `WITH sample AS (SELECT * FROM watches WHERE organization_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2)`;
  const list = (where: string, order: string) =>
    db.prepare(`${sample} SELECT ${AUDITED} FROM sample w WHERE ${where} ORDER BY ${order} LIMIT ?3`).bind(organizationId, read, shown);
  const [counts, failing, capped, dangling, nearest] = await db.batch([
    db
      .prepare(
        `${sample}
         SELECT count(*) AS examined,
                coalesce(sum(status = 'active'), 0) AS active, coalesce(sum(status = 'failing'), 0) AS failing,
                coalesce(sum(status = 'capped'), 0) AS capped, coalesce(sum(status = 'cancelled'), 0) AS cancelled,
                coalesce(sum(spent_micros), 0) AS spent,
                coalesce(sum(executions), 0) AS executions, coalesce(sum(executions_with_changes), 0) AS executionsWithChanges,
                coalesce(sum(CASE WHEN status IN ('active', 'failing') THEN spent_micros END), 0) AS openSpent,
                coalesce(sum(CASE WHEN status IN ('active', 'failing') THEN cost_cap_micros END), 0) AS openCap,
                coalesce(sum(status <> 'cancelled' AND NOT EXISTS (SELECT 1 FROM objects o WHERE o.organization_id = w.organization_id
                             AND o.type = w.target_type AND o.key = w.target_key)), 0) AS dangling,
                coalesce(sum(status = 'active' AND NOT EXISTS (SELECT 1 FROM objects o WHERE o.organization_id = w.organization_id
                             AND o.type = w.target_type AND o.key = w.target_key)), 0) AS danglingActive
           FROM sample w`,
      )
      .bind(organizationId, read),
    list(`status = 'failing'`, 'created_at DESC, id DESC'),
    list(`status = 'capped'`, 'created_at DESC, id DESC'),
    list(
      `status <> 'cancelled' AND NOT EXISTS (SELECT 1 FROM objects o WHERE o.organization_id = w.organization_id AND o.type = w.target_type AND o.key = w.target_key)`,
      'created_at DESC, id DESC',
    ),
    list(`status IN ('active', 'failing') AND spent_micros > 0`, 'CAST(spent_micros AS REAL) / cost_cap_micros DESC, created_at DESC, id DESC'),
  ]);
  const c = counts!.results[0] as Record<string, number>;
  const rows = (result: D1Result | undefined) => (result?.results ?? []) as AuditedWatch[];
  return {
    examined: c.examined ?? 0,
    byStatus: { active: c.active ?? 0, failing: c.failing ?? 0, capped: c.capped ?? 0, cancelled: c.cancelled ?? 0 },
    spentMicros: c.spent ?? 0,
    openSpentMicros: c.openSpent ?? 0,
    openCapMicros: c.openCap ?? 0,
    executions: c.executions ?? 0,
    executionsWithChanges: c.executionsWithChanges ?? 0,
    dangling: c.dangling ?? 0,
    danglingActive: c.danglingActive ?? 0,
    failing: rows(failing),
    capped: rows(capped),
    danglingShown: rows(dangling),
    nearestCap: rows(nearest),
  };
}
