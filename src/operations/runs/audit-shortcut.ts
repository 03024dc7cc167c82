import { z } from 'zod';
import { invokeOperation } from '../call.ts';
import { AUDIT_COMMAND } from '../commands/command-operations.ts';
import type { CommandResult } from '../definition.ts';
import type { CoreContext } from '../../ground/context.ts';
import { waitForRun, type RunView } from './runs.ts';
import { AuditInput } from '../commands/command-inputs.ts';
import { parseInput } from '../../ground/validation.ts';

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
  // The audit command itself, inside this call (whose token is spent): its scope, arguments, onboarding check and start.
  const started = (await invokeOperation(ctx, AUDIT_COMMAND, args, 'arguments of audit')).output as CommandResult;
  if (!wait || started.mode !== 'async') return { started };
  return { started, finished: await waitForRun(ctx, 'audit', started.run.id) };
}
