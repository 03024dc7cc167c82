import type { CoreContext } from '../ground/context.ts';
import type { RequestSession } from '../ground/db-session.ts';
import { RequestDb } from '../db/d1-sessions.ts';
import { enforceRateLimit, type RateBucket } from '../ground/rate-limit.ts';
import { parseInput } from '../ground/validation.ts';
import { assertOperationScope, type CallFacts, type OperationDefinition } from './definition.ts';

/**
 * How every door calls an operation: REST (src/routes/operations.ts), the MCP tools
 * (src/mcp/tools/index.ts) and the dashboard's forms all call callOperation, so a call spends the
 * same rate-limit token and passes the same checks in the same order whichever door it came through.
 */

/**
 * The request's one D1 session, for the core context a door builds (REST and MCP: apiKeyAuth; the
 * dashboard: its session middleware): opened at its first statement, as fresh as the operation it
 * calls declares (callOperation), and its bookmark for the door to send back.
 */
export function openRequestSession(env: Env): RequestSession {
  return new RequestDb(env);
}

/**
 * Spends one token of the caller's key from `bucket` (429 `rate_limited` once the key has used its
 * share for the minute) and answers the request's context marked as paid (`rateLimitSpent`): the
 * operations called with it spend nothing more. The MCP door spends this way as a message arrives,
 * since every JSON-RPC message costs a token whatever its method; a REST request that reached no
 * operation spends it this way too.
 */
export async function spendRateLimit(ctx: CoreContext, bucket: RateBucket): Promise<CoreContext> {
  await enforceRateLimit(ctx.env, ctx.principal, bucket);
  return { ...ctx, rateLimitSpent: true };
}

/**
 * Calls an operation, in the one order every door follows: first the caller's rate-limit token from
 * the bucket the operation declares (unless the request has spent its token already:
 * `rateLimitSpent`), then the arguments, then the key's scope, the arguments' check against the
 * declared schema (named `what` in a refusal unless the operation names its input) and the work,
 * whose D1 statements go through the request's session (`ctx.db`), started as fresh as the
 * operation declares (`freshness`).
 * `args` are the arguments, or how to read them: REST passes a reader of the request, so a call
 * refused its token never reads the body. Answers the validated arguments with the result (an MCP
 * tool's text may name them).
 */
export async function callOperation(
  ctx: CoreContext,
  operation: OperationDefinition,
  args: Record<string, unknown> | (() => Promise<unknown>),
  what: string,
  query: CallFacts['query'] = {},
): Promise<{ input: unknown; output: unknown }> {
  if (!ctx.rateLimitSpent) await enforceRateLimit(ctx.env, ctx.principal, operation.bucket);
  ctx.db.readsAt(operation.freshness ?? 'latest');
  return invokeOperation(ctx, operation, typeof args === 'function' ? await args() : args, what, query);
}

/**
 * The work of a call once its token is spent: the key's scope, then the arguments, then the
 * operation. For an operation that calls another as part of its own work (the audit shortcut
 * starts the audit command); doors call callOperation.
 */
export async function invokeOperation(
  ctx: CoreContext,
  operation: OperationDefinition,
  raw: unknown,
  what: string,
  query: CallFacts['query'] = {},
): Promise<{ input: unknown; output: unknown }> {
  const input = checkOperationInput(ctx, operation, raw, what);
  const sent = typeof raw === 'object' && raw !== null ? Object.keys(raw) : [];
  return { input, output: await operation.run(ctx, input, { sent, query, what: operation.inputName ?? what }) };
}

/** The checks of a call without its work: the key's scope, then the arguments; answers them validated (nothing runs, nothing is spent). */
export function checkOperationInput(ctx: CoreContext, operation: OperationDefinition, raw: unknown, what: string): unknown {
  assertOperationScope(ctx, operation);
  return parseInput(operation.inputFor?.(ctx) ?? operation.input, raw ?? {}, operation.inputName ?? what);
}
