import type { Finding, ResearchSource } from '../research/provider.ts';

import type { RunKind, RunStatus } from '../ground/run-kinds.ts';
import type { Db } from '../ground/db-session.ts';

export { RUN_KINDS, RUN_STATUSES, type RunKind, type RunStatus } from '../ground/run-kinds.ts';


/**
 * A run's arguments: plain values only (no recursive JSON type), so the record crosses Durable
 * Object RPC with its type intact.
 */
export type RunArgs = Record<string, string | number | boolean | string[] | { key: string; name?: string } | undefined>;

/** What starting a run hands its object. */
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

/** What one step produced: the facts its report section is written from. */
export interface StepOutput {
  /** 0-100, or null when the area could not be scored (e.g. nothing to assess). */
  score: number | null;
  /** One line for the scorecard. */
  summary: string;
  /** Markdown lines of the section: measurements and how the score was reached. */
  details: string[];
  /** Sentences quoted verbatim from `sources[source]`. */
  findings: Finding[];
  sources: ResearchSource[];
  /** Recommended fixes, most important first. */
  fixes: Fix[];
  /**
   * The step's report as data, for clients that read structure (site reads: report-data.ts), as a
   * JSON text: a run record crosses Durable Object RPC, whose types refuse `unknown`.
   */
  data?: string;
  /**
   * The rubric the score was judged by (gtm-audit areas): each point, whether it was met, and the
   * finding (an index into `findings`) that meets it. Absent in outputs of older runs and in the
   * audit's own steps.
   */
  rubric?: { label: string; met: boolean; finding?: number }[];
}

export interface Fix {
  priority: 'high' | 'medium' | 'low';
  action: string;
  /** Exactly where to fix it: an endpoint, a CLI command or a page, and the object or key it concerns. */
  where: string;
  /** How many things (objects, keys, watches, requests) it fixes: within a priority, larger first. */
  impact?: number;
}

export interface StepRecord {
  name: string;
  /** pending: not yet done (or being retried); done: output persisted; failed: gave up. */
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  /** A long step that works in slices (a site read's pages): how far it got, for the status line. */
  progress?: string;
  output?: StepOutput;
  error?: string;
  finishedAt?: string;
}

/** A run's whole state, kept in its Durable Object's SQLite (src/db/run-object-storage.ts). */
export interface RunRecord {
  id: string;
  kind: RunKind;
  organizationId: string;
  /** What is audited, for the status line, e.g. `acme.com`. */
  target: string;
  /** The command's validated arguments (plus `subject` for gtm-audit: the company, resolved). */
  args: RunArgs;
  status: RunStatus;
  steps: StepRecord[];
  /** The final markdown, once completed, failed or cancelled. */
  result?: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

/**
 * What a step may use besides the run: a scratch space in the run object's own SQLite (JSON values
 * by key, kept until the run's object is gone), the time by which a slice should hand over, and
 * whether the run is still running (a cancel may land while a step works).
 */
export interface StepWork {
  scratch: {
    get<T>(key: string): T | undefined;
    /** The keys kept that start with `prefix`. */
    keys(prefix: string): string[];
    put(key: string, value: unknown): void;
    /** Keeps several values in one write: all of them or, if it throws, none. */
    putAll(entries: ReadonlyArray<readonly [key: string, value: unknown]>): void;
  };
  /** Epoch ms: a step working in slices returns StepProgress soon after this. */
  handOverAt: number;
  /**
   * The run object's D1 session (ObjectDb, src/ground/db-session.ts): every D1 statement of the step
   * goes through it, so a step reads at least what the steps before it wrote.
   */
  db: Db;
  stillRunning(): boolean;
}

/** A step that worked a slice and is not finished: call it again (at once, from a new `advance`). */
export interface StepProgress {
  progress: string;
}

/** A step that cannot succeed (retrying would not help): the run fails at once, with this reason. */
export interface StepFailure {
  failure: string;
}

export type StepResult = StepOutput | StepProgress | StepFailure;

/** What a run needs from its kind: its steps, how to run one, and how to write the report. */
export interface RunPlan {
  kind: RunKind;
  /**
   * Runs one step (or one slice of it); must be safe to run again: it only reads and returns its
   * output, or what it writes is idempotent and its progress is kept in `work.scratch`.
   */
  executeStep(env: Env, run: RunRecord, step: string, work: StepWork): Promise<StepResult>;
  /** The final markdown from the steps' outputs. */
  render(run: RunRecord): string;
}
