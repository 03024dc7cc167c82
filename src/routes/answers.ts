import type { CommandResult } from '../operations/definition.ts';
import type { RunView } from '../operations/runs/runs.ts';
import { runHeaders } from '../http-headers.ts';

/** How the REST door writes what an operation returned: markdown bodies and the headers of runs (runHeaders, src/http-headers.ts). */

export const MARKDOWN = { 'Content-Type': 'text/markdown; charset=utf-8' };

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
