import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CommandResult } from '../../operations/command-definition.ts';
import { checkOperationInput, invokeOperation, type OperationDefinition, type ToolAnswer } from '../../operations/definition.ts';
import { OPERATIONS } from '../../operations/registry/index.ts';
import { getRun, type RunView } from '../../operations/runs.ts';
import { runUri } from '../../ground/resource-uris.ts';
import { reportRun } from '../run-progress.ts';
import { toListedTool, type ToolDefinition } from './registry.ts';
import { boundAnswer, itemsThatFit } from './text-bound.ts';

/** Without an answer of its own, a tool answers the JSON REST sends, as text (byte for byte) and as structured content. */
const jsonAnswer = (output: unknown): ToolAnswer => ({ text: JSON.stringify(output), structured: { ...(output as object) } });

/**
 * A tool's answer as its result, bounded (text-bound.ts: at most MAX_RESULT_TOKENS of text, cut at
 * a boundary with a note pointing to where the whole is: the answer's own `whole`, else
 * `elsewhere`): the text, then any notes, then the resource links.
 */
export function asResult(answer: ToolAnswer, elsewhere: string, notes: readonly string[] = []): CallToolResult {
  const { text, structured, links = [], note } = boundAnswer(answer, answer.whole ?? elsewhere);
  return {
    content: [
      { type: 'text', text },
      ...[...notes, ...(note ? [note] : [])].map((extra) => ({ type: 'text' as const, text: extra })),
      ...links.map((link) => ({ type: 'resource_link' as const, ...link })),
    ],
    ...(structured ? { structuredContent: structured } : {}),
  };
}

/**
 * What a run's task delivers once the run ended, under both revisions' tasks (2025-11-25's
 * tasks/result, the 2026-07-28 extension's tasks/get): the report's markdown, as REST and run-status
 * give it, with `{ runId, kind, status }`; a failed run is an error result.
 */
export function taskResultOf(view: RunView): CallToolResult {
  const answer = { text: view.markdown, structured: { runId: view.id, kind: view.kind, status: view.status, ...(view.siteRead ? { siteRead: view.siteRead } : {}) }, whole: `the resource ${runUri(view.kind, view.id)} (resources/read)` };
  return { ...asResult(answer, ''), ...(view.status === 'failed' ? { isError: true } : {}) };
}

/** Where the whole of an answer without a resource of its own can be read: the operation's REST route. */
function restOf(operation: OperationDefinition): string {
  const { rest } = operation;
  return rest ? `${rest.method.toUpperCase()} /api/v1${rest.path} with the same arguments (REST, with an API key)` : 'not available elsewhere';
}

/** The tool of an operation with an `mcp` binding: a thin adapter over the same core call REST makes. */
function toolOf(operation: OperationDefinition & { mcp: NonNullable<OperationDefinition['mcp']> }): ToolDefinition {
  const { mcp } = operation;
  const what = `arguments of ${mcp.name}`;
  const answerOf = (output: unknown, input: unknown) => (mcp.answer ? mcp.answer(output, input) : jsonAnswer(output));
  return {
    name: mcp.name,
    title: mcp.title,
    description: mcp.description,
    input: operation.input,
    // A tool that answers the JSON REST sends declares that JSON's schema (the operation's output).
    output: mcp.outputSchema ?? (!mcp.answer || mcp.answersOutput ? operation.output : undefined),
    annotations: operation.effects,
    scope: operation.scope,
    bucket: operation.bucket,
    notifies: mcp.reportsRunProgress,
    asksOnboarding: mcp.asksOnboarding,
    ...(mcp.confirm ? { confirmation: async (ctx, args) => mcp.confirm!(ctx, checkOperationInput(ctx, operation, args, what)) } : {}),
    async call(ctx, args, { logLevel, sendNotification }) {
      const { input, output } = await invokeOperation(ctx, operation, args, what);
      if (mcp.reportsRunProgress) await reportRun(output as RunView, logLevel, sendNotification);
      const answer = answerOf(output, input);
      const listed = mcp.pages ? (output as Record<string, unknown>)[mcp.pages.items] : undefined;
      const items: unknown[] = Array.isArray(listed) ? listed : [];
      const fewer = itemsThatFit(answer.text, items);
      if (fewer === undefined || !mcp.pages) return asResult(answer, restOf(operation));
      // A page too long for one result: the same call for fewer items, whose next-page token goes on after the last one shown.
      const smaller = await invokeOperation(ctx, operation, { ...args, [mcp.pages.size]: fewer }, what);
      const asked = (input as Record<string, unknown>)[mcp.pages.size];
      const note = `[This page holds ${fewer} items rather than up to ${asked} (${mcp.pages.size}), so that it fits in one tool result; its next page token goes on from the last one shown.]`;
      return asResult(answerOf(smaller.output, smaller.input), restOf(operation), [note]);
    },
    ...(mcp.startsRun
      ? {
          async startTask(ctx, args) {
            const result = (await invokeOperation(ctx, operation, args, what)).output as CommandResult;
            if (result.mode !== 'async') throw new Error(`${mcp.name} did not start a run`);
            return getRun(ctx, result.run.kind, result.run.id);
          },
        }
      : {}),
  };
}

/** Every MCP tool Recon serves: the operations of the registry that have an `mcp` binding, in its order. */
export const TOOLS: readonly ToolDefinition[] = OPERATIONS.flatMap((operation) => (operation.mcp ? [toolOf(operation as Parameters<typeof toolOf>[0])] : []));

export const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

/**
 * tools/list entries, computed once per isolate (building them per request is what costs): with
 * `execution.taskSupport` for protocol versions that have tasks, without it for older ones.
 */
export const LISTED_TOOLS = new Map(TOOLS.map((tool) => [tool.name, toListedTool(tool, true)]));
export const LISTED_TOOLS_WITHOUT_TASKS = new Map(TOOLS.map((tool) => [tool.name, toListedTool(tool, false)]));
