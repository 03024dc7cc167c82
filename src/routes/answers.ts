import type { CommandResult } from '../operations/command-definition.ts';
import type { RunView } from '../operations/runs.ts';

/** How the REST door writes what an operation returned: markdown bodies and the headers of runs. */

export const MARKDOWN = { 'Content-Type': 'text/markdown; charset=utf-8' };

/** A run as REST names it in headers. */
export interface RunRef {
  id: string;
  kind: string;
}

/**
 * The headers that name a run, the one place their rule lives: `X-Run-Id`, `X-Audit-Id` on audit
 * runs only (the audit shortcut's name for the same id), `Location` where it is polled, and, when
 * given, its status and when to poll again. Starts, polls and the 504 of a wait all use it.
 */
export function runHeaders(run: RunRef, extra: { status?: string; retryAfter?: number; location?: boolean } = {}): Record<string, string> {
  const headers: Record<string, string> = { 'X-Run-Id': run.id };
  if (extra.status) headers['X-Run-Status'] = extra.status;
  if (run.kind === 'audit') headers['X-Audit-Id'] = run.id;
  if (extra.location !== false) headers.Location = `/api/v1/runs/${run.kind}/${run.id}`;
  if (extra.retryAfter) headers['Retry-After'] = String(extra.retryAfter);
  return headers;
}

/** A command's result: 200 markdown, or 202 with the started run's headers. */
export function commandResponse(result: CommandResult): Response {
  if (result.mode === 'sync') return new Response(result.markdown, { status: 200, headers: MARKDOWN });
  return new Response(result.markdown, { status: 202, headers: { ...MARKDOWN, ...runHeaders(result.run, { status: result.run.status }) } });
}

/** A poll's answer: 200 markdown, the status in X-Run-Status, and Retry-After while running. */
export function runResponse(view: RunView): Response {
  return new Response(view.markdown, {
    status: 200,
    headers: { ...MARKDOWN, ...runHeaders(view, { status: view.status, retryAfter: view.retryAfter, location: false }) },
  });
}
