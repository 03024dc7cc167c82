import { Agent, type Schedule } from 'agents';
import { mirrorWatchStatement, type WatchRow } from '../db/watches.ts';
import { randomId } from '../ground/api-key.ts';
import { logEvent } from '../ground/log.ts';
import {
  frequencySeconds,
  type ExecutionRecord,
  type WatchableType,
  type WatchStatus,
  type WatchTier,
  type WatchView,
} from '../ground/schemas/watch.ts';
import { prepareExecution, type PreparedExecution, type WatchToResearch } from '../watches/execution.ts';
import { canPay, FAILURES_BEFORE_FAILING, priceOf, retryDelaySeconds, statusAfterCharge } from '../watches/ledger.ts';
import { deliverWebhook, type DeliveryResult } from '../watches/webhooks/delivery.ts';
import { WebhookOutbox, type OutboxMessage, type RecordedAttempt } from '../watches/webhooks/outbox.ts';
import { webhookSecretOf } from '../watches/webhooks/secrets.ts';

/** What creating a watch hands its object. */
export interface WatchInit {
  id: string;
  organizationId: string;
  target: { type: WatchableType; key: string };
  query: string | null;
  frequency: string;
  tier: WatchTier;
  costCapMicros: number;
  sourcePolicy: { include: string[]; exclude: string[] };
  /** Where each execution record is POSTed (a URL that passed checkWebhookUrl), or null. */
  webhook: { url: string } | null;
  createdAt: string;
}

/** The watch as its object stores it: the definition, the ledger and the ids of its schedules. */
interface WatchRecord extends Omit<WatchInit, 'webhook'> {
  /** Absent on records made before webhooks existed: none. */
  webhook?: { url: string } | null;
  status: WatchStatus;
  spentMicros: number;
  /** Charged (succeeded) executions, so spentMicros = price x executions. */
  executions: number;
  consecutiveFailures: number;
  lastRunAt: string | null;
  updatedAt: string;
  cancelledAt: string | null;
  /** Goes up with every change; the D1 mirror only ever takes a newer version. */
  version: number;
  retryScheduleId: string | null;
}

/** Why a run-now was refused: the watch is capped or cancelled, or the budget left is promised to an execution in flight. */
export type RunRefusal = 'capped' | 'cancelled' | 'budget_reserved' | 'missing';
export type RunOutcome = { ran: true; execution: ExecutionRecord } | { ran: false; refusal: RunRefusal; watch: WatchView | null };

/** Executions kept per watch (the newest); older records are dropped. */
export const EXECUTIONS_KEPT = 1_000;
/** When a D1 mirror write fails outside an execution's batch, it is written again this much later. */
const MIRROR_RETRY_SECONDS = 5;


