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
}

const COLUMNS = `id, organization_id AS organizationId, target_type AS targetType, target_key AS targetKey, query, frequency,
  tier, cost_cap_micros AS costCapMicros, spent_micros AS spentMicros, source_policy AS sourcePolicy, status, executions,
  last_run_at AS lastRunAt, next_run_at AS nextRunAt, created_at AS createdAt, updated_at AS updatedAt,
  cancelled_at AS cancelledAt, version, webhook_url AS webhookUrl`;

type StoredRow = Omit<WatchRow, 'sourcePolicy'> & { sourcePolicy: string };

const parsed = (row: StoredRow): WatchRow => ({ ...row, sourcePolicy: JSON.parse(row.sourcePolicy) as WatchRow['sourcePolicy'] });

/** Inserts or updates the watch's row, unless the row already holds this version or a newer one. */
export function mirrorWatchStatement(db: D1Database, row: WatchRow): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO watches (id, organization_id, target_type, target_key, query, frequency, tier, cost_cap_micros, spent_micros,
                            source_policy, status, executions, last_run_at, next_run_at, created_at, updated_at, cancelled_at, version, webhook_url)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)
       ON CONFLICT (id) DO UPDATE SET
         spent_micros = excluded.spent_micros, status = excluded.status, executions = excluded.executions,
         last_run_at = excluded.last_run_at, next_run_at = excluded.next_run_at, updated_at = excluded.updated_at,
         cancelled_at = excluded.cancelled_at, version = excluded.version
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
    );
}

export async function readWatch(db: D1Database, organizationId: string, id: string): Promise<WatchRow | null> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM watches WHERE organization_id = ?1 AND id = ?2`).bind(organizationId, id).first<StoredRow>();
  return row ? parsed(row) : null;
}

export interface WatchFilter {
  status?: string;
  target?: { type: string; key: string };
}

/** A page of the organization's watches, newest first, after the (createdAt, id) given, filtered by status and target. */
export async function listWatches(
  db: D1Database,
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
