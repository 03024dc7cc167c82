import { logUnexpectedError } from './log.ts';

/**
 * The one error type of the core. Each door turns it into its wire shape in exactly one place
 * (REST: `toHttpResponse`; MCP: `toToolResult`). Anything else thrown is unexpected and becomes a
 * 500 `internal` whose detail is logged, never sent.
 */

export const ERROR_STATUS = {
  invalid_input: 400,
  unauthorized: 401,
  access_denied: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  onboarding_required: 428,
  rate_limited: 429,
  internal: 500,
  timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One offending input field: `path` is dotted (`icp.industries.0`), empty for the whole body. */
export interface ErrorDetail {
  path: string;
  message: string;
}

export interface DomainErrorOptions {
  details?: ErrorDetail[];
  /** Extra response headers the error implies (`Retry-After`, `X-Run-Id`, ...). */
  headers?: Record<string, string>;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): (typeof ERROR_STATUS)[ErrorCode] {
    return ERROR_STATUS[this.code];
  }
}

/**
 * 429 `rate_limited`, worded the same wherever a limit is hit: `Rate limited: retry in N s.` and
 * then why, with `Retry-After: N`. Clients and agents read when to retry from the first words.
 */
export function rateLimited(retryAfterSeconds: number, reason: string): DomainError {
  return new DomainError('rate_limited', `Rate limited: retry in ${retryAfterSeconds} s. ${reason}`, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/** The JSON body of every error, REST and OMS alike (decisions.md, Errors). */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  requestId?: string;
}

export function errorBody(error: DomainError, requestId?: string): ErrorBody {
  return {
    error: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/**
 * Any thrown value as a DomainError. An unexpected error is logged in full (with the request id the
 * caller gets) and becomes a bare `internal` whose message names that id; its detail is never sent.
 */
export function toDomainError(error: unknown, requestId: string | undefined): DomainError {
  if (error instanceof DomainError) return error;
  logUnexpectedError(error, requestId);
  return new DomainError('internal', `Something went wrong on our side; quote request id ${requestId ?? 'unknown'} if you report it.`);
}
