import { z, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { ERROR_STATUS } from '../ground/errors.ts';
import { ErrorBody } from '../ground/schemas/error-body.ts';
import type { AppEnv } from '../env.ts';
import { RUN_STATUSES } from '../ground/run-kinds.ts';
import { BOOKMARK_SHAPE, MAX_BOOKMARK_CHARS } from '../ground/db-session.ts';
import { BOOKMARK_HEADER } from '../middleware/bookmark-header.ts';

/**
 * The pieces every route's OpenAPI declaration shares: the error body and which statuses answer
 * with it, the headers responses carry, and request bodies. Each route declares its own
 * `createRoute(...)` next to its handler; the document is generated from those declarations.
 */

export { ErrorBody };

const RequestId = z
  .string()
  .describe('The request id: the client\'s own X-Request-Id when it is at most 64 characters of letters, digits, "_", "-" and "=", else a generated UUID.');

/** The D1 bookmark of read-your-writes (src/middleware/bookmark-header.ts), both ways. */
const Bookmark = z.string().max(MAX_BOOKMARK_CHARS).regex(BOOKMARK_SHAPE);

const BookmarkSent = Bookmark.describe(
  `The database position this request's reads and writes reached (a D1 bookmark: lowercase hex digits and hyphens, at most ${MAX_BOOKMARK_CHARS} characters). ` +
    'Send it back unchanged on your next request to read at least what this one wrote, even from a replica; without it a read may be a few seconds old. ' +
    'Absent when the request did no database work and none was sent.',
);

const BookmarkReceived = Bookmark.describe(
  'The X-Recon-Bookmark of an earlier answer, unchanged: this request then reads at least what that one wrote (without it, a read may come from a replica a few seconds behind). ' +
    `A value that is not a bookmark (lowercase hex digits and hyphens, at most ${MAX_BOOKMARK_CHARS} characters) is refused with 400 invalid_input.`,
);

const bookmarkParameters = new WeakMap<OpenAPIHono<AppEnv>, z.ZodObject>();

/**
 * An operation's request header X-Recon-Bookmark (invalid: 400 `invalid_input`), registered as a
 * parameter component of `app`'s document the first time it is asked for.
 */
export function bookmarkRequestHeader(app: OpenAPIHono<AppEnv>): z.ZodObject {
  let headers = bookmarkParameters.get(app);
  if (!headers) {
    const parameter = BookmarkReceived.optional().openapi({ param: { name: BOOKMARK_HEADER, in: 'header' } });
    headers = z.object({ [BOOKMARK_HEADER]: app.openAPIRegistry.registerParameter('Bookmark', parameter) });
    bookmarkParameters.set(app, headers);
  }
  return headers;
}

/** `responses` with X-Recon-Bookmark among each one's headers: every answer of an operation past the key check carries it. */
export function withBookmarkHeader(responses: RouteConfig['responses']): RouteConfig['responses'] {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const headers = 'headers' in response ? response.headers : undefined;
      return [status, headers instanceof z.ZodObject ? { ...response, headers: headers.extend({ [BOOKMARK_HEADER]: BookmarkSent.optional() }) } : response];
    }),
  );
}

/** Headers of a started or polled run. */
export const RunHeaders = {
  'X-Run-Id': z.string().describe('The run id (64 hexadecimal characters).'),
  'X-Run-Status': z.enum(RUN_STATUSES).describe("The run's status."),
  'X-Audit-Id': z.string().optional().describe('The run id again, on audit runs only.'),
  Location: z.string().describe('Where to poll the run: /api/v1/runs/{kind}/{id}.'),
  'Retry-After': z.string().optional().describe('Seconds to wait before polling again, while the run is running.'),
};

