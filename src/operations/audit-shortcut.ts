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

/** The query parameters POST /api/v1/audit takes beside its body. */
export const AuditShortcutQuery = z.object({ wait: WaitQuery.describe('true or 1: wait for the report, as the body field wait does.') });

/**
 * POST /api/v1/audit: starts the organization audit (the `audit` command) and, with `wait` (body
 * field or query parameter `query.wait`), waits for its result.
 */
export async function auditShortcut(
  ctx: CoreContext,
  { wait: waitField, ...args }: z.output<typeof AuditShortcutInput>,
  query: Readonly<Record<string, string | undefined>>,
): Promise<{ started: CommandResult; finished?: RunView }> {
  const waitQuery = parseInput(AuditShortcutQuery, query, 'query').wait;
  const wait = waitField ?? (waitQuery === 'true' || waitQuery === '1');
  const started = await executeCommand(ctx, 'audit', args);
  if (!wait || started.mode !== 'async') return { started };
  return { started, finished: await waitForRun(ctx, 'audit', started.run.id) };
}
