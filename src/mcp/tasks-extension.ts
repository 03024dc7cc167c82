import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CoreContext } from '../ground/context.ts';
import { cancelRun, getRun, type RunView } from '../operations/runs/runs.ts';
import { taskResultOf } from './tools/index.ts';

/**
 * The MCP tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for 2026-07-28 clients: a
 * client that declares the extension on its request gets a task handle from the tools that start
 * runs (gtm-audit, audit, read-site), and follows it with tasks/get, tasks/update and tasks/cancel.
 * A task is its run object: the task id is the run id, so tasks/get reads the run through the same
 * core as REST and run-status, and a run of another organization is unknown. The SDK has no tasks
 * for this revision; this file is the protocol code it lacks, and nothing more. (2025-11-25 clients
 * have that revision's tasks instead: ./tasks-2025.ts.)
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Whether the request's `_meta` envelope declares the tasks extension among the client's capabilities. */
export function declaresTasks(envelope: Record<string, unknown> | undefined): boolean {
  const capabilities = envelope?.['io.modelcontextprotocol/clientCapabilities'] as { extensions?: Record<string, unknown> } | undefined;
  const declared = capabilities?.extensions?.[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null;
}

/** The extension's task status of a run's status. A failed run is no JSON-RPC error: it completes with an error result. */
const TASK_STATUS = { running: 'working', completed: 'completed', failed: 'completed', cancelled: 'cancelled' } as const;

/** A run as the extension's Task (runs live until deleted: `ttlMs` null). */
function taskOf(view: RunView) {
  return {
    taskId: view.id,
    status: TASK_STATUS[view.status],
    createdAt: view.createdAt,
    lastUpdatedAt: view.updatedAt,
    ttlMs: null,
    pollIntervalMs: (view.retryAfter ?? 2) * 1000,
    ...(view.status === 'running' && view.markdown ? { statusMessage: view.markdown.trim() } : {}),
  };
}

/** What tools/call answers a declaring client for a started run: the task handle (`resultType: "task"`). */
export function createTaskResult(view: RunView) {
  return { resultType: 'task' as const, ...taskOf(view) };
}

/**
 * What tasks/get (and a status notification) carries: the task, with the tool result once the run
 * ended, as a 2026-07-28 result (`resultType: "complete"`, which requesters check).
 */
export function detailedTaskOf(view: RunView) {
  const ended = view.status === 'completed' || view.status === 'failed';
  return { ...taskOf(view), ...(ended ? { result: { resultType: 'complete', ...taskResultOf(view) } } : {}) };
}

/** The extension's error for a tasks/* request from a client that did not declare it (-32021). */
function missingTasksCapability(): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: declare the ${TASKS_EXTENSION} extension in _meta["io.modelcontextprotocol/clientCapabilities"].extensions to use tasks.`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** A task id is a run id; anything longer is refused before it reaches storage. */
const TaskParams = z.object({ taskId: z.string().min(1).max(200) });
const UpdateParams = TaskParams.extend({ inputResponses: z.record(z.string(), z.unknown()).optional() });

/**
 * Registers tasks/get, tasks/update and tasks/cancel on a 2026-07-28 server bound to `ctx`. Errors are
 * thrown as they come; the server's one funnel (./recon-server.ts) answers them.
 */
export function registerTaskMethods(server: Server, ctx: CoreContext): void {
  const declared = (envelope: Record<string, unknown> | undefined) => {
    if (!declaresTasks(envelope)) throw missingTasksCapability();
  };
  server.setRequestHandler('tasks/get', { params: TaskParams }, async ({ taskId }, { mcpReq }) => {
    declared(mcpReq.envelope);
    return detailedTaskOf(await getRun(ctx, undefined, taskId));
  });
  // Runs never ask for input once started (questions are asked before a task is created), so
  // there is never an outstanding request: responses are ignored, as the extension asks, once the
  // task is known to be the caller's.
  server.setRequestHandler('tasks/update', { params: UpdateParams }, async ({ taskId }, { mcpReq }) => {
    declared(mcpReq.envelope);
    await getRun(ctx, undefined, taskId);
    return {};
  });
  // Cancelling is idempotent: a finished run stays as it ended (cancelRun).
  server.setRequestHandler('tasks/cancel', { params: TaskParams }, async ({ taskId }, { mcpReq }) => {
    declared(mcpReq.envelope);
    await cancelRun(ctx, undefined, taskId);
    return {};
  });
}
