import { logUnexpectedError } from './log.ts';

/**
 * The one error type of the core. It says what went wrong and the facts a client needs to act
 * (when to retry, which run, how to authenticate), never a header: each wire format turns it into
 * its shape in one place (HTTP JSON: `toHttpResponse` in middleware/error-response.ts; JSON-RPC:
 * mcp/json-rpc-error.ts, whose tool errors are `toToolResult`). Anything else thrown is unexpected
 * and becomes a 500 `internal` whose detail is logged, never sent.
 */

export const ERROR_STATUS = {
  invalid_input: 400,
  unauthorized: 401,
  access_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
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
  /** When trying again makes sense (a rate limit): in seconds. */
  retryAfterSeconds?: number;
  /** The run a refusal is about (a wait that timed out): where to poll it. */
  run?: { id: string; kind: string };
  /** How to authenticate, for a 401: the Bearer challenge. */
  challenge?: string;
  /** The methods the path takes, for a 405. */
  allow?: string;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly retryAfterSeconds?: number;
  readonly run?: { id: string; kind: string };
  readonly challenge?: string;
  readonly allow?: string;

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.run = options.run;
    this.challenge = options.challenge;
    this.allow = options.allow;
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
  return new DomainError('rate_limited', `Rate limited: retry in ${retryAfterSeconds} s. ${reason}`, { retryAfterSeconds });
}

/** The JSON body of every error, REST and OMS alike: `{ error: <code>, message: <one human sentence>, details? }`. */
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

/** The message of anything thrown: an Error's message, else the value as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
