import { ProtocolErrorCode, RELATED_TASK_META_KEY, type CallToolResult, type Result, type Server, type ServerContext, type Task } from '@modelcontextprotocol/server';
import type { CoreContext } from '../ground/context.ts';
import type { LogLevel } from '../operations/account/log-level.ts';
import { cancelRun, getRun, listRuns, type RunView } from '../operations/runs/runs.ts';
import type { RunStatus } from '../runs/types.ts';
import { McpError } from './json-rpc-error.ts';
import { reportRun } from './run-progress.ts';
import type { ToolOperation } from '../operations/definition.ts';
import { startToolTask, taskResultOf } from './tools/index.ts';

/**
 * The tasks of protocol 2025-11-25 (experimental in that revision): `tools/call` with a `task` starts
 * gtm-audit, audit or read-site as a task, followed with tasks/get, tasks/result, tasks/list and
 * tasks/cancel. A task is its run object: the task id is the run id, so each method reads or cancels
 * the run through the same core as REST, and another organization's task id is not found. The SDK
 * v2 keeps the revision's method names and request schemas but serves none of it; this file is the
 * protocol code it lacks. (2026-07-28 clients have the tasks extension instead: ./tasks-extension.ts.)
 */

/** The first protocol version with tasks. */
export const TASKS_SINCE = '2025-11-25';

/** What the server declares under 2025-11-25: tasks of tools/call, listed and cancellable. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } } as const;

const TASK_STATUS: Record<RunStatus, Task['status']> = {
  running: 'working',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** A run as a task: the task id is the run id; runs live until deleted, so ttl is null. */
function taskOf(view: Pick<RunView, 'id' | 'status' | 'createdAt' | 'updatedAt' | 'retryAfter'> & { markdown?: string }): Task {
  return {
    taskId: view.id,
    status: TASK_STATUS[view.status],
    ttl: null,
    createdAt: view.createdAt,
    lastUpdatedAt: view.updatedAt,
    pollInterval: (view.retryAfter ?? 2) * 1000,
    ...(view.status === 'running' && view.markdown ? { statusMessage: view.markdown.trim() } : {}),
  };
}

/** Whether a tools/call asks for a task (the revision's task-augmented request). */
export function asksForTask(params: unknown): boolean {
  return typeof params === 'object' && params !== null && (params as { task?: unknown }).task !== undefined;
}

/**
 * tools/call with `task`: starts the tool's run and answers the task (a CreateTaskResult). A tool
 * that answers at once is refused as invalid params; a refused start (arguments, scope,
 * onboarding) is a JSON-RPC error with our code (./recon-server.ts).
 */
export async function startTask(ctx: CoreContext, tool: ToolOperation, args: Record<string, unknown>): Promise<{ task: Task }> {
  if (!tool.mcp.startsRun) throw new McpError(ProtocolErrorCode.InvalidParams, `Tool '${tool.id}' does not run as a task; call it without 'task'.`);
  return { task: taskOf(await startToolTask(ctx, tool, args)) };
}

const isFinal = (view: RunView) => view.status !== 'running';

interface TaskParams {
  taskId: string;
}

/** Waits `ms`, or rejects as the 2025 SDK did when the request is cancelled first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancelled = () => reject(new McpError(ProtocolErrorCode.InvalidRequest, 'Request cancelled'));
    if (signal.aborted) return cancelled();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), cancelled()), { once: true });
  });
}

/**
 * Registers tasks/get, tasks/result, tasks/list and tasks/cancel on a 2025-11-25 server bound to
 * `ctx`. `logLevel` is the key's (logging/setLevel): tasks/get reports the run's progress as a log
 * message, as a run-status poll does. Errors are thrown as they come; the server's one funnel
 * (./recon-server.ts) answers them.
 */
export function registerLegacyTaskMethods(server: Server, ctx: CoreContext, logLevel: LogLevel | null): void {
  // The SDK checks these requests against the revision's schemas, but types its two-argument
  // registration for the methods it serves itself only.
  const on = server.setRequestHandler.bind(server) as unknown as <P>(
    method: 'tasks/get' | 'tasks/result' | 'tasks/list' | 'tasks/cancel',
    handler: (request: { params: P }, context: ServerContext) => Promise<Result>,
  ) => void;
  // tasks/get reads the run once, reports its progress as a log message, and answers the task.
  on<TaskParams>('tasks/get', async ({ params }, context) => {
    const view = await getRun(ctx, undefined, params.taskId);
    await reportRun(view, logLevel, context.mcpReq.notify);
    return taskOf(view);
  });
  // tasks/result waits for the run to end (polling it at its own interval), then answers its result.
  on<TaskParams>('tasks/result', async ({ params }, context) => {
    let view = await getRun(ctx, undefined, params.taskId);
    while (!isFinal(view)) {
      await pause(taskOf(view).pollInterval!, context.mcpReq.signal);
      view = await getRun(ctx, undefined, params.taskId);
    }
    const result: CallToolResult = taskResultOf(view);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: view.id } } };
  });
  on<{ cursor?: string } | undefined>('tasks/list', async ({ params }) => {
    const page = await listRuns(ctx, 50, params?.cursor);
    return {
      tasks: page.runs.map((run) => taskOf({ id: run.id, status: run.status as RunStatus, createdAt: run.createdAt, updatedAt: run.updatedAt })),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  });
  // A finished run cannot be cancelled (the revision's rule); a running one is, and answers as it now is.
  on<TaskParams>('tasks/cancel', async ({ params }) => {
    const view = await getRun(ctx, undefined, params.taskId);
    if (isFinal(view)) throw new McpError(ProtocolErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${TASK_STATUS[view.status]}`);
    return { _meta: {}, ...taskOf(await cancelRun(ctx, undefined, params.taskId)) };
  });
}
