import { Agent, type Schedule } from 'agents';
import type { Sql } from '../db/object-sql.ts';
import { randomId } from '../ground/api-key.ts';
import { logEvent } from '../ground/log.ts';
import type { ChangeKind } from '../ground/schemas/changes.ts';
import { frequencySeconds, type ExecutionRecord, type WatchStatus, type WatchView } from '../ground/schemas/watch.ts';
import { prepareExecution, type PreparedExecution, type WatchToResearch } from './execution.ts';
import { executionsPage, failedExecution, storeExecution, writeDeliveryState } from './execution-log.ts';
import { keepBaseline, readBaseline } from './baseline-store.ts';
import { readPageBaseline, writePageBaseline } from '../db/watch-page-baseline.ts';
import { hasChanges } from './findings.ts';
import { canPay, FAILURES_BEFORE_FAILING, priceOf, retryDelaySeconds, statusAfterCharge } from './ledger.ts';
import { discardWatch, readWatch, release, releaseInterrupted, reserve, reservedMicros, writeWatch } from './ledger-store.ts';
import { MIRROR_RETRY_SECONDS, mirrorStatement, writeMirror } from './mirror.ts';
import { hasEnded, newWatchRecord, viewOf, type WatchInit, type WatchRecord } from './record.ts';
import { armDeliveries, cancelExecutions, nextRunAt, scheduleExecutions } from './schedule.ts';
import { deliverDue } from './webhooks/dispatcher.ts';
import { WebhookOutbox } from './webhooks/outbox.ts';
import { messageOf } from '../ground/errors.ts';
import { ObjectDb } from '../db/d1-sessions.ts';

export type { WatchInit } from './record.ts';
export { EXECUTIONS_KEPT } from './execution-log.ts';

/** Why a run-now was refused: the watch is capped or cancelled, or the budget left is promised to an execution in flight. */
export type RunRefusal = 'capped' | 'cancelled' | 'budget_reserved' | 'missing';
export type RunOutcome = { ran: true; execution: ExecutionRecord } | { ran: false; refusal: RunRefusal; watch: WatchView | null };

/**
 * One research watch, an `agents` Agent. This file is the orchestration;
 * each concern it drives lives apart:
 *
 *   the ledger        policy in watches/ledger.ts; the stored record and the in-flight
 *                     reservations in watches/ledger-store.ts (tables in db/watch-object-storage.ts)
 *   the executions    the research in watches/execution.ts; the records kept in watches/execution-log.ts;
 *                     what changed since the last success in watches/findings.ts, against the
 *                     baseline kept in watches/baseline-store.ts
 *   the schedule      watches/schedule.ts, over the Agent's own schedule tables: the first execution
 *                     at creation, one interval of `frequency`, at most one backoff retry, mirror
 *                     retries, and `deliverWebhooks` when a webhook message is due
 *   the webhook outbox  watches/webhooks/outbox.ts (tables in db/webhook-outbox.ts), sent by
 *                     watches/webhooks/dispatcher.ts
 *   the D1 mirror     watches/mirror.ts (the `watches` row, db/watches.ts)
 *
 * Webhooks: finishing an execution (after its commit) stores its record and, on a watch with a
 * webhook, enqueues it in the outbox and arms `deliverWebhooks` on the schedule; nothing else.
 * The delivery runs from the alarm, detached (the alarm's callback starts it and returns), one
 * message at a time in the order the executions finished, each signed with the organization's
 * secret as it is at that attempt, and failures retried on the policy of retry-policy.ts. So a
 * receiver that fails or hangs never delays an execution, its charge, a cancel or a run-now. A
 * cancelled or capped watch still delivers the records of executions that finished before.
 *
 * Every execution, scheduled or run-now, goes through `execute()`. The object runs one event at a
 * time only between awaits: while an execution awaits D1 or the research provider, a cancel or
 * another execution can run. So the ledger changes only in synchronous sections that read it
 * first (compare-and-set): an execution reserves its price before researching (so two executions
 * never both spend the last of the budget), and re-reads the record before the charge; the charge
 * is applied in storage synchronously right before the D1 batch that commits the brief, the
 * property changes and the mirror row, and taken back if that batch fails. A cancel that lands
 * while an execution researches wins: that execution stores and charges nothing.
 */
