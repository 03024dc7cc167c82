import type { ServerNotification } from '@modelcontextprotocol/server';
import { passes, type LogLevel } from '../operations/account/log-level.ts';
import type { RunView } from '../operations/runs/runs.ts';
import type { RunStatus } from '../runs/types.ts';

/** How severe each run status is as a log message: progress is `info`, a finished run `notice`. */
const LEVEL_OF: Record<RunStatus, LogLevel> = {
  running: 'info',
  completed: 'notice',
  cancelled: 'warning',
  failed: 'error',
};

/** The `notifications/message` that reports a run's progress: its status line, or that it ended. */
export function runLogMessage(view: RunView): ServerNotification {
  const message = view.status === 'running' ? view.markdown.trim() : `The ${view.kind} run ${view.id} is ${view.status}.`;
  return {
    method: 'notifications/message',
    params: {
      level: LEVEL_OF[view.status],
      logger: 'recon.runs',
      data: { runId: view.id, kind: view.kind, status: view.status, message },
    },
  };
}

/** Sends a notification on the response to the request being handled (the SDK's `extra.sendNotification`). */
export type SendNotification = (notification: ServerNotification) => Promise<void>;

/**
 * Reports a polled run as a log message, on the poll's own response stream, when its level passes
 * `threshold`, the level the calling key chose with logging/setLevel (none chosen: nothing sent).
 */
export async function reportRun(view: RunView, threshold: LogLevel | null, send: SendNotification): Promise<void> {
  const notification = runLogMessage(view);
  const level = (notification.params as { level: LogLevel }).level;
  if (threshold !== null && passes(level, threshold)) await send(notification);
}