/** Response headers: X-Request-Id on every response, plus `extra`. */
export function headers(extra: Record<string, z.ZodType> = {}) {
  return z.object({ 'X-Request-Id': RequestId, ...extra });
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 428 | 429 | 500 | 504;

const ERROR_RESPONSES: Record<ErrorStatus, { description: string; headers?: Record<string, z.ZodType> }> = {
  400: { description: 'invalid_input: malformed JSON, a body that is not an object, or invalid or unknown arguments; details name each field.' },
  401: {
    description: 'unauthorized: missing, malformed, unknown or revoked API key.',
    headers: { 'WWW-Authenticate': z.string().describe('Bearer realm="recon"') },
  },
  403: { description: 'access_denied: the key lacks the scope this operation needs.' },
  404: { description: 'not_found: nothing with that id in your organization (an unknown, malformed or another organization\'s id; for a run, also a run of another kind).' },
  405: {
    description: 'method_not_allowed: the path does not take this method; Allow lists the ones it takes.',
    headers: { Allow: z.string().describe('The methods the path takes.') },
  },
  409: { description: 'conflict: the state does not allow it, e.g. approving a request that was already decided or has expired.' },
  413: { description: 'payload_too_large: the body is over 256 KiB (10 MiB or 10,000 lines for imports).' },
  428: { description: 'onboarding_required: finish the sales profile first (PUT /api/v1/profile); the message lists what is missing.' },
  429: {
    description:
      'rate_limited: the key spent its budget (60 commands or 600 other requests a minute), the organization has 3 runs going, or the client address sent too many unknown keys.',
    headers: { 'Retry-After': z.string().describe('Seconds to wait before trying again.') },
  },
  500: { description: 'internal: a bug on our side; the message names the request id to quote.' },
  504: {
    description: 'timeout: the audit is still running after AUDIT_WAIT_TIMEOUT_MS; it goes on, poll it at Location.',
    headers: {
      'X-Run-Id': RunHeaders['X-Run-Id'],
      'X-Audit-Id': RunHeaders['X-Audit-Id'],
      Location: RunHeaders.Location,
    },
  },
};

interface ErrorResponse {
  description: string;
  headers: ReturnType<typeof headers>;
  content: { 'application/json': { schema: typeof ErrorBody } };
}

/** The error responses of the given statuses, each the Error body with its headers. */
export function errors<S extends ErrorStatus>(...statuses: S[]): Record<S, ErrorResponse> {
  return Object.fromEntries(
    statuses.map((status) => {
      const { description, headers: extra } = ERROR_RESPONSES[status];
      return [status, { description, headers: headers(extra), content: { 'application/json': { schema: ErrorBody } } }];
    }),
  ) as Record<S, ErrorResponse>;
}

/** A markdown response. */
export function markdown(description: string, extra: Record<string, z.ZodType> = {}) {
  return { description, headers: headers(extra), content: { 'text/markdown': { schema: z.string() } } };
}

/** The headers of a polled run (Location is for starts only). */
const { Location: _startOnly, ...POLL_HEADERS } = RunHeaders;
export const POLLED_HEADERS = POLL_HEADERS;

/** 200 of a poll: the status line while running, the report after. */
export const POLLED = markdown(
  'While running: one status line, e.g. "Running gtm-audit for acme.com: step 3 of 7 (pricing)", with Retry-After. Once completed, failed or cancelled: the report.',
  POLL_HEADERS,
);

/** The headers of a 202 that started a run (Retry-After is for polls only). */
const { 'Retry-After': _pollOnly, ...STARTED_HEADERS } = RunHeaders;

/** 202 Accepted: a run was started. */
export const STARTED = markdown('Run started: poll the URL in Location (the body says the same in words).', STARTED_HEADERS);

/** A JSON response. */
export function json<S extends z.ZodType>(description: string, schema: S) {
  return { description, headers: headers(), content: { 'application/json': { schema } } };
}

/**
 * A JSON request body, documented as the component `name` generated from `schema` (registered in
 * `app`'s document), but not validated by the route: the core validates it (`parseInput`), so both
 * doors give the same errors in the same order (scope, command, arguments, onboarding). Nor is its
 * Content-Type checked: `curl -d` sends form encoding, and the body is read as JSON whatever it says.
 */
export function documentedBody(app: OpenAPIHono<AppEnv>, name: string, schema: z.ZodType, options: { example?: unknown; required?: boolean } = {}) {
  app.openAPIRegistry.register(name, schema);
  const { example, required = false } = options;
  return {
    required,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` }, ...(example === undefined ? {} : { example }) } },
  };
}
