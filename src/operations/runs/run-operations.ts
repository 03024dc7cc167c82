import { RUN_KINDS, RUN_STATUSES } from '../../ground/run-kinds.ts';
import { z } from '../../ground/schemas/openapi.ts';
import { paging } from '../../ground/schemas/paging.ts';
import { AuditShortcutInput, AuditShortcutQuery, auditShortcut } from './audit-shortcut.ts';
import { runUri } from '../../ground/resource-uris.ts';
import { defineOperation, type Effects } from '../definition.ts';
import { RunStatusOutput } from '../commands/command-outputs.ts';
import { cancelRun, getRun, listRuns, RunFilter, type RunView } from './runs.ts';

const RunSummary = z
  .object({
    id: z.string(),
    kind: z.enum(RUN_KINDS),
    target: z.string().describe('What the run audits, e.g. acme.com.'),
    status: z.enum(RUN_STATUSES),
    stepsDone: z.int(),
    stepsTotal: z.int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
    args: z.record(z.string(), z.unknown()).describe("What the run was started with: the command's validated arguments, e.g. {\"focus\":[\"pricing\"]}."),
  })
  .openapi('RunSummary');

const RunPage = z.object({ runs: z.array(RunSummary), nextCursor: z.string().nullable().describe('The next page, or null at the end.') });

/** A run's address in a REST path: any kind and id reach the core, which answers 404 for one that is not the caller's. */
const RunPath = z.object({
  kind: z.string().openapi({ enum: [...RUN_KINDS] }).describe('The kind of run: the command that started it, or site-read.'),
  id: z.string().describe('The run id from X-Run-Id.'),
});

export const RunStatusInput = z.strictObject({
  kind: z.enum(RUN_KINDS).describe('The run\'s kind: "gtm-audit", "audit" or "site-read".'),
  id: z.string().trim().min(1).max(100).describe('The run id that gtm-audit, audit or read-site returned (64 hex characters).'),
});


const AuditPollInput = z.object({
  id: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required: the audit id from X-Audit-Id, as in GET /api/v1/audit?id=<id>' : undefined) })
    .describe('The audit id from X-Audit-Id.'),
});

/** Who may poll and cancel a run: \`commands\` (any run), or \`oms:write\` (the site reads it may start: see readRun). */
const RUN_READERS = ['commands', 'oms:write'] as const;

const POLL: Effects = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Runs: their list, polls and cancels at /api/v1/runs, run-status over MCP, and the audit shortcut at /api/v1/audit. */
export const RUN_OPERATIONS = [
  defineOperation({
    id: 'list-runs',
    scope: 'commands',
    bucket: 'reads',
    input: z.strictObject({ ...RunFilter.shape, ...paging({ max: 100, byDefault: 20, noun: 'Runs' }) }),
    output: RunPage,
    errors: ['invalid_input'],
    effects: POLL,
    freshness: 'recent',
    run: (ctx, { limit, cursor, ...filter }) => listRuns(ctx, limit, cursor, filter),
    rest: {
      method: 'get',
      path: '/runs',
      operationId: 'listRuns',
      summary: "The organization's runs, newest first",
      description: 'Filter by kind and status (both optional); each run shows the arguments it was started with. Paged: pass nextCursor back as cursor.',
      input: { from: 'query' },
      answer: { kind: 'json', status: 200, description: 'A page of runs' },
    },
  }),
  defineOperation({
    id: 'get-run',
    scope: RUN_READERS,
    bucket: 'reads',
    input: RunPath,
    errors: ['not_found'],
    effects: POLL,
    run: (ctx, { kind, id }) => getRun(ctx, kind, id),
    rest: { method: 'get', path: '/runs/{kind}/{id}', operationId: 'getRun', summary: 'Poll a run', input: { from: 'path' }, answer: { kind: 'run' } },
  }),
  defineOperation({
    id: 'cancel-run',
    scope: RUN_READERS,
    bucket: 'reads',
    input: RunPath,
    errors: ['not_found'],
    effects: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: (ctx, { kind, id }) => cancelRun(ctx, kind, id),
    rest: {
      method: 'delete',
      path: '/runs/{kind}/{id}',
      operationId: 'cancelRun',
      summary: 'Cancel a running run (partial results kept; a finished run is returned unchanged)',
      input: { from: 'path' },
      answer: { kind: 'run' },
    },
  }),
  defineOperation({
    id: 'run-status',
    scope: RUN_READERS,
    bucket: 'reads',
    input: RunStatusInput,
    output: RunStatusOutput,
    errors: ['invalid_input', 'not_found'],
    effects: POLL,
    run: (ctx, { kind, id }) => getRun(ctx, kind, id),
    mcp: {
      title: 'Run status',
      description:
        'Polls a gtm-audit, audit or site-read run by id. While it runs, returns one status line (which step) and when to poll again; once finished, returns the full markdown report. The status is also in structuredContent, and, once a level is chosen with logging/setLevel, sent as a log message (logger recon.runs).',
      outputSchema: RunStatusOutput,
      reportsRunProgress: true,
      answer: (view: RunView) => ({
        text: view.markdown,
        structured: { runId: view.id, kind: view.kind, status: view.status, ...(view.retryAfter ? { retryAfterSeconds: view.retryAfter } : {}), ...(view.siteRead ? { siteRead: view.siteRead } : {}) },
        ...(view.status === 'running'
          ? {}
          : {
              links: [{ uri: runUri(view.kind, view.id), name: `${view.kind}-${view.id.slice(0, 12)}`, title: `${view.kind} of ${view.target}`, mimeType: 'text/markdown' }],
              whole: `the resource ${runUri(view.kind, view.id)} (resources/read)`,
            }),
      }),
    },
  }),
  defineOperation({
    id: 'start-audit',
    scope: 'commands',
    bucket: 'commands',
    input: AuditShortcutInput,
    errors: ['invalid_input', 'payload_too_large', 'onboarding_required', 'timeout'],
    effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (ctx, input, { query }) => auditShortcut(ctx, input, query),
    rest: {
      method: 'post',
      path: '/audit',
      operationId: 'startAudit',
      summary: 'Start the organization audit, and wait for it if asked',
      description:
        'The audit command. With wait (body field or query parameter) the request waits for the report and returns it inline, or 504 with the run id after AUDIT_WAIT_TIMEOUT_MS (the run goes on).',
      input: {
        from: 'body',
        name: 'AuditShortcutInput',
        example: { wait: true },
        query: AuditShortcutQuery,
      },
      answer: { kind: 'audit' },
    },
  }),
  defineOperation({
    id: 'poll-audit',
    scope: 'commands',
    bucket: 'reads',
    input: AuditPollInput,
    errors: ['invalid_input', 'not_found'],
    effects: POLL,
    run: (ctx, { id }) => getRun(ctx, 'audit', id),
    rest: {
      method: 'get',
      path: '/audit',
      operationId: 'pollAudit',
      summary: 'Poll an organization audit by its id (as GET /api/v1/runs/audit/{id})',
      input: { from: 'query' },
      answer: { kind: 'run' },
    },
  }),
];
