import type { ChangeKind } from '../ground/schemas/changes.ts';
import type { WatchView } from '../ground/schemas/watch.ts';

/** What creating a watch hands its object: the definition a view shows, and whose it is. */
export type WatchInit = Pick<WatchView, 'id' | 'target' | 'query' | 'frequency' | 'tier' | 'costCapMicros' | 'sourcePolicy' | 'createdAt'> & {
  organizationId: string;
  /** Where each execution record is POSTed (a URL that passed checkWebhookUrl), or null; `kinds`: only executions with a change of one of them (absent or empty: every one). */
  webhook: { url: string; kinds?: ChangeKind[] } | null;
  /** The watch's own ignore patterns (checked at creation); absent: none. */
  ignorePatterns?: string[];
  /** The path lists of the site read before each execution (src/sites/path-scope.ts); absent: every path. */
  includePaths?: string[];
  excludePaths?: string[];
  /**
   * Where the request that created the watch reached this deployment (`https://recon.example.com`):
   * the site reads its executions start name that origin's /bot page in their user agent, as a read
   * a request starts does (unless SITE_READ_CONTACT_URL is set). Absent on watches made before.
   */
  origin?: string;
};

/** The watch as its object stores it: the definition, the ledger and the id of its pending retry. */
export type WatchRecord = Omit<WatchInit, 'webhook'> &
  Pick<WatchView, 'status' | 'spentMicros' | 'executions' | 'lastRunAt' | 'updatedAt' | 'cancelledAt'> & {
    /** Absent on records made before webhooks existed: none. */
    webhook?: { url: string; kinds?: ChangeKind[] } | null;
    consecutiveFailures: number;
    /** Charged executions whose findings added or removed a cited claim; absent on records made before findings existed: 0. */
    executionsWithChanges?: number;
    /** Goes up with every change; the D1 mirror only ever takes a newer version. */
    version: number;
    retryScheduleId: string | null;
  };

/** A new watch's record: active, nothing spent, version 0 (the first write makes it 1). */
export function newWatchRecord(init: WatchInit): WatchRecord {
  return {
    ...init,
    status: 'active',
    spentMicros: 0,
    executions: 0,
    consecutiveFailures: 0,
    lastRunAt: null,
    updatedAt: init.createdAt,
    cancelledAt: null,
    version: 0,
    retryScheduleId: null,
  };
}

/** Whether the watch has stopped executing for good. */
export function hasEnded(watch: WatchRecord): boolean {
  return watch.status === 'cancelled' || watch.status === 'capped';
}

/** The watch as answered, with when its next execution is due (none once it has ended). */
export function viewOf(watch: WatchRecord, nextRunAt: string | null): WatchView {
  return {
    id: watch.id,
    target: watch.target,
    query: watch.query,
    frequency: watch.frequency,
    tier: watch.tier,
    costCapMicros: watch.costCapMicros,
    spentMicros: watch.spentMicros,
    sourcePolicy: watch.sourcePolicy,
    includePaths: watch.includePaths ?? [],
    excludePaths: watch.excludePaths ?? [],
    status: watch.status,
    executions: watch.executions,
    lastRunAt: watch.lastRunAt,
    nextRunAt: hasEnded(watch) ? null : nextRunAt,
    createdAt: watch.createdAt,
    updatedAt: watch.updatedAt,
    cancelledAt: watch.cancelledAt,
    webhook: watch.webhook ? { url: watch.webhook.url, kinds: watch.webhook.kinds ?? [] } : null,
    ignore: watch.ignorePatterns ?? [],
  };
}
