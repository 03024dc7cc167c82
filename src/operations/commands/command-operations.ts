import { z } from 'zod';
import type { CoreContext } from '../../ground/context.ts';
import { DomainError } from '../../ground/errors.ts';
import { briefUri } from '../../ground/resource-uris.ts';
import { assertScope } from '../../ground/scopes.ts';
import type { SalesProfile } from '../../ground/schemas/profile.ts';
import { AUDIT_STEPS, STEP_TITLES } from '../../runs/audit.ts';
import { defineOperation, type CommandFields, type CommandResult, type OperationDefinition, type ToolAnswer } from '../definition.ts';
import { assertOnboarded } from '../profile/profile.ts';
import { startAudit, startGtmAudit } from '../runs/runs.ts';
import { renderCatalog } from './catalog.ts';
import { AuditInput, CompetitorsInput, GtmAuditInput, HelpInput, ResearchInput } from './command-inputs.ts';
import { CatalogOutput, CompetitorsOutput, ResearchOutput, RunStartOutput } from './command-outputs.ts';
import { competitors } from './competitors.ts';
import { research } from './research.ts';

/**
 * What a command declares: the fields of an operation it sets itself (its id is the command's name),
 * its catalog fields, and its work. defineCommand derives the rest of the operation: scope and rate
 * bucket `commands`, POST /api/v1/commands/{id} and the tool of the same name, the onboarding check.
 */
interface CommandDeclaration<S extends z.ZodType> extends Pick<OperationDefinition<S>, 'id' | 'input' | 'effects' | 'freshness'> {
  command: Omit<CommandFields, 'example'> & { example: z.input<S> };
  /** For a sync command: the schema of its result's `data` (./command-outputs.ts), the structured content of its tool. */
  output?: z.ZodType;
  /** For a sync command: one sentence for a model on what its structured content holds (tools/list lists schemas without descriptions). */
  outputSummary?: string;
  /** `profile` is the finished sales profile (null only for a command that does not require one). */
  run(ctx: CoreContext, input: z.output<S>, profile: SalesProfile | null): Promise<CommandResult>;
}

/** The schema component name of a command's arguments, e.g. `GtmAuditInput`. */
const inputName = (id: string) => `${id.replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}Input`;

/**
 * Over MCP: the markdown REST answers, byte for byte, with the same result as data (a brief's
 * claims, the catalog: the command's `output`), or for a started run how to poll it. A result that
 * stored a brief (research) links it as a resource: the whole brief, however long.
 */
export function commandToolAnswer(result: CommandResult): ToolAnswer {
  if (result.mode === 'sync') {
    const brief = typeof result.data.brief === 'string' ? result.data.brief : undefined;
    if (!brief) return { text: result.markdown, structured: result.data };
    const link = { uri: briefUri(brief), name: brief, title: 'The research brief', mimeType: 'text/markdown' };
    return { text: result.markdown, structured: result.data, links: [link], whole: `the resource ${link.uri} (resources/read, with the oms:read scope)` };
  }
  const { id, kind, status } = result.run;
  return { text: result.markdown, structured: { runId: id, kind, status, poll: { tool: 'run-status', arguments: { kind, id } } } };
}

/**
 * Declares a command: an operation with catalog fields, reached at POST /api/v1/commands/{id} and as
 * the MCP tool of the same name. Its work runs once the arguments passed and, when it needs one, the
 * sales profile is finished.
 */
function defineCommand<S extends z.ZodType>({ id, input, output, effects, freshness, command, outputSummary, run }: CommandDeclaration<S>): OperationDefinition {
  const { title, mode, description, requiresOnboarding, example } = command;
  return defineOperation({
    id,
    scope: 'commands',
    bucket: 'commands',
    input,
    inputName: `arguments of ${id}`,
    errors: ['invalid_input', 'payload_too_large', ...(requiresOnboarding ? (['onboarding_required'] as const) : [])],
    effects,
    freshness,
    command: { ...command, example: example as Record<string, unknown> },
    run: async (ctx, args) => run(ctx, args, requiresOnboarding ? await assertOnboarded(ctx) : null),
    rest: {
      method: 'post',
      path: `/commands/${id}`,
      operationId: `command_${id.replace('-', '_')}`,
      summary: title,
      description: `${description} Send the arguments as a JSON object (an empty body is {}); unknown fields are refused.`,
      input: { from: 'body', name: inputName(id), example },
      answer: { kind: 'command', mode },
    },
    mcp: {
      title,
      description:
        description +
        (requiresOnboarding ? ' Needs a finished sales profile (set-profile).' : '') +
        (mode === 'async' ? ' Returns a run id at once; the result is polled by id.' : '') +
        (outputSummary ? ` ${outputSummary}` : ''),
      startsRun: mode === 'async',
      asksOnboarding: requiresOnboarding,
      answer: commandToolAnswer,
      outputSchema: mode === 'async' ? RunStartOutput : output,
    },
  });
}