export class WatchObject extends Agent {
  static override options = { hungScheduleTimeoutSeconds: 15 * 60 };

  /**
   * The object's one D1 session, for its executions, mirror writes and deliveries: each reads at
   * least what the ones before it wrote; its bookmark is kept in the object's storage after each
   * write (`keep`), so the watch continues from it after a restart.
   */
  readonly db: ObjectDb = new ObjectDb(this.env, this.ctx.storage.kv);
  /** The research half of an execution, through the object's session; a test may replace it on one instance to slow it down or make it fail. */
  research: (env: Env, db: ObjectDb, watch: WatchToResearch, briefKey: string) => Promise<PreparedExecution> = prepareExecution;
  /** The outbound fetch of webhook deliveries; a test may replace it on one instance. */
  webhookFetch: typeof fetch = (input, init) => fetch(input, init);
  /** The jitter of webhook retries (retry-policy.ts); a test may fix it. */
  webhookRandom: () => number = Math.random;

  /** The delivery under way in this instance, if any (one at a time, so messages go out in order). */
  private delivering: Promise<void> | null = null;

  override onStart(): void {
    // An execution lives in memory: reservations left from before this start belong to executions
    // that were cut off (an eviction or a deploy). They stored and charged nothing; say so and free their budget.
    const watch = this.read();
    const stale = releaseInterrupted(this.store());
    for (const row of stale) {
      if (watch) storeExecution(this.store(), failedExecution(watch.id, row.id, row.startedAt, 'The execution was interrupted (the watch restarted); nothing was stored or charged.'));
    }
  }

  /** The object's SQLite, as the storage modules take it. */
  private store(): Sql {
    return this.sql.bind(this);
  }

  private read(): WatchRecord | null {
    return readWatch(this.store());
  }

  /** Stores `watch` as the next version (synchronous: nothing else runs in between a read and this). */
  private write(watch: WatchRecord, now = new Date()): WatchRecord {
    return writeWatch(this.store(), watch, now);
  }

  // ------------------------------------------------------------------------------------------
  // RPC: create, read, cancel, run now, executions

  /** Creates the watch (idempotent: a second call answers the watch as it is) and schedules its first execution now. */
  async create(init: WatchInit): Promise<WatchView> {
    const existing = this.read();
    if (existing) return this.view(existing);
    const stored = this.write(newWatchRecord(init), new Date(init.createdAt));
    const now = new Date();
    try {
      // The row exists before anything runs, so the watch is listed from the start.
      await mirrorStatement(this.db, stored, now.toISOString()).run();
      this.db.keep();
    } catch (error) {
      discardWatch(this.store());
      throw error;
    }
    await scheduleExecutions(this, frequencySeconds(init.frequency), now);
    return this.view(stored);
  }

  /** The watch, or null when this object holds none. */
  async get(): Promise<WatchView | null> {
    const watch = this.read();
    return watch ? this.view(watch) : null;
  }

  /** Cancels the watch: its schedule is deleted and it never executes again. Cancelling a cancelled watch changes nothing. */
  async cancel(): Promise<WatchView | null> {
    const watch = this.read();
    if (!watch) return null;
    if (watch.status === 'cancelled') return this.view(watch);
    const now = new Date();
    const cancelled = this.write({ ...watch, status: 'cancelled', cancelledAt: now.toISOString(), retryScheduleId: null }, now);
    await cancelExecutions(this);
    await this.mirrorNow();
    return this.view(this.read() ?? cancelled);
  }

  /** Executes now, answering once the execution is done; the schedule stays as it is. */
  async runNow(): Promise<RunOutcome> {
    return this.execute('run');
  }

