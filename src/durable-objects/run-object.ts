import { DurableObject } from 'cloudflare:workers';
import { logEvent } from '../core/log.ts';
import { mirrorRun } from '../db/runs.ts';
import { RUN_PLANS } from '../runs/plans.ts';
import type { RunArgs, RunKind, RunPlan, RunRecord, StepOutput } from '../runs/types.ts';

/** A step that throws is retried this many times (with backoff) before the run fails. */
export const MAX_STEP_RETRIES = 3;
const BACKOFF_BASE_MS = 1_000;
/** How long one alarm keeps running steps before handing over to the next alarm. */
const STEPS_PER_ALARM_MS = 10_000;

export interface RunInit {
  id: string;
  kind: RunKind;
  organizationId: string;
  target: string;
  args: RunArgs;
  steps: string[];
}

/**
 * One asynchronous run (gtm-audit or audit). Its whole state is one record in storage under `run`;
 * `alarm()` runs the pending steps in order, persisting each output before the next step starts,
 * and re-arms when it hands over, so a restart or a deploy resumes where it stopped, and an alarm
 * delivered twice finds the steps done.
 */
export class RunObject extends DurableObject<Env> {
  /** The plans by kind; a test may replace this on one instance to inject failures. */
  plans: Record<RunKind, RunPlan> = RUN_PLANS;

  /** Starts the run (idempotent: a second call returns the run as it is). */
  async start(init: RunInit): Promise<RunRecord> {
    const existing = await this.ctx.storage.get<RunRecord>('run');
    if (existing) return existing;
    const now = new Date().toISOString();
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
    await this.save(run);
    await this.ctx.storage.setAlarm(Date.now());
    return run;
  }

  /** The run as stored, or null when this id was never started. */
  async read(): Promise<RunRecord | null> {
    return (await this.ctx.storage.get<RunRecord>('run')) ?? null;
  }

  /** Stops a running run, keeping what its finished steps found; a finished run is left as it is. */
  async cancel(): Promise<RunRecord | null> {
    const run = await this.read();
    if (!run || run.status !== 'running') return run;
    await this.ctx.storage.deleteAlarm();
    run.status = 'cancelled';
    run.finishedAt = new Date().toISOString();
    run.result = this.plans[run.kind].render(run);
    await this.save(run);
    return run;
  }

  /**
   * Runs pending steps, one after another, each stored before the next starts, until the run ends,
   * a step fails (it is retried on a later alarm, with backoff) or this alarm has worked for
   * STEPS_PER_ALARM_MS (the next alarm, due at once, takes over).
   */
  override async alarm(): Promise<void> {
    const started = Date.now();
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
      await this.finish(before);
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

    // The step ran with the gate open: re-read, so a cancel that landed meanwhile is not undone.
    const run = await this.read();
    if (!run || run.status !== 'running') return false;
    const step = run.steps.find((s) => s.name === pending.name)!;
    if (output) {
      step.output = output;
      step.status = 'done';
      step.error = undefined;
      step.finishedAt = new Date().toISOString();
      // The step's output is stored before anything else runs.
      await this.save(run);
      if (run.steps.some((s) => s.status === 'pending')) return true;
      await this.finish(run);
      return false;
    }

    step.attempts += 1;
    step.error = failure;
    logEvent('run_step_failed', { runId: run.id, step: step.name, attempt: step.attempts, error: failure });
    if (step.attempts > MAX_STEP_RETRIES) {
      step.status = 'failed';
      run.status = 'failed';
      run.finishedAt = new Date().toISOString();
      run.result = plan.render(run);
      await this.save(run);
      return false;
    }
    await this.save(run);
    await this.ctx.storage.setAlarm(Date.now() + BACKOFF_BASE_MS * 2 ** (step.attempts - 1));
    return false;
  }

  private async finish(run: RunRecord): Promise<void> {
    run.status = 'completed';
    run.finishedAt = new Date().toISOString();
    run.result = this.plans[run.kind].render(run);
    await this.save(run);
  }

  /** Persists the record, then mirrors its summary into D1 for listing. */
  private async save(run: RunRecord): Promise<void> {
    run.updatedAt = new Date().toISOString();
    await this.ctx.storage.put('run', run);
    await mirrorRun(this.env.DB, run);
  }
}
