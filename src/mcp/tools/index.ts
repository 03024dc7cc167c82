import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CoreContext } from '../../ground/context.ts';
import type { LogLevel } from '../../operations/account/log-level.ts';
import { callOperation, checkOperationInput } from '../../operations/call.ts';
import { isTool, type CommandResult, type Confirmation, type OperationDefinition, type ToolAnswer, type ToolOperation } from '../../operations/definition.ts';
import { OPERATIONS } from '../../operations/index.ts';
import { getRun, type RunView } from '../../operations/runs/runs.ts';
import { runUri } from '../../ground/resource-uris.ts';
import { reportRun, type SendNotification } from '../run-progress.ts';
import { toListedTool } from './listed-tool.ts';
import { boundAnswer, itemsThatFit } from './text-bound.ts';

/**
 * The MCP tools: each is an operation with an `mcp` binding (a ToolOperation), named by the
 * operation's id; its tools/list entry (./listed-tool.ts), its call, its task and its confirmation
 * are derived from the declaration here, and call the operation through callOperation, as REST does.
 */

/** What the MCP request a tool answers offers it besides its arguments. */
export interface ToolCallExtras {
  /** The level the calling key chose with logging/setLevel; null: it wants no log messages. */
  logLevel: LogLevel | null;
  /** Sends a notification on this request's response (answered as an SSE stream then). */
  sendNotification: SendNotification;
}

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

/** How a tool's arguments are named in a refusal, unless its operation names its input. */
const argumentsOf = (tool: ToolOperation) => `arguments of ${tool.id}`;

/**
 * Calls a tool: its operation through callOperation (the request spent its token as it arrived),
 * answered as the tool's text and structured content, bounded to one result. A page too long for
 * one result is asked again for fewer items.
 */
export async function callTool(ctx: CoreContext, tool: ToolOperation, args: Record<string, unknown>, { logLevel, sendNotification }: ToolCallExtras): Promise<CallToolResult> {
  const { mcp } = tool;
  const what = argumentsOf(tool);
  const answerOf = (output: unknown, input: unknown) => (mcp.answer ? mcp.answer(output, input) : jsonAnswer(output));
  const { input, output } = await callOperation(ctx, tool, args, what);
  if (mcp.reportsRunProgress) await reportRun(output as RunView, logLevel, sendNotification);
  const answer = answerOf(output, input);
  const listed = mcp.pages ? (output as Record<string, unknown>)[mcp.pages.items] : undefined;
  const items: unknown[] = Array.isArray(listed) ? listed : [];
  const fewer = itemsThatFit(answer.text, items);
  if (fewer === undefined || !mcp.pages) return asResult(answer, restOf(tool));
  // A page too long for one result: the same call for fewer items, whose next-page token goes on after the last one shown.
  const smaller = await callOperation(ctx, tool, { ...args, [mcp.pages.size]: fewer }, what);
  const asked = (input as Record<string, unknown>)[mcp.pages.size];
  const note = `[This page holds ${fewer} items rather than up to ${asked} (${mcp.pages.size}), so that it fits in one tool result; its next page token goes on from the last one shown.]`;
  return asResult(answerOf(smaller.output, smaller.input), restOf(tool), [note]);
}

/** Starts a tool that starts a run (`mcp.startsRun`: a command or read-site) as a task: calls it and answers the run it started. */
export async function startToolTask(ctx: CoreContext, tool: ToolOperation, args: Record<string, unknown>): Promise<RunView> {
  const result = (await callOperation(ctx, tool, args, argumentsOf(tool))).output as CommandResult;
  if (result.mode !== 'async') throw new Error(`${tool.id} did not start a run`);
  return getRun(ctx, result.run.kind, result.run.id);
}

/** What a person confirms before a tool with `mcp.confirm` runs, from its checked arguments (../questions.ts); nothing runs or is spent. */
export async function confirmationOf(ctx: CoreContext, tool: ToolOperation, args: Record<string, unknown>): Promise<Confirmation> {
  return tool.mcp.confirm!(ctx, checkOperationInput(ctx, tool, args, argumentsOf(tool)));
}

/** Every MCP tool Recon serves: the operations that have an `mcp` binding, in the order of OPERATIONS. */
export const TOOLS: readonly ToolOperation[] = OPERATIONS.filter(isTool);

/** The tools by name (the operation's id). */
export const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.id, tool]));

const listedByTaskSupport = new Map<boolean, ReadonlyMap<string, ReturnType<typeof toListedTool>>>();

/**
 * tools/list entries by tool name, computed once per isolate (building them per request is what
 * costs): with `execution.taskSupport` for protocol versions that have tasks, without it for older
 * ones. Built on the first tools/list, not when the module loads: turning every schema into JSON
 * Schema took about 35 ms of the Worker's startup, which every isolate paid, listing or not.
 */
export function listedTools(withTasks: boolean): ReadonlyMap<string, ReturnType<typeof toListedTool>> {
  let listed = listedByTaskSupport.get(withTasks);
  if (listed === undefined) {
    listed = new Map(TOOLS.map((tool) => [tool.id, toListedTool(tool, withTasks)]));
    listedByTaskSupport.set(withTasks, listed);
  }
  return listed;
}