  /**
   * The bookmark of the object's D1 session as kept after its last write: a request that had it
   * write (create, cancel, run now) observes it, so the client's next read sees that write.
   */
  async d1Bookmark(): Promise<string | null> {
    return this.db.kept();
  }

  /** Execution records, newest first, before `beforeSeq` (the seq of the last one of the previous page). */
  async executionsPage(limit: number, beforeSeq?: number): Promise<{ executions: ExecutionRecord[]; lastSeq: number | null; more: boolean }> {
    return executionsPage(this.store(), limit, beforeSeq);
  }

  // ------------------------------------------------------------------------------------------
  // Schedule callbacks (Agent calls them by name from its alarm)

  /** The scheduled execution (the first one at creation, then every `frequency`). */
  async scheduledExecution(_payload: unknown, schedule?: Schedule<unknown>): Promise<void> {
    await this.fromSchedule(schedule);
  }

  /** A retry after a failed execution (with backoff). */
  async retryExecution(_payload: unknown, schedule?: Schedule<unknown>): Promise<void> {
    const watch = this.read();
    if (watch?.retryScheduleId) this.write({ ...watch, retryScheduleId: null });
    await this.fromSchedule(schedule);
  }

  /** Schedules firing now: a one-off among them is spent, an interval's next time is one period on. */
  private readonly firing = new Set<string>();

  private async fromSchedule(schedule: Schedule<unknown> | undefined): Promise<void> {
    if (schedule) this.firing.add(schedule.id);
    try {
      await this.execute('schedule');
    } finally {
      if (schedule) this.firing.delete(schedule.id);
    }
  }

  /** Writes the D1 mirror again after a failed write. */
  async remirror(): Promise<void> {
    await this.mirrorNow();
  }

  /**
   * The `deliverWebhooks` schedule: starts delivering the due messages and returns at once (the
   * alarm never waits for a receiver). If a delivery is already under way in this instance, it
   * takes the newly due messages too.
   */
  async deliverWebhooks(): Promise<void> {
    if (this.delivering) {
      // It re-arms when it ends; meanwhile this schedule stands for it, should the object be evicted.
      await this.schedule(new Date(Date.now() + 30_000), 'deliverWebhooks');
      return;
    }
    this.delivering = this.deliver().finally(() => {
      this.delivering = null;
    });
  }

  /** Waits for the delivery under way in this instance, if any (tests and the benchmark). */
  async deliveriesSettled(): Promise<void> {
    while (this.delivering) await this.delivering;
  }

  // ------------------------------------------------------------------------------------------
  // The execution