/**
 * One research watch (decisions.md, Watches), an `agents` Agent. Its SQLite storage holds:
 *
 *   watch_record      one row: the WatchRecord as JSON (definition, ledger, status, version)
 *   watch_inflight    executions running now, each with the price it reserved from the budget
 *   watch_executions  the newest EXECUTIONS_KEPT execution records, by `seq`
 *   watch_webhook_outbox  execution records still to POST to the watch's webhook (watches/webhooks/outbox.ts)
 *   (Agent's own tables) the schedule: one interval of `frequency`, the first execution at creation,
 *                     at most one backoff retry, and `deliverWebhooks` when a webhook message is due
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

  /** The research half of an execution; a test may replace it on one instance to slow it down or make it fail. */
  prepare: (env: Env, watch: WatchToResearch, briefKey: string) => Promise<PreparedExecution> = prepareExecution;
  /** The outbound fetch of webhook deliveries; a test may replace it on one instance. */
  webhookFetch: typeof fetch = (input, init) => fetch(input, init);
  /** The jitter of webhook retries (retry-policy.ts); a test may fix it. */
  webhookRandom: () => number = Math.random;

  /** The delivery under way in this instance, if any (one at a time, so messages go out in order). */
  private delivering: Promise<void> | null = null;

  override onStart(): void {
    this.ensureTables();
    // An execution lives in memory: rows left from before this start belong to executions that
    // were cut off (an eviction or a deploy). They stored and charged nothing; say so and free their budget.
    const stale = this.sql<{ id: string; started_at: string }>`SELECT id, started_at FROM watch_inflight`;
    const watch = this.read();
    for (const row of stale) {
      this.sql`DELETE FROM watch_inflight WHERE id = ${row.id}`;
      if (watch) this.storeExecution(this.failedRecord(watch.id, row.id, row.started_at, 'The execution was interrupted (the watch restarted); nothing was stored or charged.'));
    }
  }

  private ensureTables(): void {
    this.sql`CREATE TABLE IF NOT EXISTS watch_record (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL)`;
    this.sql`CREATE TABLE IF NOT EXISTS watch_inflight (id TEXT PRIMARY KEY, started_at TEXT NOT NULL, reserved_micros INTEGER NOT NULL)`;
    this.sql`CREATE TABLE IF NOT EXISTS watch_executions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, record TEXT NOT NULL)`;
  }

  private read(): WatchRecord | null {
    this.ensureTables();
    const row = this.sql<{ record: string }>`SELECT record FROM watch_record WHERE id = 1`[0];
    return row ? (JSON.parse(row.record) as WatchRecord) : null;
  }

  /** Stores `watch` as the next version (synchronous: nothing else runs in between a read and this). */
  private write(watch: WatchRecord, now = new Date()): WatchRecord {
    const updatedAt = watch.version === 0 ? watch.updatedAt : laterThan(watch.updatedAt, now);
    const next = { ...watch, version: watch.version + 1, updatedAt };
    this.sql`INSERT INTO watch_record (id, record) VALUES (1, ${JSON.stringify(next)}) ON CONFLICT (id) DO UPDATE SET record = excluded.record`;
    return next;
  }

  private reservedMicros(): number {
    return this.sql<{ total: number }>`SELECT coalesce(sum(reserved_micros), 0) AS total FROM watch_inflight`[0]!.total;
  }

  // ------------------------------------------------------------------------------------------
  // RPC: create, read, cancel, run now, executions

  /** Creates the watch (idempotent: a second call answers the watch as it is) and schedules its first execution now. */
  async create(init: WatchInit): Promise<WatchView> {
    const existing = this.read();
    if (existing) return this.view(existing);
    const watch: WatchRecord = {
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
    const stored = this.write(watch, new Date(init.createdAt));
    const now = new Date();
    try {
      // The row exists before anything runs, so the watch is listed from the start.
      await mirrorWatchStatement(this.env.DB, this.rowOf(stored, now.toISOString())).run();
    } catch (error) {
      this.sql`DELETE FROM watch_record WHERE id = 1`;
      throw error;
    }
    await this.schedule(now, 'scheduledExecution');
    await this.scheduleEvery(frequencySeconds(init.frequency), 'scheduledExecution');
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
    await this.cancelSchedules();
    await this.writeMirror();
    return this.view(this.read() ?? cancelled);
  }

  /** Executes now, answering once the execution is done; the schedule stays as it is. */
  async runNow(): Promise<RunOutcome> {
    return this.execute('run');
  }

  /** Execution records, newest first, before `beforeSeq` (the seq of the last one of the previous page). */
  async executionsPage(limit: number, beforeSeq?: number): Promise<{ executions: ExecutionRecord[]; lastSeq: number | null; more: boolean }> {
    this.ensureTables();
    const rows = this.sql<{ seq: number; record: string }>`
      SELECT seq, record FROM watch_executions WHERE seq < ${beforeSeq ?? Number.MAX_SAFE_INTEGER} ORDER BY seq DESC LIMIT ${limit + 1}`;
    const page = rows.slice(0, limit);
    return { executions: page.map((r) => JSON.parse(r.record) as ExecutionRecord), lastSeq: page.at(-1)?.seq ?? null, more: rows.length > limit };
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
    await this.writeMirror();
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
    const reserved = this.reservedMicros();
    // A scheduled execution while another runs would only repeat it: skip it.
    if (trigger === 'schedule' && reserved > 0) return { ran: false, refusal: 'budget_reserved', watch: await this.view(watch) };
    if (!canPay(watch, reserved)) {
      if (reserved > 0) return { ran: false, refusal: 'budget_reserved', watch: await this.view(watch) };
      // Nothing in flight can give budget back: the watch is capped now.
      this.write({ ...watch, status: 'capped', retryScheduleId: null });
      await this.cancelSchedules();
      await this.writeMirror();
      return { ran: false, refusal: 'capped', watch: await this.view(this.read()!) };
    }

    const price = priceOf(watch.tier);
    const id = randomId('wex');
    const startedAt = new Date().toISOString();
    this.sql`INSERT INTO watch_inflight (id, started_at, reserved_micros) VALUES (${id}, ${startedAt}, ${price})`;

    let prepared: PreparedExecution | undefined;
    let failure: string | undefined;
    try {
      prepared = await this.prepare(this.env, watch, id);
    } catch (error) {
      failure = `The research failed: ${messageOf(error)}`;
    }

    if (prepared) {
      const nextRunAt = await this.nextRunAt();
      // The input gate was open while researching: read the ledger again, then charge at once.
      const current = this.read();
      this.sql`DELETE FROM watch_inflight WHERE id = ${id}`;
      if (!current || current.status === 'cancelled' || current.status === 'capped') {
        const why = current?.status === 'capped' ? 'capped' : 'cancelled';
        return this.finish(this.failedRecord(watch.id, id, startedAt, `The watch was ${why} while this execution ran; nothing was stored or charged.`), false);
      }
      const now = new Date();
      const budget = { ...current, spentMicros: current.spentMicros + price };
      const charged = this.write({
        ...current,
        spentMicros: budget.spentMicros,
        executions: current.executions + 1,
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
      };
      try {
        await prepared.commit([mirrorWatchStatement(this.env.DB, this.rowOf(charged, charged.status === 'capped' ? null : nextRunAt))]);
      } catch (error) {
        // Nothing of the batch was written: take the charge back (the ledger may have moved meanwhile).
        const after = this.read()!;
        const restored = after.status === 'capped' ? current.status : after.status;
        this.write({ ...after, spentMicros: after.spentMicros - price, executions: after.executions - 1, status: restored, consecutiveFailures: current.consecutiveFailures });
        return this.fail(this.failedRecord(watch.id, id, startedAt, `Storing the results failed: ${messageOf(error)}`));
      }
      // The batch carried the mirror row; it is written again only if the schedule changes now.
      let scheduleChanged = false;
      if (charged.status === 'capped') {
        await this.cancelSchedules();
      } else if (charged.retryScheduleId) {
        // A success ends the backoff.
        await this.cancelSchedule(charged.retryScheduleId);
        const latest = this.read()!;
        if (latest.retryScheduleId === charged.retryScheduleId) this.write({ ...latest, retryScheduleId: null });
        scheduleChanged = true;
      }
      return this.finish(record, !scheduleChanged);
    }
    this.sql`DELETE FROM watch_inflight WHERE id = ${id}`;
    return this.fail(this.failedRecord(watch.id, id, startedAt, failure!));
  }

  /** Records a failed execution: one more failure in a row (`failing` at five), and a retry with backoff. */
  private async fail(record: ExecutionRecord): Promise<RunOutcome> {
    const watch = this.read()!;
    if (watch.status === 'cancelled' || watch.status === 'capped') return this.finish(record, false);
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
      if (latest.status === 'cancelled' || latest.status === 'capped') await this.cancelSchedule(retry.id);
      else this.write({ ...latest, retryScheduleId: retry.id });
    }
    return this.finish(record, false);
  }

  /**
   * Stores the execution record (on a watch with a webhook, with its message enqueued in the same
   * step), writes the mirror (unless it is `mirrored` already) and hands the record on.
   */
  private async finish(record: ExecutionRecord, mirrored: boolean): Promise<RunOutcome> {
    const webhook = this.read()?.webhook ?? null;
    const now = Date.now();
    const stored: ExecutionRecord = webhook ? { ...record, webhook: { state: 'pending', attempts: 0, lastStatus: null, lastError: null, nextAttemptAt: new Date(now).toISOString() } } : record;
    const seq = this.storeExecution(stored);
    if (webhook) {
      const dropped = this.outbox().enqueue({ messageId: record.id, execSeq: seq, url: webhook.url, payload: JSON.stringify(record) }, now);
      for (const attempt of dropped) this.writeDeliveryState(attempt);
    }
    if (!mirrored) await this.writeMirror();
    if (webhook) await this.onExecutionFinished(stored);
    return { ran: true, execution: stored };
  }

  /**
   * Called once per finished execution of a watch with a webhook, after its results and charge
   * are committed (or it failed) and its message is in the outbox: arms the delivery on the
   * schedule. It never sends anything itself, so the execution never waits for a receiver.
   */
  protected async onExecutionFinished(_execution: ExecutionRecord): Promise<void> {
    await this.armDeliveries();
  }

  /** Stores an execution record; answers its seq. */
  private storeExecution(record: ExecutionRecord): number {
    const seq = this.sql<{ seq: number }>`INSERT INTO watch_executions (id, record) VALUES (${record.id}, ${JSON.stringify(record)}) RETURNING seq`[0]!.seq;
    this.sql`DELETE FROM watch_executions WHERE seq <= (SELECT max(seq) FROM watch_executions) - ${EXECUTIONS_KEPT}`;
    return seq;
  }

  // ------------------------------------------------------------------------------------------
  // Webhook delivery

  private outbox(): WebhookOutbox {
    return new WebhookOutbox(this.sql.bind(this));
  }

  /** Writes a delivery's state on its execution record (if the record is still kept). */
  private writeDeliveryState({ execSeq, state }: RecordedAttempt): void {
    this.sql`UPDATE watch_executions SET record = json_set(record, '$.webhook', json(${JSON.stringify(state)})) WHERE seq = ${execSeq}`;
  }

  /**
   * Keeps exactly one `deliverWebhooks` schedule, at the time the earliest message is due (rounded
   * up to the second, the schedule's resolution), or none when the outbox is empty.
   */
  private async armDeliveries(): Promise<void> {
    const earliest = this.outbox().earliest();
    const jobs = (await this.listSchedules()).filter((s) => s.callback === 'deliverWebhooks');
    const at = earliest === null ? null : Math.ceil(earliest / 1000);
    let armed = false;
    for (const job of jobs) {
      if (!armed && at !== null && job.time <= at) armed = true;
      else await this.cancelSchedule(job.id);
    }
    if (!armed && at !== null) await this.schedule(new Date(at * 1000), 'deliverWebhooks');
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
    this.delivering = this.deliverDue().finally(() => {
      this.delivering = null;
    });
  }

  /** Waits for the delivery under way in this instance, if any (tests and the benchmark). */
  async deliveriesSettled(): Promise<void> {
    while (this.delivering) await this.delivering;
  }

  /** Sends the due messages one by one, oldest execution first, then re-arms for the next due one. */
  private async deliverDue(): Promise<void> {
    try {
      for (;;) {
        const message = this.outbox().takeDue(Date.now());
        if (!message) break;
        const result = await this.attempt(message);
        const recorded = this.outbox().record(message, result, new Date(), this.webhookRandom);
        this.writeDeliveryState(recorded);
        const watch = this.read();
        const event = recorded.state.state === 'pending' ? 'watch_webhook_retry' : recorded.state.state === 'gave_up' ? 'watch_webhook_gave_up' : null;
        if (event) logEvent(event, { watchId: watch?.id, executionId: message.messageId, attempts: recorded.state.attempts, error: recorded.state.lastError });
      }
    } catch (error) {
      // Storage failing mid-delivery: the message keeps its lease and is tried again when it ends.
      logEvent('watch_webhook_error', { watchId: this.read()?.id, error: messageOf(error) });
    } finally {
      await this.armDeliveries();
    }
  }

  /** One attempt: the organization's secret as it is now signs it; without one, the attempt fails (and is retried). */
  private async attempt(message: OutboxMessage): Promise<DeliveryResult> {
    const watch = this.read();
    if (!watch) return { ok: false, error: 'the watch is gone' };
    let secret: string | null;
    try {
      secret = await webhookSecretOf(this.env.DB, watch.organizationId);
    } catch (error) {
      return { ok: false, error: `the webhook secret could not be read: ${messageOf(error)}` };
    }
    if (!secret) return { ok: false, error: 'your organization has no webhook secret: create one with POST /api/v1/oms/webhooks/secret' };
    return deliverWebhook({ url: message.url, secret, messageId: message.messageId, payload: JSON.parse(message.payload) as unknown, fetch: this.webhookFetch });
  }

  private failedRecord(watchId: string, id: string, startedAt: string, error: string): ExecutionRecord {
    return { id, watchId, startedAt, finishedAt: new Date().toISOString(), outcome: 'failed', costMicros: 0, briefKey: null, changes: [], error };
  }

  // ------------------------------------------------------------------------------------------
  // Schedule, view and mirror

  /** Ends the watch's executions (its interval, retry and mirror retries); webhook deliveries of finished executions go on. */
  private async cancelSchedules(): Promise<void> {
    for (const schedule of await this.listSchedules()) {
      if (schedule.callback !== 'deliverWebhooks') await this.cancelSchedule(schedule.id);
    }
  }

  /** When the next execution is due, or null when nothing is scheduled. */
  private async nextRunAt(): Promise<string | null> {
    const now = Date.now() / 1000;
    const times = (await this.listSchedules())
      .filter((s) => s.callback === 'scheduledExecution' || s.callback === 'retryExecution')
      .flatMap((s) => {
        if (!this.firing.has(s.id)) return [s.time];
        // Firing now: a one-off will not come again; an interval comes again one period from now.
        return s.type === 'interval' ? [Math.floor(now) + s.intervalSeconds] : [];
      });
    return times.length ? new Date(Math.min(...times) * 1000).toISOString() : null;
  }

  private async view(watch: WatchRecord): Promise<WatchView> {
    const ended = watch.status === 'cancelled' || watch.status === 'capped';
    return {
      id: watch.id,
      target: watch.target,
      query: watch.query,
      frequency: watch.frequency,
      tier: watch.tier,
      costCapMicros: watch.costCapMicros,
      spentMicros: watch.spentMicros,
      sourcePolicy: watch.sourcePolicy,
      status: watch.status,
      executions: watch.executions,
      lastRunAt: watch.lastRunAt,
      nextRunAt: ended ? null : await this.nextRunAt(),
      createdAt: watch.createdAt,
      updatedAt: watch.updatedAt,
      cancelledAt: watch.cancelledAt,
      webhook: watch.webhook ?? null,
    };
  }

  private rowOf(watch: WatchRecord, nextRunAt: string | null): WatchRow {
    return {
      id: watch.id,
      organizationId: watch.organizationId,
      targetType: watch.target.type,
      targetKey: watch.target.key,
      query: watch.query,
      frequency: watch.frequency,
      tier: watch.tier,
      costCapMicros: watch.costCapMicros,
      spentMicros: watch.spentMicros,
      sourcePolicy: watch.sourcePolicy,
      status: watch.status,
      executions: watch.executions,
      lastRunAt: watch.lastRunAt,
      nextRunAt: watch.status === 'cancelled' || watch.status === 'capped' ? null : nextRunAt,
      createdAt: watch.createdAt,
      updatedAt: watch.updatedAt,
      cancelledAt: watch.cancelledAt,
      version: watch.version,
      webhookUrl: watch.webhook?.url ?? null,
    };
  }

  /** Writes the D1 row from the record as it is now; a failed write is retried shortly (a newer one wins anyway). */
  private async writeMirror(): Promise<void> {
    const nextRunAt = await this.nextRunAt();
    const watch = this.read();
    if (!watch) return;
    try {
      await mirrorWatchStatement(this.env.DB, this.rowOf(watch, nextRunAt)).run();
    } catch (error) {
      logEvent('watch_mirror_failed', { watchId: watch.id, version: watch.version, error: messageOf(error) });
      await this.schedule(MIRROR_RETRY_SECONDS, 'remirror');
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `now`, or a millisecond after `previous` if the clock has not moved past it (updatedAt only goes forward). */
function laterThan(previous: string, now: Date): string {
  return new Date(Math.max(now.getTime(), Date.parse(previous) + 1)).toISOString();
}
