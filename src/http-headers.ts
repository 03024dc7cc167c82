import type { DomainError } from './ground/errors.ts';

/**
 * The HTTP headers every door writes from the same facts, the one place their rules live: the
 * headers that name a run (REST's starts, polls and the 504 of a wait) and the headers a refusal's
 * facts imply (the HTTP JSON funnel, the MCP door's refusals before JSON-RPC, the dashboard's
 * refused forms). A file beside env.ts, not in routes/ or middleware/: every door imports it, and
 * middleware never imports routes.
 */

/** A run as REST names it in headers. */
export interface RunRef {
  id: string;
  kind: string;
}

/**
 * The headers that name a run: `X-Run-Id`, `X-Audit-Id` on audit runs only (the audit shortcut's
 * name for the same id), `Location` where it is polled, and, when given, its status and when to
 * poll again.
 */
export function runHeaders(run: RunRef, extra: { status?: string; retryAfter?: number; location?: boolean } = {}): Record<string, string> {
  const headers: Record<string, string> = { 'X-Run-Id': run.id };
  if (extra.status) headers['X-Run-Status'] = extra.status;
  if (run.kind === 'audit') headers['X-Audit-Id'] = run.id;
  if (extra.location !== false) headers.Location = `/api/v1/runs/${run.kind}/${run.id}`;
  if (extra.retryAfter) headers['Retry-After'] = String(extra.retryAfter);
  return headers;
}

/** The headers a refusal's facts imply: Retry-After, WWW-Authenticate, Allow, and a run's X-Run-Id, X-Audit-Id and Location. */
export function errorHeaders(error: DomainError): Record<string, string> {
  return {
    ...(error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) }),
    ...(error.challenge ? { 'WWW-Authenticate': error.challenge } : {}),
    ...(error.allow ? { Allow: error.allow } : {}),
    ...(error.run ? runHeaders(error.run) : {}),
  };
}
