import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { CallToolResult, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { CoreContext } from '../ground/context.ts';
import { cancelRun, getRun, listRuns, type RunView } from '../operations/runs.ts';
import type { RunStatus } from '../runs/types.ts';
import { toRpcError } from './json-rpc-error.ts';
import { runUri } from '../ground/resource-uris.ts';
import { asResult } from './tools/index.ts';

const TASK_STATUS: Record<RunStatus, Task['status']> = {
  running: 'working',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** A run as an MCP task: the task id is the run id; runs live until deleted, so ttl is null. */
export function taskOf(view: Pick<RunView, 'id' | 'status' | 'createdAt' | 'updatedAt' | 'retryAfter'> & { markdown?: string }): Task {
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

/** The tool result a finished run's task delivers: the same markdown as REST and run-status. */
export function taskResultOf(view: RunView): CallToolResult {
  const answer = { text: view.markdown, structured: { runId: view.id, kind: view.kind, status: view.status, ...(view.siteRead ? { siteRead: view.siteRead } : {}) }, whole: `the resource ${runUri(view.kind, view.id)} (resources/read)` };
  return { ...asResult(answer, ''), ...(view.status === 'failed' ? { isError: true } : {}) };
}

/**
 * The MCP task store (protocol 2025-11-25, the SDK's experimental tasks) backed by run objects and
 * bound to the caller's organization: tasks/get, tasks/result, tasks/list and tasks/cancel read and
 * cancel runs through the same core as REST, so another organization's task id is not found.
 * Tasks are created by calling gtm-audit or audit with `task`; nothing else creates one.
 *
 * Every method throws only JSON-RPC errors made by `toRpcError` (McpErrors, which the SDK's task
 * handlers pass on unchanged): an unknown task is our `not_found` rather than null, so the client
 * reads the same code and message as REST gives.
 */
export class RunTaskStore implements TaskStore {
  constructor(private readonly ctx: CoreContext) {}

  private async funnel<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toRpcError(error, this.ctx.requestId);
    }
  }

  async createTask(): Promise<Task> {
    return this.funnel(async () => {
      throw new Error('Tasks are created by calling gtm-audit or audit with a task parameter.');
    });
  }

  async getTask(taskId: string): Promise<Task> {
    return this.funnel(async () => taskOf(await getRun(this.ctx, undefined, taskId)));
  }

  async storeTaskResult(): Promise<void> {
    // A run stores its own result; nothing else may write one.
  }

  async getTaskResult(taskId: string): Promise<Result> {
    return this.funnel(async () => taskResultOf(await getRun(this.ctx, undefined, taskId)));
  }

  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    return this.funnel(async () => {
      if (status !== 'cancelled') throw new Error(`A run's status is its own; only cancelling is possible.`);
      await cancelRun(this.ctx, undefined, taskId);
    });
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    return this.funnel(async () => {
      const page = await listRuns(this.ctx, 50, cursor);
      return {
        tasks: page.runs.map((run) =>
          taskOf({ id: run.id, status: run.status as RunStatus, createdAt: run.createdAt, updatedAt: run.updatedAt }),
        ),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    });
  }
}
