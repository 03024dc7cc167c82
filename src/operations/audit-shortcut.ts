import { z } from 'zod';
import type { CommandResult } from './command-definition.ts';
import { executeCommand } from './commands.ts';
import type { CoreContext } from '../ground/context.ts';
import { waitForRun, type RunView } from './runs.ts';
import { AuditInput } from './command-inputs.ts';
import { parseInput } from '../ground/validation.ts';

export const AuditShortcutInput = AuditInput.extend({
  wait: z.boolean().optional().describe('Block until the audit finishes and return it inline (504 with the run id after the server limit).'),
});

export const WaitQuery = z.enum(['true', 'false', '1', '0']).optional();

/**
 * POST /api/v1/audit: starts the organization audit (the `audit` command) and, with `wait` (body
 * field or query parameter), waits for its result.
 */
export async function auditShortcut(
  ctx: CoreContext,
  body: unknown,
  waitParam: string | undefined,
): Promise<{ started: CommandResult; finished?: RunView }> {
  const { wait: waitField, ...args } = parseInput(AuditShortcutInput, body);
  const waitQuery = parseInput(WaitQuery, waitParam, 'query parameter wait');
  const wait = waitField ?? (waitQuery === 'true' || waitQuery === '1');
  const started = await executeCommand(ctx, 'audit', args);
  if (!wait || started.mode !== 'async') return { started };
  return { started, finished: await waitForRun(ctx, 'audit', started.run.id) };
}
