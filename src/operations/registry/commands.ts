import { z } from 'zod';
import type { CommandDefinition, CommandResult } from '../command-definition.ts';
import { catalogFor, COMMANDS, runCommand } from '../commands.ts';
import { defineOperation, type OperationDefinition, type ToolAnswer } from '../definition.ts';
import { RunStartOutput } from '../command-outputs.ts';
import { briefUri } from '../../ground/resource-uris.ts';

/** The schema component name of a command's arguments, e.g. `GtmAuditInput`. */
const inputName = (command: CommandDefinition) => `${command.name.replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}Input`;

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

/** One operation per command of COMMANDS (operations/commands.ts): POST /api/v1/commands/{name} and the tool of the same name. */
function commandOperation(command: CommandDefinition): OperationDefinition {
  return defineOperation({
    scope: 'commands',
    bucket: 'commands',
    input: command.input,
    inputName: `arguments of ${command.name}`,
    errors: ['invalid_input', 'payload_too_large', ...(command.requiresOnboarding ? (['onboarding_required'] as const) : [])],
    effects: {
      readOnlyHint: command.effects.readOnly,
      destructiveHint: false,
      idempotentHint: command.effects.idempotent,
      openWorldHint: command.effects.openWorld,
    },
    run: (ctx, input) => runCommand(ctx, command, input),
    rest: {
      method: 'post',
      path: `/commands/${command.name}`,
      operationId: `command_${command.name.replace('-', '_')}`,
      summary: command.title,
      description: `${command.description} Send the arguments as a JSON object (an empty body is {}); unknown fields are refused.`,
      input: { from: 'body', name: inputName(command), example: command.example },
      answer: { kind: 'command', mode: command.mode },
    },
    mcp: {
      name: command.name,
      title: command.title,
      description:
        command.description +
        (command.requiresOnboarding ? ' Needs a finished sales profile (set-profile).' : '') +
        (command.mode === 'async' ? ' Returns a run id at once; the result is polled by id.' : '') +
        (command.outputSummary ? ` ${command.outputSummary}` : ''),
      startsRun: command.mode === 'async',
      asksOnboarding: command.requiresOnboarding,
      answer: commandToolAnswer,
      outputSchema: command.mode === 'async' ? RunStartOutput : command.output,
    },
  });
}

/** The command catalog and the commands themselves. */
export const COMMAND_OPERATIONS = [
  defineOperation({
    scope: 'commands',
    bucket: 'reads',
    input: z.object({}),
    errors: [],
    effects: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (ctx) => catalogFor(ctx),
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
  ...COMMANDS.map(commandOperation),
];