/** The organization audit: also started by POST /api/v1/audit (../runs/audit-shortcut.ts). */
export const AUDIT_COMMAND = defineCommand({
  id: 'audit',
  input: AuditInput,
  effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  command: {
    title: 'Audit your organization',
    mode: 'async',
    description: `Starts a background audit of your own organization (${AUDIT_STEPS.map((step) => STEP_TITLES[step]).join(', ')}); poll the run for the markdown report and fix list.`,
    example: {},
    requiresOnboarding: true,
  },
  run: (ctx, input, profile) => startAudit(ctx, input, profile!),
});

/** The commands, in the order of the catalog, the OpenAPI document and tools/list. */
export const COMMANDS: readonly OperationDefinition[] = [
  defineCommand({
    id: 'research',
    input: ResearchInput,
    output: ResearchOutput,
    effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    freshness: 'recent',
    command: {
      title: 'Research a topic',
      mode: 'sync',
      description: 'Researches a topic and returns a markdown brief whose every finding cites its source.',
      example: { topic: 'Acme Analytics pricing', tier: 'lite' },
      requiresOnboarding: true,
    },
    outputSummary:
      'structuredContent holds the same brief as data: its claims in reading order, each a sentence quoted verbatim (the claim is its own quote), ' +
      "the answer flagged, with each source's url, title, domain and date; and the stored brief's key.",
    run: async (ctx, input, profile) => ({ mode: 'sync', ...(await research(ctx, input, profile!)) }),
  }),
  defineCommand({
    id: 'competitors',
    input: CompetitorsInput,
    output: CompetitorsOutput,
    effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    freshness: 'recent',
    command: {
      title: 'Analyse competitors',
      mode: 'sync',
      description: "Finds and ranks a company's competitors by the evidence in your sources and returns a markdown table with citations.",
      example: { company: 'acme.com', limit: 5 },
      requiresOnboarding: true,
    },
    outputSummary:
      'structuredContent holds the table as data: the ranked competitors and every quoted claim (competition, price, strength, weakness) with its ' +
      "text, the whole source sentence as quote when the text is only part of it, and the source's url and title.",
    run: async (ctx, input, profile) => ({ mode: 'sync', ...(await competitors(ctx, input, profile!)) }),
  }),
  defineCommand({
    id: 'gtm-audit',
    input: GtmAuditInput,
    effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    command: {
      title: 'Audit a go-to-market',
      mode: 'async',
      description:
        "Starts a background audit of a company's go-to-market (positioning, ICP, pricing, channels, competition, content); poll the run for the scored markdown report.",
      example: { company: 'acme.com', focus: ['pricing', 'positioning'] },
      requiresOnboarding: true,
    },
    run: (ctx, input, profile) => startGtmAudit(ctx, input, profile!),
  }),
  AUDIT_COMMAND,
  defineCommand({
    id: 'help',
    input: HelpInput,
    output: CatalogOutput,
    effects: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    freshness: 'recent',
    command: {
      title: 'Command catalog',
      mode: 'sync',
      description: 'Returns this catalog: every command, its mode, its arguments with types and limits, and an example call.',
      example: {},
      requiresOnboarding: false,
    },
    outputSummary: 'structuredContent lists the commands as data (name, title, mode, description, whether onboarding is needed, example arguments).',
    run: async () => ({ mode: 'sync', markdown: commandCatalog(), data: catalogData() }),
  }),
];

/** What a command's declaration says to the catalog. */
const catalogFieldsOf = (command: OperationDefinition): CommandFields => command.command!;

let catalog: string | undefined;

/** The markdown catalog of every command (GET /api/v1/commands and `help`); built once per isolate. */
export function commandCatalog(): string {
  catalog ??= renderCatalog(COMMANDS.map((command) => ({ id: command.id, input: command.input, ...catalogFieldsOf(command) })));
  return catalog;
}

let catalogAsData: CatalogOutput | undefined;

/** The catalog as data (the help tool's structured content); built once per isolate. */
function catalogData(): CatalogOutput {
  catalogAsData ??= {
    commands: COMMANDS.map((command) => {
      const { title, mode, description, requiresOnboarding, example } = catalogFieldsOf(command);
      return { name: command.id, title, mode, description, requiresOnboarding, example };
    }),
  };
  return catalogAsData;
}

/**
 * A call of a command by a name no command has (POST /api/v1/commands/<name>, which reaches no
 * command's route): 403 without the `commands` scope, as for a known command, else 404 naming the
 * commands.
 */
export function refuseUnknownCommand(ctx: CoreContext, name: string): never {
  assertScope(ctx, 'commands');
  throw new DomainError('not_found', `Unknown command '${name}'. Commands: ${COMMANDS.map((command) => command.id).join(', ')}.`);
}

/** The command catalog and the commands themselves. */
export const COMMAND_OPERATIONS: readonly OperationDefinition[] = [
  defineOperation({
    id: 'list-commands',
    scope: 'commands',
    bucket: 'reads',
    input: z.object({}),
    errors: [],
    effects: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    freshness: 'recent',
    run: async () => commandCatalog(),
    rest: {
      method: 'get',
      path: '/commands',
      operationId: 'listCommands',
      summary: 'The command catalog',
      description: 'Markdown: every command, its mode, its arguments with types and limits, and an example call (the same as the help command).',
      input: { from: 'none' },
      answer: { kind: 'markdown', description: 'The catalog' },
    },
  }),
  ...COMMANDS,
];
