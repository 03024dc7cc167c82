import { mirrorWatchStatement, type WatchRow } from '../db/watches.ts';
import { logEvent } from '../ground/log.ts';
import { viewOf, type WatchRecord } from './record.ts';
import { messageOf } from '../ground/errors.ts';
import type { Db } from '../ground/db-session.ts';

/**
 * The watch's D1 mirror (table `watches`, src/db/watches.ts): the row that lists it, written from
 * the object's record with its version, so a write that lands late never goes backwards.
 */

/** When a D1 mirror write fails outside an execution's batch, the object writes it again this much later. */
export const MIRROR_RETRY_SECONDS = 5;

/** The D1 row: what the watch answers, plus its organization, target columns, version and webhook URL. */
export function watchRow(watch: WatchRecord, nextRunAt: string | null): WatchRow {
  const { target, webhook, ignore, ...view } = viewOf(watch, nextRunAt);
  return {
    ...view,
    ignorePatterns: ignore,
    webhookKinds: webhook?.kinds ?? [],
    organizationId: watch.organizationId,
    targetType: target.type,
    targetKey: target.key,
    version: watch.version,
    webhookUrl: webhook?.url ?? null,
    executionsWithChanges: watch.executionsWithChanges ?? 0,
  };
}

/** The mirror write of `watch`, to run alone or in an execution's batch. */
export function mirrorStatement(db: Db, watch: WatchRecord, nextRunAt: string | null): D1PreparedStatement {
  return mirrorWatchStatement(db, watchRow(watch, nextRunAt));
}

/** Writes the mirror row; false (logged) when D1 failed, and the caller schedules it again. */
export async function writeMirror(db: Db, watch: WatchRecord, nextRunAt: string | null): Promise<boolean> {
  try {
    await mirrorStatement(db, watch, nextRunAt).run();
    return true;
  } catch (error) {
    logEvent('watch_mirror_failed', { watchId: watch.id, version: watch.version, error: messageOf(error) });
    return false;
  }
}
