import { z } from '../../ground/schemas/openapi.ts';
import { listChanges as listChangeRows } from '../../db/watch-changes.ts';
import type { CoreContext } from '../../ground/context.ts';
import { DomainError } from '../../ground/errors.ts';
import { readPageToken, signPageToken } from '../../ground/page-token.ts';
import { assertScope } from '../../ground/scopes.ts';
import { Change, CHANGE_KINDS, type ChangeKind } from '../../ground/schemas/changes.ts';
import { Domain } from '../../ground/schemas/common.ts';
import { paging } from '../../ground/schemas/paging.ts';

/**
 * The changes feed (issue 32): every change the organization's watches reported, across all of
 * them, newest first. GET /api/v1/oms/changes and the MCP tool `changes`, declared in
 * ./change-operations.ts. Read from `watch_changes` (db/watch-changes.ts), written with each execution.
 */

/** An ISO 8601 date or time (2026-11-27, 2026-11-27T09:30:00Z), kept as it is compared: in UTC with milliseconds, as the rows store it. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
const Instant = z
  .string()
  .max(40)
  .refine((value) => ISO_TIME.test(value) && !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 date or time such as 2026-11-27 or 2026-11-27T09:30:00Z')
  .transform((value) => new Date(value).toISOString());

export const ChangesInput = z.strictObject({
  company: Domain.optional().describe('Only the changes of this company (its domain, e.g. "globex.com").'),
  kind: z
    .string()
    .max(200)
    .transform((value, ctx) => {
      const kinds = [...new Set(value.split(',').map((kind) => kind.trim()))].sort();
      const unknown = kinds.filter((kind) => !(CHANGE_KINDS as readonly string[]).includes(kind));
      if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown kind ${unknown.map((k) => JSON.stringify(k)).join(', ')}: use ${CHANGE_KINDS.join(', ')} (several separated by commas)` });
      return kinds as ChangeKind[];
    })
    .optional()
    .describe('Only changes of this kind, or of these kinds separated by commas ("pricing,hiring"): pricing, product, hiring, people, funding-news, customers, page, other.'),
  since: Instant.optional().describe('Only changes found at or after this time (ISO 8601).'),
  until: Instant.optional().describe('Only changes found before this time (ISO 8601).'),
  ...paging({ max: 200, byDefault: 50, noun: 'Changes' }),
});
export type ChangesInput = z.output<typeof ChangesInput>;

export const ChangeEntry = Change.extend({
  id: z.string().describe('The change: its execution id and its place there.'),
  company: z.string().describe('The watched company.'),
  watchId: z.string(),
  executionId: z.string().describe('The execution that found it (its brief has the same key).'),
  detectedAt: z.string().describe('When that execution finished (ISO).'),
}).openapi('ChangeEntry');
export type ChangeEntry = z.output<typeof ChangeEntry>;

export const ChangesPage = z
  .object({ changes: z.array(ChangeEntry), nextCursor: z.string().nullable().describe('The next page, or null at the end.') })
  .openapi('ChangesPage');
export type ChangesPage = z.output<typeof ChangesPage>;

const Position = z.tuple([z.string().max(40), z.string().max(160)]);

export async function listChanges(ctx: CoreContext, input: ChangesInput): Promise<ChangesPage> {
  assertScope(ctx, 'oms:read');
  if (input.since !== undefined && input.until !== undefined && input.since >= input.until) {
    throw new DomainError('invalid_input', 'Invalid query: since must be before until.', { details: [{ path: 'since', message: 'must be before until' }] });
  }
  const kinds = input.kind;
  const organizationId = ctx.principal.organization.id;
  const scope = { organizationId, list: `changes:${input.company ?? '*'}:${kinds?.join(',') ?? '*'}:${input.since ?? '*'}:${input.until ?? '*'}` };
  const after = input.cursor ? await readPageToken(ctx.env, input.cursor, scope, Position, 'cursor') : undefined;
  const rows = await listChangeRows(ctx.db, organizationId, {
    ...(input.company !== undefined ? { company: input.company } : {}),
    ...(kinds ? { kinds } : {}),
    ...(input.since !== undefined ? { from: input.since } : {}),
    ...(input.until !== undefined ? { to: input.until } : {}),
    ...(after ? { after: { detectedAt: after[0], id: after[1] } } : {}),
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    changes: page.map((row) => ({ ...(JSON.parse(row.change) as Change), id: row.id, company: row.company, watchId: row.watchId, executionId: row.executionId, detectedAt: row.detectedAt })),
    nextCursor: rows.length > input.limit && last ? await signPageToken(ctx.env, scope, [last.detectedAt, last.id]) : null,
  };
}
