import type { z } from 'zod';
import type { CoreContext } from '../ground/context.ts';
import type { SalesProfile } from '../ground/schemas/profile.ts';

/**
 * What a command is and what it produces: the types the command list (commands.ts), the catalog
 * and the run starts share, kept apart so none of them imports another in a circle.
 */

export type CommandMode = 'sync' | 'async';

/**
 * What a command produced: markdown now (sync) with the same result as data (the command's
 * `output`: a brief's claims, the catalog; an MCP tool's structured content), or a run to poll (async).
 */
export type CommandResult =
  | { mode: 'sync'; markdown: string; data: Record<string, unknown> }
  | { mode: 'async'; run: { id: string; kind: string; status: 'running' }; markdown: string };

export interface CommandEffects {
  /** Changes nothing stored (no brief, object or run is written). */
  readOnly: boolean;
  /** Calling it twice with the same input has no further effect. */
  idempotent: boolean;
  /** Reaches outside Recon (the web research provider) when one is configured. */
  openWorld: boolean;
}

export interface CommandDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  mode: CommandMode;
  /** One paragraph for people and models alike: what it does and what it returns. */
  description: string;
  input: S;
  /** For a sync command: the schema of its result's `data` (command-outputs.ts). */
  output?: z.ZodType;
  /** For a sync command: one sentence for a model on what `data` holds (tools/list lists schemas without descriptions). */
  outputSummary?: string;
  /** A valid body, shown in the catalog and the OpenAPI document. */
  example: z.input<S>;
  /** False only for `help`: every other command waits for a finished sales profile. */
  requiresOnboarding: boolean;
  /** What running it does to the world (MCP tool annotations are derived from this). */
  effects: CommandEffects;
  /** `profile` is the finished sales profile (null only for commands that do not require one). */
  run(ctx: CoreContext, input: z.output<S>, profile: SalesProfile | null): Promise<CommandResult>;
}
