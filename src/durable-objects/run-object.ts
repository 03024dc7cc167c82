import { DurableObject } from 'cloudflare:workers';
import { logEvent } from '../ground/log.ts';
import { mirrorRun } from '../db/runs.ts';
import { RUN_PLANS } from '../runs/plans.ts';
import type { RunArgs, RunKind, RunPlan, RunRecord, StepOutput } from '../runs/types.ts';

/** A step that throws is retried this many times (with backoff) before the run fails. */
export const MAX_STEP_RETRIES = 3;
const BACKOFF_BASE_MS = 1_000;
/** How long one alarm keeps running steps before handing over to the next alarm. */
const STEPS_PER_ALARM_MS = 10_000;
/** When a D1 summary write fails, the alarm writes it again after this long. */
const MIRROR_RETRY_MS = 1_000;

export interface RunInit {
  id: string;
  kind: RunKind;
  organizationId: string;
  target: string;
  args: RunArgs;
  steps: string[];
  /** When the run was accepted (the D1 row written at launch carries the same time). */
  createdAt?: string;
}

/**
 * One asynchronous run (gtm-audit or audit). Its whole state is one record in storage under `run`;
 * `alarm()` runs the pending steps in order, persisting each output before the next step starts,
 * and re-arms when it hands over, so a restart or a deploy resumes where it stopped, and an alarm
 * delivered twice finds the steps done.
 *
 * Every change of the record after start goes through `transition()`, a compare-and-set on the
 * object's own storage: it changes only a `running` run (`completed`, `failed` and `cancelled` are
 * terminal), so a step that finishes after a cancel has its output discarded, and it writes the D1
 * summary itself, with a guard that makes the summary move forward only.
 */
export class RunObject extends DurableObject<Env> {
  /** The plans by kind; a test may replace this on one instance to inject failures. */
  plans: Record<RunKind, RunPlan> = RUN_PLANS;
  /** Writes the run's summary row in D1; a test may wrap it to make one write land late. */
  mirror: (db: D1Database, run: RunRecord) => Promise<void> = mirrorRun;

  /** Starts the run (idempotent: a second call returns the run as it is). */
  async start(init: RunInit): Promise<RunRecord> {
    const existing = await this.read();
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
    await this.ctx.storage.put('run', run);
    await this.ctx.storage.setAlarm(Date.now());
    await this.writeMirror(run);
    return run;
  }

  /** The run as stored, or null when this id was never started. */
  async read(): Promise<RunRecord | null> {
    return (await this.ctx.storage.get<RunRecord>('run')) ?? null;
  }

  /** Stops a running run, keeping what its finished steps found; a finished run is left as it is. */
  async cancel(): Promise<RunRecord | null> {
    const cancelled = await this.transition((run) => {
      run.status = 'cancelled';
      run.finishedAt = new Date().toISOString();
      run.result = this.plans[run.kind].render(run);
    });
    return cancelled ?? this.read();
  }

  /**
   * Runs pending steps, one after another, each stored before the next starts, until the run ends,
   * a step fails (it is retried on a later alarm, with backoff) or this alarm has worked for
   * STEPS_PER_ALARM_MS (the next alarm, due at once, takes over). For a run that has ended, it
   * writes the D1 summary again (an earlier write failed).
   */
  override async alarm(): Promise<void> {
    const started = Date.now();
    const run = await this.read();
    if (run && run.status !== 'running') {
      // Failing again re-arms this alarm (writeMirror): the summary is written once D1 answers,
      // never left to the platform's few retries of an alarm that throws.
      await this.writeMirror(run);
      return;
    }
    while (await this.runNextStep()) {
      if (Date.now() - started >= STEPS_PER_ALARM_MS) {
        await this.ctx.storage.setAlarm(Date.now());
        return;
      }
    }
  }

  /** Runs the next pending step; true when another step is ready to run now. */
  private async runNextStep(): Promise<boolean> {
    const before = await this.read();
    if (!before || before.status !== 'running') return false;
    const pending = before.steps.find((s) => s.status === 'pending');
    if (!pending) {
      await this.finish();
      return false;
    }

    const plan = this.plans[before.kind];
    let output: StepOutput | undefined;
    let failure: string | undefined;
    try {
      output = await plan.executeStep(this.env, before, pending.name);
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }

    // The step ran with the input gate open: a cancel may have landed meanwhile. The transition
    // re-reads the record and discards this step's result unless the run is still running.
    if (output) {
      const stored = await this.transition((run) => {
        const step = run.steps.find((s) => s.name === pending.name)!;
        step.output = output;
        step.status = 'done';
        step.error = undefined;
        step.finishedAt = new Date().toISOString();
      });
      if (!stored) return false;
      if (stored.steps.some((s) => s.status === 'pending')) return true;
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
    if (retryAt !== undefined && (await this.read())?.status === 'running') await this.ctx.storage.setAlarm(retryAt);
    return false;
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
   * it is) and stores it, with no await on anything but this object's own storage in between, so
   * no other request or alarm can run inside it. A run that reaches a terminal state loses its
   * alarm. Then it writes the D1 summary from here, the one place that writes it after start.
   * Returns the stored record, or null when nothing changed.
   */
  private async transition(change: (run: RunRecord) => boolean | void): Promise<RunRecord | null> {
    const run = await this.read();
    if (!run || run.status !== 'running') return null;
    if (change(run) === false) return null;
    // Strictly increasing, so the D1 summary (which only moves to a later updatedAt) keeps order.
    run.updatedAt = new Date(Math.max(Date.now(), Date.parse(run.updatedAt) + 1)).toISOString();
    await this.ctx.storage.put('run', run);
    if (run.status !== 'running') await this.ctx.storage.deleteAlarm();
    await this.writeMirror(run);
    return run;
  }

  /**
   * Writes the D1 summary; if D1 fails, the change stays stored and the alarm writes the summary
   * again shortly (for a running run, its next step writes a newer one anyway).
   */
  private async writeMirror(run: RunRecord): Promise<void> {
    try {
      await this.mirror(this.env.DB, run);
    } catch (error) {
      logEvent('run_mirror_failed', { runId: run.id, status: run.status, error: error instanceof Error ? error.message : String(error) });
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + MIRROR_RETRY_MS);
    }
  }
}
