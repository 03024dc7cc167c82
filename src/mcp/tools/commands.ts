import type { CommandDefinition } from '../../operations/command-definition.ts';
import { COMMANDS, executeCommand } from '../../operations/commands.ts';
import { getRun } from '../../operations/runs.ts';
import type { ToolDefinition } from './registry.ts';

/** One tool per command: its text content is byte for byte the REST route's markdown body. */
function commandTool(command: CommandDefinition): ToolDefinition {
  return {
    name: command.name,
    title: command.title,
    description:
      command.description +
      (command.requiresOnboarding ? ' Needs a finished sales profile (set-profile).' : '') +
      (command.mode === 'async' ? ' Returns a run id at once; the result is polled by id.' : ''),
    input: command.input,
    annotations: {
      readOnlyHint: command.effects.readOnly,
      destructiveHint: false,
      idempotentHint: command.effects.idempotent,
      openWorldHint: command.effects.openWorld,
    },
    scope: 'commands',
    bucket: 'commands',
    ...(command.mode === 'async'
      ? {
          async startTask(ctx, args) {
            const result = await executeCommand(ctx, command.name, args);
            if (result.mode !== 'async') throw new Error(`${command.name} did not start a run`);
            return getRun(ctx, result.run.kind, result.run.id);
          },
        }
      : {}),
    async call(ctx, args) {
      const result = await executeCommand(ctx, command.name, args);
      if (result.mode === 'sync') return { content: [{ type: 'text', text: result.markdown }] };
      const { id, kind, status } = result.run;
      return {
        content: [{ type: 'text', text: result.markdown }],
        structuredContent: { runId: id, kind, status, poll: { tool: 'run-status', arguments: { kind, id } } },
      };
    },
  };
}

export const commandTools: ToolDefinition[] = COMMANDS.map(commandTool);
