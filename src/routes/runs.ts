import { Hono } from 'hono';
import { z } from 'zod';
import { auditShortcut, AuditShortcutInput } from '../core/audit-shortcut.ts';
import { DomainError } from '../core/errors.ts';
import { MAX_PAGE_TOKEN_LENGTH } from '../core/page-token.ts';
import { cancelRun, getRun, listRuns, type RunView } from '../core/runs.ts';
import { parseInput } from '../core/validation.ts';
import type { AppEnv } from '../env.ts';
import { commandResponse, MARKDOWN } from './commands.ts';
import { readJsonObject } from './json-body.ts';
import type { ApiOperation } from './openapi-types.ts';

/** A poll's answer: 200 markdown, the status in X-Run-Status, and Retry-After while running. */
export function runResponse(view: RunView): Response {
  const headers: Record<string, string> = { ...MARKDOWN, 'X-Run-Id': view.id, 'X-Run-Status': view.status };
  if (view.kind === 'audit') headers['X-Audit-Id'] = view.id;
  if (view.retryAfter) headers['Retry-After'] = String(view.retryAfter);
  return new Response(view.markdown, { status: 200, headers });
}

const ListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(MAX_PAGE_TOKEN_LENGTH).optional(),
});

export const runs = new Hono<AppEnv>()
  .get('/', async (c) => {
    const query = parseInput(ListQuery, c.req.query(), 'query');
    return c.json(await listRuns(c.var.core, query.limit, query.cursor));
  })
  .get('/:kind/:id', async (c) => runResponse(await getRun(c.var.core, c.req.param('kind'), c.req.param('id'))))
  .delete('/:kind/:id', async (c) => runResponse(await cancelRun(c.var.core, c.req.param('kind'), c.req.param('id'))));

export const audit = new Hono<AppEnv>()
  .post('/', async (c) => {
    const { started, finished } = await auditShortcut(c.var.core, await readJsonObject(c), c.req.query('wait'));
    return finished ? runResponse(finished) : commandResponse(started);
  })
  .get('/', async (c) => {
    const id = c.req.query('id');
    if (!id) throw new DomainError('invalid_input', 'Give the audit id: GET /api/v1/audit?id=<id>.', { details: [{ path: 'id', message: 'required' }] });
    return runResponse(await getRun(c.var.core, 'audit', id));
  });

const RunSummary = z.object({
  id: z.string(),
  kind: z.enum(['gtm-audit', 'audit']),
  target: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'cancelled']),
  stepsDone: z.int(),
  stepsTotal: z.int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});

const POLL = { description: 'The status line while running (with Retry-After), else the report; X-Run-Status carries the status', contentType: 'text/markdown' as const };

export const runOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/runs',
    operationId: 'listRuns',
    summary: "The organization's runs, newest first (query: limit 1-100, cursor)",
    auth: 'key',
    scope: 'commands',
    responses: { 200: { description: '{ runs, nextCursor }', contentType: 'application/json', schema: z.object({ runs: z.array(RunSummary), nextCursor: z.string().nullable() }) } },
  },
  ...(['gtm-audit', 'audit'] as const).flatMap((kind): ApiOperation[] => [
    {
      method: 'get',
      path: `/api/v1/runs/${kind}/{id}`,
      operationId: `get_${kind.replace('-', '_')}_run`,
      summary: `Poll a ${kind} run`,
      auth: 'key',
      scope: 'commands',
      responses: { 200: POLL },
    },
    {
      method: 'delete',
      path: `/api/v1/runs/${kind}/{id}`,
      operationId: `cancel_${kind.replace('-', '_')}_run`,
      summary: `Cancel a running ${kind} run (partial results kept; a finished run is unchanged)`,
      auth: 'key',
      scope: 'commands',
      responses: { 200: POLL },
    },
  ]),
  {
    method: 'post',
    path: '/api/v1/audit',
    operationId: 'startAudit',
    summary: 'Start the organization audit; with wait (body or ?wait=true) return it inline, or 504 with the run id after AUDIT_WAIT_TIMEOUT_MS',
    auth: 'key',
    scope: 'commands',
    requestBody: { schema: AuditShortcutInput, example: { wait: true } },
    responses: { 200: { description: 'The audit, when waited for', contentType: 'text/markdown' }, 202: { description: 'Started; poll Location', contentType: 'text/markdown' } },
  },
  {
    method: 'get',
    path: '/api/v1/audit',
    operationId: 'pollAudit',
    summary: 'Poll an organization audit: ?id=<id>',
    auth: 'key',
    scope: 'commands',
    responses: { 200: POLL },
  },
];