  /**
   * One execution, the same for the schedule and run-now: check the ledger, reserve the price,
   * research, then (compare-and-set) charge and commit, or record a failure and retry later.
   */
  private async execute(trigger: 'schedule' | 'run'): Promise<RunOutcome> {
    const watch = this.read();
    if (!watch) return { ran: false, refusal: 'missing', watch: null };
    if (watch.status === 'cancelled' || watch.status === 'capped') return { ran: false, refusal: watch.status, watch: await this.view(watch) };
    const reserved = reservedMicros(this.store());
    // A scheduled execution while another runs would only repeat it: skip it.
    if (trigger === 'schedule' && reserved > 0) return { ran: false, refusal: 'budget_reserved', watch: await this.view(watch) };
    if (!canPay(watch, reserved)) {
      if (reserved > 0) return { ran: false, refusal: 'budget_reserved', watch: await this.view(watch) };
      // Nothing in flight can give budget back: the watch is capped now.
      this.write({ ...watch, status: 'capped', retryScheduleId: null });
      await cancelExecutions(this);
      await this.mirrorNow();
      return { ran: false, refusal: 'capped', watch: await this.view(this.read()!) };
    }

    const price = priceOf(watch.tier);
    const id = randomId('wex');
    const startedAt = new Date().toISOString();
    reserve(this.store(), id, startedAt, price);

    // What this execution's brief is compared with: read before it researches; it moves only when an execution commits.
    const baseline = readBaseline(this.store());
    const pageBaseline = readPageBaseline(this.store());
    let prepared: PreparedExecution | undefined;
    let failure: string | undefined;
    try {
      prepared = await this.research(this.env, this.db, { ...watch, baseline, pageBaseline }, id);
    } catch (error) {
      failure = `The research failed: ${messageOf(error)}`;
    } finally {
      this.db.keep();
    }

    if (prepared) {
      const next = await nextRunAt(this, this.firing);
      // The input gate was open while researching: read the ledger again, then charge at once.
      const current = this.read();
      release(this.store(), id);
      if (!current || hasEnded(current)) {
        const why = current?.status === 'capped' ? 'capped' : 'cancelled';
        return this.finish(failedExecution(watch.id, id, startedAt, `The watch was ${why} while this execution ran; nothing was stored or charged.`), false);
      }
      const now = new Date();
      const budget = { ...current, spentMicros: current.spentMicros + price };
      const changed = hasChanges(prepared.findings) ? 1 : 0;
      const charged = this.write({
        ...current,
        spentMicros: budget.spentMicros,
        executions: current.executions + 1,
        executionsWithChanges: (current.executionsWithChanges ?? 0) + changed,
        consecutiveFailures: 0,
        status: statusAfterCharge(budget),
        lastRunAt: now.toISOString(),
      }, now);
      const record: ExecutionRecord = {
        id,
        watchId: watch.id,
        startedAt,
        finishedAt: now.toISOString(),
        outcome: 'succeeded',
        costMicros: price,
        briefKey: prepared.briefKey,
        changes: prepared.changes,
        findings: prepared.findings,
        siteRead: prepared.siteRead,
      };
      try {
        await prepared.commit([mirrorStatement(this.db, charged, charged.status === 'capped' ? null : next)]);
        this.db.keep();
      } catch (error) {
        // Nothing of the batch was written: take the charge back (the ledger may have moved meanwhile).
        const after = this.read()!;
        const restored = after.status === 'capped' ? current.status : after.status;
        this.write({
          ...after,
          spentMicros: after.spentMicros - price,
          executions: after.executions - 1,
          executionsWithChanges: (after.executionsWithChanges ?? 0) - changed,
          status: restored,
          consecutiveFailures: current.consecutiveFailures,
        });
        return this.fail(failedExecution(watch.id, id, startedAt, `Storing the results failed: ${messageOf(error)}`));
      }
      // Committed: the next execution compares with this one's claims (synchronously, before any other await).
      keepBaseline(this.store(), { executionId: id, finishedAt: record.finishedAt, claims: prepared.claims });
      // An execution whose reading is older than the kept one's (two ran at once) leaves the pages' baseline as it is.
      if (prepared.pageBaseline) writePageBaseline(this.ctx.storage, prepared.pageBaseline.meta, prepared.pageBaseline.rows);
      // The batch carried the mirror row; it is written again only if the schedule changes now.
      let scheduleChanged = false;
      if (charged.status === 'capped') {
        await cancelExecutions(this);
      } else if (charged.retryScheduleId) {
        // A success ends the backoff.
        await this.cancelSchedule(charged.retryScheduleId);
        const latest = this.read()!;
        if (latest.retryScheduleId === charged.retryScheduleId) this.write({ ...latest, retryScheduleId: null });
        scheduleChanged = true;
      }
      return this.finish(record, !scheduleChanged);
    }
    release(this.store(), id);
    return this.fail(failedExecution(watch.id, id, startedAt, failure!));
  }

