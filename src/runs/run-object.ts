import { Agent, type Schedule } from 'agents';
import { readConfig } from '../ground/config.ts';
import { logEvent } from '../ground/log.ts';
import { mirrorRun } from '../db/runs.ts';
import { clearScratch, createRunTables, LEGACY_RUN_KEY, readRun, readRunStatus, readScratch, readScratchKeys, writeRun, writeScratch, writeScratchEntries } from '../db/run-object-storage.ts';
import { RUN_PLANS } from './plans.ts';
import type { RunInit, RunKind, RunPlan, RunRecord, StepResult, StepWork } from './types.ts';
import { messageOf } from '../ground/errors.ts';
import type { Db } from '../ground/db-session.ts';
import { ObjectDb } from '../db/d1-sessions.ts';

export type { RunInit } from './types.ts';

/** A step that throws is retried this many times (with backoff) before the run fails. */
export const MAX_STEP_RETRIES = 3;
const BACKOFF_BASE_MS = 1_000;
/** How long one `advance` keeps running steps (or slices of one) before handing over to the next one. */
const STEPS_PER_ALARM_MS = 10_000;
/** When a D1 summary write fails, `remirror` writes it again after this long. */
const MIRROR_RETRY_MS = 1_000;
/**
 * Where the `agents` lifecycle looks for the name of an object whose id has none. A run object is
 * addressed by its unique id (the run id), which carries no name, and an Agent does not start
 * without one: the object names itself with its id there (see the constructor).
 */
const STORED_NAME_KEY = '__ps_name';


/**
 * One asynchronous run (gtm-audit, audit or site-read), an `agents` Agent addressed by its unique id (the run
 * id). Its state is the run record in its SQLite (src/db/run-object-storage.ts); the steps advance
 * on its schedule: `advance` runs the pending steps in order, persisting each output before the
 * next step starts, and schedules the next `advance` when it hands over or backs off, so a restart
 * or a deploy resumes where it stopped, and an `advance` delivered twice finds the steps done.
 *
 * Every change of the record after start goes through `transition()`, a compare-and-set on the
 * object's own storage: it changes only a `running` run (`completed`, `failed` and `cancelled` are
 * terminal), so a step that finishes after a cancel has its output discarded, and it writes the D1
 * summary itself, with a guard that makes the summary move forward only. A summary write that
 * fails is written again by `remirror`, MIRROR_RETRY_MS later, until D1 takes it.
 */
export class RunObject extends Agent {
  /** The plans by kind; a test may replace this on one instance to inject failures. */
  plans: Record<RunKind, RunPlan> = RUN_PLANS;
  /** Writes the run's summary row in D1; a test may wrap it to make one write land late. */
  mirror: (db: Db, run: RunRecord) => Promise<void> = mirrorRun;
  /** The pause between one step and the next (RUN_STEP_PAUSE_MS; 0: none), in ms; a test may set it on one instance. */
  stepPauseMs: number;
  /**
   * The object's one D1 session, for its steps and its summary writes: each reads at least what the
   * ones before it wrote; its bookmark is kept in the object's storage after each (`keep`), so the
   * run continues from it after a restart.
   */
  readonly db: ObjectDb;

