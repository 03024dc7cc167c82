import type { z } from 'zod';
import type { CommandDefinition, CommandResult } from './command-definition.ts';
import type { CoreContext } from '../ground/context.ts';
import { DomainError } from '../ground/errors.ts';
import { assertOnboarded } from './profile.ts';
import { assertScope } from '../ground/scopes.ts';
import { renderCatalog } from './catalog.ts';
import { AuditInput, CompetitorsInput, GtmAuditInput, HelpInput, ResearchInput } from './command-inputs.ts';
import { parseInput } from '../ground/validation.ts';
import { CatalogOutput, CompetitorsOutput, ResearchOutput } from './command-outputs.ts';
import { competitors } from './competitors.ts';
import { research } from './research.ts';
import { startAudit, startGtmAudit } from './runs.ts';
import { AUDIT_STEPS, STEP_TITLES } from '../runs/audit.ts';

function defineCommand<S extends z.ZodType>(definition: CommandDefinition<S>): CommandDefinition<S> {
  return definition;
}

export const COMMANDS: readonly CommandDefinition[] = [
  defineCommand({
    name: 'research',
    title: 'Research a topic',
    mode: 'sync',
    description: 'Researches a topic and returns a markdown brief whose every finding cites its source.',
    input: ResearchInput,
    example: { topic: 'Acme Analytics pricing', tier: 'lite' },
    requiresOnboarding: true,
    effects: { readOnly: false, idempotent: false, openWorld: true },
    output: ResearchOutput,
    outputSummary:
      'structuredContent holds the same brief as data: its claims in reading order, each a sentence quoted verbatim (the claim is its own quote), ' +
      "the answer flagged, with each source's url, title, domain and date; and the stored brief's key.",
    run: async (ctx, input, profile) => ({ mode: 'sync', ...(await research(ctx, input, profile!)) }),
  }),
  defineCommand({
    name: 'competitors',
    title: 'Analyse competitors',
    mode: 'sync',
    description:
      "Finds and ranks a company's competitors by the evidence in your sources and returns a markdown table with citations.",
    input: CompetitorsInput,
    example: { company: 'acme.com', limit: 5 },
    requiresOnboarding: true,
    effects: { readOnly: false, idempotent: true, openWorld: true },
    output: CompetitorsOutput,
    outputSummary:
      'structuredContent holds the table as data: the ranked competitors and every quoted claim (competition, price, strength, weakness) with its ' +
      "text, the whole source sentence as quote when the text is only part of it, and the source's url and title.",
    run: async (ctx, input, profile) => ({ mode: 'sync', ...(await competitors(ctx, input, profile!)) }),
  }),
  defineCommand({
    name: 'gtm-audit',
    title: 'Audit a go-to-market',
    mode: 'async',
    description:
      "Starts a background audit of a company's go-to-market (positioning, ICP, pricing, channels, competition, content); poll the run for the scored markdown report.",
    input: GtmAuditInput,
    example: { company: 'acme.com', focus: ['pricing', 'positioning'] },
    requiresOnboarding: true,
    effects: { readOnly: false, idempotent: false, openWorld: true },
    run: (ctx, input, profile) => startGtmAudit(ctx, input, profile!),
  }),
  defineCommand({
    name: 'audit',
    title: 'Audit your organization',
    mode: 'async',
    description:
      `Starts a background audit of your own organization (${AUDIT_STEPS.map((step) => STEP_TITLES[step]).join(', ')}); poll the run for the markdown report and fix list.`,
    input: AuditInput,
    example: {},
    requiresOnboarding: true,
    effects: { readOnly: false, idempotent: false, openWorld: false },
    run: (ctx, input, profile) => startAudit(ctx, input, profile!),
  }),
  defineCommand({
    name: 'help',
    title: 'Command catalog',
    mode: 'sync',
    description: 'Returns this catalog: every command, its mode, its arguments with types and limits, and an example call.',
    input: HelpInput,
    example: {},
    requiresOnboarding: false,
    effects: { readOnly: true, idempotent: true, openWorld: false },
    output: CatalogOutput,
    outputSummary: 'structuredContent lists the commands as data (name, title, mode, description, whether onboarding is needed, example arguments).',
    run: async () => ({ mode: 'sync', markdown: commandCatalog(), data: catalogData() }),
  }),
];

const BY_NAME = new Map(COMMANDS.map((command) => [command.name, command]));

/** The command called `name`, or 404 `not_found`. */
export function findCommand(name: string): CommandDefinition {
  const command = BY_NAME.get(name);
  if (!command) {
    throw new DomainError(
      'not_found',
      `Unknown command '${name}'. Commands: ${COMMANDS.map((c) => c.name).join(', ')}.`,
    );
  }
  return command;
}

let catalog: string | undefined;

/** The markdown catalog of every command (GET /api/v1/commands and `help`); built once per isolate. */
export function commandCatalog(): string {
  catalog ??= renderCatalog(COMMANDS);
  return catalog;
}

let catalogAsData: CatalogOutput | undefined;

/** The catalog as data (the help tool's structured content); built once per isolate. */
function catalogData(): CatalogOutput {
  catalogAsData ??= {
    commands: COMMANDS.map(({ name, title, mode, description, requiresOnboarding, example }) => ({
      name,
      title,
      mode,
      description,
      requiresOnboarding,
      example: example as Record<string, unknown>,
    })),
  };
  return catalogAsData;
}

/** The catalog for a caller: GET /api/v1/commands. Needs the `commands` scope like the commands. */
export function catalogFor(ctx: CoreContext): string {
  assertScope(ctx, 'commands');
  return commandCatalog();
}

/**
 * Runs a command for the caller: scope, then arguments, then onboarding, then the command itself.
 * Both doors call this; neither adds behaviour of its own.
 */
export async function executeCommand(ctx: CoreContext, name: string, rawInput: unknown): Promise<CommandResult> {
  assertScope(ctx, 'commands');
  const command = findCommand(name);
  return runCommand(ctx, command, parseInput(command.input, rawInput ?? {}, `arguments of ${command.name}`));
}

/** Runs a command whose arguments passed its schema: onboarding first (when it needs it), then the command. */
export async function runCommand(ctx: CoreContext, command: CommandDefinition, input: unknown): Promise<CommandResult> {
  const profile = command.requiresOnboarding ? await assertOnboarded(ctx) : null;
  return command.run(ctx, input, profile);
}
