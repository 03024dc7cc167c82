import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { auditShortcut, AuditShortcutInput, WaitQuery } from '../operations/audit-shortcut.ts';
import { MAX_PAGE_TOKEN_LENGTH } from '../ground/page-token.ts';
import { cancelRun, getRun, listRuns, RunFilter, type RunView } from '../operations/runs.ts';
import type { AppEnv } from '../env.ts';
import { RUN_KINDS } from '../runs/types.ts';
import { commandResponse, MARKDOWN, STARTED } from './commands.ts';
import { readJsonObject } from './json-body.ts';
import { documentedBody, errors, json, KEYED, markdown, RunHeaders } from './openapi-parts.ts';
import { refuseInvalid } from './validation-hook.ts';

/** A poll's answer: 200 markdown, the status in X-Run-Status, and Retry-After while running. */
export function runResponse(view: RunView): Response {
  const headers: Record<string, string> = { ...MARKDOWN, 'X-Run-Id': view.id, 'X-Run-Status': view.status };
  if (view.kind === 'audit') headers['X-Audit-Id'] = view.id;
  if (view.retryAfter) headers['Retry-After'] = String(view.retryAfter);
  return new Response(view.markdown, { status: 200, headers });
}

const { Location: _startOnly, ...POLL_HEADERS } = RunHeaders;
const POLLED = markdown(
  'While running: one status line, e.g. "Running gtm-audit for acme.com: step 3 of 7 (pricing)", with Retry-After. Once completed, failed or cancelled: the report.',
  POLL_HEADERS,
);

const RunSummary = z
  .object({
    id: z.string(),
    kind: z.enum(RUN_KINDS),
    target: z.string().describe('What the run audits, e.g. acme.com.'),
    status: z.enum(['running', 'completed', 'failed', 'cancelled']),
    stepsDone: z.int(),
    stepsTotal: z.int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
    args: z.record(z.string(), z.unknown()).describe("What the run was started with: the command's validated arguments, e.g. {\"focus\":[\"pricing\"]}."),
  })
  .openapi('RunSummary');

const ListRunsQuery = z.strictObject({
  ...RunFilter.shape,
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Runs per page, 1-100 (default 20).'),
  cursor: z
    .string()
    .max(MAX_PAGE_TOKEN_LENGTH)
    .optional()
    .describe("The previous page's nextCursor; valid for a day, for your organization and the same kind and status filters only."),
});

const listRunsRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listRuns',
  summary: "The organization's runs, newest first",
  description: 'Filter by kind and status (both optional); each run shows the arguments it was started with. Paged: pass nextCursor back as cursor.',
  'x-required-scope': 'commands',
  request: { query: ListRunsQuery },
  responses: {
    200: json('A page of runs', z.object({ runs: z.array(RunSummary), nextCursor: z.string().nullable().describe('The next page, or null at the end.') })),
    ...errors(400, ...KEYED),
  },
});

/** Path parameters of a run: any kind and id reach the core, which answers 404 for one that is not the caller's. */
const RunPath = z.object({
  kind: z.string().openapi({ enum: [...RUN_KINDS] }).describe('The command that started the run.'),
  id: z.string().describe('The run id from X-Run-Id.'),
});

const runRoute = <M extends 'get' | 'delete'>(method: M, operationId: string, summary: string) =>
  createRoute({
    method,
    path: '/{kind}/{id}',
    operationId,
    summary,
    'x-required-scope': 'commands',
    request: { params: RunPath },
    responses: { 200: POLLED, ...errors(...KEYED, 404) },
  });

export const runs = new OpenAPIHono<AppEnv>()
  .openapi(
    listRunsRoute,
    async (c) => {
      const { limit, cursor, ...filter } = c.req.valid('query');
      return c.json(await listRuns(c.var.core, limit, cursor, filter), 200);
    },
    refuseInvalid(listRunsRoute),
  )
  .openapi(runRoute('get', 'getRun', 'Poll a run'), async (c) => runResponse(await getRun(c.var.core, c.req.param('kind'), c.req.param('id'))))
  .openapi(
    runRoute('delete', 'cancelRun', 'Cancel a running run (partial results kept; a finished run is returned unchanged)'),
    async (c) => runResponse(await cancelRun(c.var.core, c.req.param('kind'), c.req.param('id'))),
  );

export const audit = new OpenAPIHono<AppEnv>();

const startAuditRoute = createRoute({
  method: 'post',
  path: '/',
  operationId: 'startAudit',
  summary: 'Start the organization audit, and wait for it if asked',
  description:
    'The audit command. With wait (body field or query parameter) the request waits for the report and returns it inline, or 504 with the run id after AUDIT_WAIT_TIMEOUT_MS (the run goes on).',
  'x-required-scope': 'commands',
  request: {
    query: z.object({ wait: WaitQuery.describe('true or 1: wait for the report, as the body field wait does.') }),
    body: documentedBody(audit, 'AuditShortcutInput', AuditShortcutInput, { example: { wait: true } }),
  },
  responses: {
    200: markdown('The report, when waited for.', POLL_HEADERS),
    202: STARTED,
    ...errors(400, ...KEYED, 413, 428, 504),
  },
});

const pollAuditRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'pollAudit',
  summary: 'Poll an organization audit by its id (as GET /api/v1/runs/audit/{id})',
  'x-required-scope': 'commands',
  request: {
    query: z.object({
      id: z
        .string({ error: (issue) => (issue.input === undefined ? 'is required: the audit id from X-Audit-Id, as in GET /api/v1/audit?id=<id>' : undefined) })
        .describe('The audit id from X-Audit-Id.'),
    }),
  },
  responses: { 200: POLLED, ...errors(400, ...KEYED, 404) },
});

audit
  .openapi(
    startAuditRoute,
    async (c) => {
      const { started, finished } = await auditShortcut(c.var.core, await readJsonObject(c), c.req.valid('query').wait);
      return finished ? runResponse(finished) : commandResponse(started);
    },
    refuseInvalid(startAuditRoute),
  )
  .openapi(pollAuditRoute, async (c) => runResponse(await getRun(c.var.core, 'audit', c.req.valid('query').id)), refuseInvalid(pollAuditRoute));
