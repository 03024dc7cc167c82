import type { Context } from 'hono';
import { enforceRateLimit } from '../ground/rate-limit.ts';
import type { CommandResult } from '../operations/command-definition.ts';
import { invokeOperation, type OperationDefinition } from '../operations/definition.ts';
import { COMMAND_OPERATIONS } from '../operations/registry/commands.ts';
import type { SignedInEnv } from './env.ts';

/**
 * How dashboard forms run operations (research, competitors, gtm-audit, watches): through the very operations
 * POST /api/v1/commands/{name} and the MCP tools call (operations/registry/commands.ts,
 * invokeOperation), after the same per-caller rate limit (the operation's budget, counted for the
 * signed-in person).
 */

/** The command operation the REST door serves at POST /api/v1/commands/{name}. */
export function commandOperation(name: string): OperationDefinition {
  const operation = COMMAND_OPERATIONS.find((o) => o.rest?.path === `/commands/${name}`);
  if (!operation) throw new Error(`no command operation ${name}`);
  return operation;
}

/**
 * Runs an operation for the signed-in person as the REST door does: the operation's rate limit,
 * then the operation; `what` names its arguments in refusals.
 */
export async function runOperation<T>(c: Context<SignedInEnv>, operation: OperationDefinition, what: string, input: Record<string, unknown>): Promise<T> {
  await enforceRateLimit(c.env, c.var.core.principal, operation.bucket);
  const { output } = await invokeOperation(c.var.core, operation, input, what);
  return output as T;
}

/** runOperation for a command: its result. */
export function runFromForm(c: Context<SignedInEnv>, operation: OperationDefinition, name: string, input: Record<string, unknown>): Promise<CommandResult> {
  return runOperation<CommandResult>(c, operation, `arguments of ${name}`, input);
}