  /** The `advance` running in this instance, if any: a second delivery meanwhile leaves the steps to it. */
  private advancing: Promise<void> | null = null;
  /**
   * The stored run's status as this object last wrote or read it (undefined: not yet read). The
   * object is its run's only writer, and every write goes through `store`, so a slice asks it
   * between pages without a query each time.
   */
  private status: string | null | undefined;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.stepPauseMs = readConfig(env).RUN_STEP_PAUSE_MS;
    this.db = new ObjectDb(env, ctx.storage.kv);
    // Synchronous, before anything can start the lifecycle (which reads the name).
    if (ctx.id.name === undefined && ctx.storage.kv.get(STORED_NAME_KEY) === undefined) ctx.storage.kv.put(STORED_NAME_KEY, ctx.id.toString());
  }

  /**
   * Creates the tables, and moves a run stored by the earlier version of this object (one
   * key-value record, advanced by raw alarms) into them, scheduling what it was waiting for: its
   * next step, or (an ended run) its D1 summary once more. The platform alarm such a run left
   * behind wakes the object, and this start runs before its schedule is read.
   */
  override async onStart(): Promise<void> {
    createRunTables(this.sql.bind(this));
    const legacy = this.ctx.storage.kv.get<RunRecord>(LEGACY_RUN_KEY);
    if (legacy === undefined) return;
    if (!this.stored()) this.store(legacy);
    this.ctx.storage.kv.delete(LEGACY_RUN_KEY);
    const run = this.stored()!;
    await this.schedule(new Date(), run.status === 'running' ? 'advance' : 'remirror', undefined, { idempotent: true });
  }

  /** Starts the run (idempotent: a second call returns the run as it is). */
  async start(init: RunInit): Promise<RunRecord> {
    const existing = this.stored();
    if (existing) return existing;
    const now = init.createdAt ?? new Date().toISOString();
    const run: RunRecord = {
      id: init.id,
      kind: init.kind,
      organizationId: init.organizationId,
      target: init.target,
      args: init.args,
      status: 'running',
      steps: init.steps.map((name) => ({ name, status: 'pending', attempts: 0 })),
      createdAt: now,
      updatedAt: now,
    };
    this.store(run);
    await this.schedule(new Date(), 'advance');
    await this.writeMirror(run);
    return run;
  }

  /** The run as stored, or null when this id was never started. */
  async read(): Promise<RunRecord | null> {
    return this.stored();
  }

  /** Stops a running run, keeping what its finished steps found; a finished run is left as it is. */
  async cancel(): Promise<RunRecord | null> {
    const cancelled = await this.transition((run) => {
      run.status = 'cancelled';
      run.finishedAt = new Date().toISOString();
      run.result = this.plans[run.kind].render(run);
    });
    return cancelled ?? this.stored();
  }

  // ------------------------------------------------------------------------------------------
  // Schedule callbacks (the Agent calls them by name from its alarm)

  /**
   * Runs pending steps, one after another, each stored before the next starts, until the run ends,
   * a step fails (it is retried by a later `advance`, with backoff) or this one has worked for
   * STEPS_PER_ALARM_MS (the next `advance`, due at once, takes over).
   */
  async advance(): Promise<void> {
    if (this.advancing) return;
    this.advancing = this.runSteps().finally(() => {
      this.advancing = null;
    });
    await this.advancing;
  }

  /** Writes the D1 summary again after a failed write. */
  async remirror(_payload?: unknown, schedule?: Schedule<unknown>): Promise<void> {
    const run = this.stored();
    if (run) await this.writeMirror(run, schedule?.id);
  }

  // ------------------------------------------------------------------------------------------
  // The steps

  private stored(): RunRecord | null {
    return readRun<RunRecord>(this.sql.bind(this));
  }

  private async runSteps(): Promise<void> {
    const started = Date.now();
    while (await this.runNextStep(started + STEPS_PER_ALARM_MS)) {
      if (Date.now() - started >= STEPS_PER_ALARM_MS) {
        await this.schedule(new Date(), 'advance');
        return;
      }
    }
  }

  /**
   * Runs the next pending step (or, for a step that works in slices, its next slice, which should
   * end soon after `handOverAt`); true when more is ready to run now.
   */
  private async runNextStep(handOverAt: number): Promise<boolean> {
    const before = this.stored();
    if (!before || before.status !== 'running') return false;
    const pending = before.steps.find((s) => s.status === 'pending');
    if (!pending) {
      await this.finish();
      return false;
    }

    const plan = this.plans[before.kind];
    let result: StepResult | undefined;
    let failure: string | undefined;
    try {
      result = await plan.executeStep(this.env, before, pending.name, this.stepWork(handOverAt));
    } catch (error) {
      failure = messageOf(error);
    } finally {
      this.db.keep();
    }

    // The step ran with the input gate open: a cancel may have landed meanwhile. The transition
    // re-reads the record and discards this step's result unless the run is still running.
    if (result && 'progress' in result) {
      const stored = await this.transition((run) => {
        run.steps.find((s) => s.name === pending.name)!.progress = result.progress;
      });
      return stored !== null;
    }
    if (result && 'failure' in result) {
      await this.transition((run) => {
        const step = run.steps.find((s) => s.name === pending.name)!;
        step.status = 'failed';
        step.error = result.failure;
        step.finishedAt = new Date().toISOString();
        run.status = 'failed';
        run.finishedAt = step.finishedAt;
        run.result = plan.render(run);
      });
      return false;
    }
    const output = result;
    if (output) {
      const stored = await this.transition((run) => {
        const step = run.steps.find((s) => s.name === pending.name)!;
        step.output = output;
        step.status = 'done';
        step.error = undefined;
        step.finishedAt = new Date().toISOString();
      });
      if (!stored) return false;
      if (stored.steps.some((s) => s.status === 'pending')) {
        if (this.stepPauseMs <= 0) return true;
        // The schedule counts in whole seconds: round up, so the pause is never shorter than asked.
        await this.schedule(new Date(Math.ceil((Date.now() + this.stepPauseMs) / 1000) * 1000), 'advance');
        return false;
      }
      await this.finish();
      return false;
    }

    let retryAt: number | undefined;
    await this.transition((run) => {
      const step = run.steps.find((s) => s.name === pending.name)!;
      step.attempts += 1;
      step.error = failure;
      logEvent('run_step_failed', { runId: run.id, step: step.name, attempt: step.attempts, error: failure });
      if (step.attempts > MAX_STEP_RETRIES) {
        step.status = 'failed';
        run.status = 'failed';
        run.finishedAt = new Date().toISOString();
        run.result = plan.render(run);
      } else {
        retryAt = Date.now() + BACKOFF_BASE_MS * 2 ** (step.attempts - 1);
      }
    });
    // The schedule counts in whole seconds: round up, so the retry never comes before its backoff.
    if (retryAt !== undefined && this.stored()?.status === 'running') await this.schedule(new Date(Math.ceil(retryAt / 1000) * 1000), 'advance');
    return false;
  }

  /** What a step may use besides the run (see StepWork). */
  private stepWork(handOverAt: number): StepWork {
    const sql = this.sql.bind(this);
    return {
      scratch: {
        get: (key) => readScratch(sql, key),
        keys: (prefix) => readScratchKeys(sql, prefix),
        // A slice still working when its run ends (a cancel) keeps nothing: the scratch space went with the run.
        put: (key, value) => {
          if (this.running()) writeScratch(sql, key, value);
        },
        putAll: (entries) => {
          if (this.running()) writeScratchEntries(sql, entries);
        },
      },
      handOverAt,
      db: this.db,
      stillRunning: () => this.running(),
    };
  }

  /** Whether the stored run is still running (see `status`). */
  private running(): boolean {
    if (this.status === undefined) this.status = readRunStatus(this.sql.bind(this));
    return this.status === 'running';
  }

  /** Stores the run (record and steps), and remembers its status. */
  private store(run: RunRecord): void {
    this.status = undefined; // read again if the write throws
    writeRun(this.sql.bind(this), run);
    this.status = run.status;
  }

  /** Completes a running run whose steps are all done. */
  private async finish(): Promise<void> {
    await this.transition((run) => {
      if (run.steps.some((s) => s.status === 'pending')) return false;
      run.status = 'completed';
      run.finishedAt = new Date().toISOString();
      run.result = this.plans[run.kind].render(run);
    });
  }

  /**
   * The one way a started run's record changes: a compare-and-set. It reads the stored record and,
   * only if it is still `running`, lets `change` edit it (`change` may return false to leave it as
   * it is) and stores it, synchronously (nothing else runs in the object in between). A run that
   * reaches a terminal state loses its pending `advance`. Then it writes the D1 summary from here,
   * the one place that writes it after start. Returns the stored record, or null when nothing changed.
   */
  private async transition(change: (run: RunRecord) => boolean | void): Promise<RunRecord | null> {
    const run = this.stored();
    if (!run || run.status !== 'running') return null;
    if (change(run) === false) return null;
    // Strictly increasing, so the D1 summary (which only moves to a later updatedAt) keeps order.
    run.updatedAt = new Date(Math.max(Date.now(), Date.parse(run.updatedAt) + 1)).toISOString();
    this.store(run);
    if (run.status !== 'running') {
      // An ended run never resumes: what its steps kept between slices goes with the same write.
      clearScratch(this.sql.bind(this));
      await this.cancelScheduled('advance');
    }
    await this.writeMirror(run);
    return run;
  }

  /**
   * Writes the D1 summary; if D1 fails, the change stays stored and `remirror` writes the summary
   * again MIRROR_RETRY_MS later (one at a time: `firing` is the `remirror` calling, if any).
   */
  private async writeMirror(run: RunRecord, firing?: string): Promise<void> {
    try {
      await this.mirror(this.db, run);
      this.db.keep();
    } catch (error) {
      logEvent('run_mirror_failed', { runId: run.id, status: run.status, error: messageOf(error) });
      const pending = (await this.listSchedules()).some((s) => s.callback === 'remirror' && s.id !== firing);
      if (!pending) await this.schedule(new Date(Math.ceil((Date.now() + MIRROR_RETRY_MS) / 1000) * 1000), 'remirror');
    }
  }

  /** Cancels every pending schedule of `callback`. */
  private async cancelScheduled(callback: 'advance' | 'remirror'): Promise<void> {
    for (const schedule of await this.listSchedules()) {
      if (schedule.callback === callback) await this.cancelSchedule(schedule.id);
    }
  }
}
