import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { CallToolResult, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { CoreContext } from '../core/context.ts';
import { DomainError } from '../core/errors.ts';
import { cancelRun, getRun, listRuns, type RunView } from '../core/runs.ts';
import type { RunStatus } from '../runs/types.ts';

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
  return {
    content: [{ type: 'text', text: view.markdown }],
    structuredContent: { runId: view.id, kind: view.kind, status: view.status },
    ...(view.status === 'failed' ? { isError: true } : {}),
  };
}

async function orNull<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return null;
    throw error;
  }
}

/**
 * The MCP task store (protocol 2025-11-25, the SDK's experimental tasks) backed by run objects and
 * bound to the caller's organization: tasks/get, tasks/result, tasks/list and tasks/cancel read and
 * cancel runs through the same core as REST, so another organization's task id is not found.
 * Tasks are created by calling gtm-audit or audit with `task`; nothing else creates one.
 */
export class RunTaskStore implements TaskStore {
  constructor(private readonly ctx: CoreContext) {}

  async createTask(): Promise<Task> {
    throw new Error('Tasks are created by calling gtm-audit or audit with a task parameter.');
  }

  async getTask(taskId: string): Promise<Task | null> {
    const view = await orNull(getRun(this.ctx, undefined, taskId));
    return view ? taskOf(view) : null;
  }

  async storeTaskResult(): Promise<void> {
    // A run stores its own result; nothing else may write one.
  }

  async getTaskResult(taskId: string): Promise<Result> {
    return taskResultOf(await getRun(this.ctx, undefined, taskId));
  }

  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    if (status !== 'cancelled') throw new Error(`A run's status is its own; only cancelling is possible.`);
    await cancelRun(this.ctx, undefined, taskId);
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const page = await listRuns(this.ctx, 50, cursor);
    return {
      tasks: page.runs.map((run) =>
        taskOf({ id: run.id, status: run.status as RunStatus, createdAt: run.createdAt, updatedAt: run.updatedAt }),
      ),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  }
}