  /** Records a failed execution: one more failure in a row (`failing` at five), and a retry with backoff. */
  private async fail(record: ExecutionRecord): Promise<RunOutcome> {
    const watch = this.read()!;
    if (hasEnded(watch)) return this.finish(record, false);
    const failures = watch.consecutiveFailures + 1;
    const status: WatchStatus = failures >= FAILURES_BEFORE_FAILING ? 'failing' : watch.status;
    this.write({ ...watch, consecutiveFailures: failures, status, lastRunAt: record.finishedAt });
    logEvent('watch_execution_failed', { watchId: watch.id, executionId: record.id, failures, error: record.error });
    const delay = retryDelaySeconds(failures, frequencySeconds(watch.frequency));
    // One retry at a time: the newest failure's (none once failing: the schedule goes on alone).
    if (watch.retryScheduleId) {
      await this.cancelSchedule(watch.retryScheduleId);
      const latest = this.read()!;
      if (latest.retryScheduleId === watch.retryScheduleId) this.write({ ...latest, retryScheduleId: null });
    }
    if (delay !== null) {
      const retry = await this.schedule(delay, 'retryExecution');
      const latest = this.read()!;
      if (hasEnded(latest)) await this.cancelSchedule(retry.id);
      else this.write({ ...latest, retryScheduleId: retry.id });
    }
    return this.finish(record, false);
  }

  /**
   * Stores the execution record (on a watch with a webhook, with its message enqueued in the same
   * step), writes the mirror (unless it is `mirrored` already) and hands the record on.
   */
  private async finish(record: ExecutionRecord, mirrored: boolean): Promise<RunOutcome> {
    const webhook = sendsTo(this.read()?.webhook ?? null, record);
    const now = Date.now();
    const stored: ExecutionRecord = webhook ? { ...record, webhook: { state: 'pending', attempts: 0, lastStatus: null, lastError: null, nextAttemptAt: new Date(now).toISOString() } } : record;
    const seq = storeExecution(this.store(), stored);
    if (webhook) {
      const dropped = this.outbox().enqueue({ messageId: record.id, execSeq: seq, url: webhook.url, payload: JSON.stringify(record) }, now);
      for (const attempt of dropped) writeDeliveryState(this.store(), attempt);
    }
    if (!mirrored) await this.mirrorNow();
    if (webhook) await this.onExecutionFinished(stored);
    return { ran: true, execution: stored };
  }

  /**
   * Called once per finished execution of a watch with a webhook, after its results and charge
   * are committed (or it failed) and its message is in the outbox: arms the delivery on the
   * schedule. It never sends anything itself, so the execution never waits for a receiver.
   */
  protected async onExecutionFinished(_execution: ExecutionRecord): Promise<void> {
    await armDeliveries(this, this.outbox().earliest());
  }

  // ------------------------------------------------------------------------------------------
  // Webhook delivery, view and mirror

  private outbox(): WebhookOutbox {
    return new WebhookOutbox(this.store());
  }

  /** Sends the due messages, then re-arms the schedule for the next due one. */
  private async deliver(): Promise<void> {
    const outbox = this.outbox();
    try {
      await deliverDue({
        outbox,
        db: this.db,
        watch: () => this.read(),
        fetch: this.webhookFetch,
        random: this.webhookRandom,
        recorded: (attempt) => writeDeliveryState(this.store(), attempt),
      });
    } finally {
      this.db.keep();
      await armDeliveries(this, outbox.earliest());
    }
  }

  private async view(watch: WatchRecord): Promise<WatchView> {
    return viewOf(watch, hasEnded(watch) ? null : await nextRunAt(this, this.firing));
  }

  /** Writes the D1 row from the record as it is now; a failed write is retried shortly (a newer one wins anyway). */
  private async mirrorNow(): Promise<void> {
    const next = await nextRunAt(this, this.firing);
    const watch = this.read();
    if (!watch) return;
    const written = await writeMirror(this.db, watch, next);
    this.db.keep();
    if (!written) await this.schedule(MIRROR_RETRY_SECONDS, 'remirror');
  }
}

/** The webhook an execution record is sent to: none, or the watch's unless it asks only for kinds of change the execution did not find. */
function sendsTo(webhook: { url: string; kinds?: ChangeKind[] } | null, record: ExecutionRecord): { url: string } | null {
  if (!webhook?.kinds?.length) return webhook;
  const kinds = new Set<ChangeKind>(webhook.kinds);
  return record.findings?.changes.some((change) => kinds.has(change.kind)) ? webhook : null;
}

