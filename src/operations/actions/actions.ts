import { z } from 'zod';
import { randomId } from '../../ground/api-key.ts';
import type { CoreContext } from '../../ground/context.ts';
import { DomainError, messageOf, toDomainError } from '../../ground/errors.ts';
import { readPageToken, signPageToken } from '../../ground/page-token.ts';
import { assertScope } from '../../ground/scopes.ts';
import { checkInput } from '../../ground/validation.ts';
import {
  APPROVAL_STATUSES,
  approvalPendingGuard,
  finishApprovalStatement,
  insertApprovalRequest,
  linkExists,
  listApprovalRequests,
  objectVersion,
  readApprovalRequest,
  rejectApprovalRequest,
  settleDueRequests,
  type ApprovalOutcome,
  type ApprovalRow,
  type ApprovalStatus,
} from '../../db/approval-requests.ts';
import { parseImportLine } from '../../oms/import.ts';
import { KEY_SCHEMAS, LINKS, OBJECT_TYPES, type ObjectType } from '../../oms/object-types.ts';
import {
  deleteLink,
  deleteObject,
  ExpectationFailed,
  writeObjects,
  type Expectation,
  type LinkWrite,
  type WriteSource,
} from '../../oms/store.ts';
import type { Db } from '../../ground/db-session.ts';

/**
 * Actions: a change to the OMS that one key requests and another key approves (never the key that
 * asked; a pending request expires after 7 days). Approving applies it through the store's one write function, with provenance kind
 * `action` and the request's id, so the object's provenance and history name the request.
 */

export { APPROVAL_STATUSES };

export const ACTIONS = ['upsert_object', 'update_properties', 'link', 'unlink', 'delete_object'] as const;
export type Action = (typeof ACTIONS)[number];

/** How long a request waits for a decision before it expires. */
export const APPROVAL_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const ImportableType = z.enum(['company', 'person', 'source']);
const Key = z.string().min(1).max(2048);
const Properties = z.record(z.string(), z.unknown());
const Endpoint = z.strictObject({ type: z.enum(OBJECT_TYPES), key: Key });
const LinkParams = z.strictObject({ link: z.enum(LINKS.map((l) => l.name) as [string, ...string[]]), from: Endpoint, to: Endpoint });

/** The params each action takes; properties, keys and links are then checked as an import line is. */
export const ACTION_PARAMS = {
  upsert_object: z.strictObject({ type: ImportableType, key: Key, properties: Properties }),
  update_properties: z.strictObject({
    type: ImportableType,
    key: Key,
    properties: Properties.refine((p) => Object.keys(p).length > 0, 'must name at least one property'),
  }),
  link: LinkParams,
  unlink: LinkParams,
  delete_object: z.strictObject({ type: z.enum(OBJECT_TYPES), key: Key }),
} as const satisfies Record<Action, z.ZodType>;

export const ActionRequestInput = z.strictObject({
  action: z.enum(ACTIONS).describe('What to change: upsert_object, update_properties, link, unlink or delete_object.'),
  params: Properties.describe(
    'The change. upsert_object: {type, key, properties} (type company, person or source; properties as on an import line). ' +
      'update_properties: {type, key, properties} of an existing object (only the properties named change). ' +
      'link and unlink: {link, from: {type, key}, to: {type, key}} (links: competitors, people, about, cites). ' +
      'delete_object: {type, key} (its links go with it).',
  ),
  reason: z.string().trim().min(1).max(1000).optional().describe('Why, for the person who decides (at most 1000 characters).'),
});

/** What every door answers for an approval request. */
export interface ApprovalRequestView {
  id: string;
  action: Action;
  params: Record<string, unknown>;
  reason: string | null;
  status: ApprovalStatus;
  requestedBy: { keyId: string };
  createdAt: string;
  decidedAt: string | null;
  decidedBy: { keyId: string } | null;
  expiresAt: string;
  /** Why an approved change could not be applied (status `failed`); otherwise null. */
  failure: string | null;
}

export function viewOfRequest(row: ApprovalRow): ApprovalRequestView {
  return {
    id: row.id,
    action: row.action as Action,
    params: row.params,
    reason: row.reason,
    status: row.status,
    requestedBy: { keyId: row.requestedBy },
    createdAt: row.createdAt,
    decidedAt: row.decidedAt,
    decidedBy: row.decidedBy ? { keyId: row.decidedBy } : null,
    expiresAt: row.expiresAt,
    failure: row.failure,
  };
}

/** Params checked against `schema`, paths prefixed `params.`: 400 `invalid_input` like any argument. */
function checkParams<S extends z.ZodType>(action: Action, schema: S, raw: unknown): z.output<S> {
  const result = checkInput(schema, raw, 'params', 'params');
  if (result.success) return result.data;
  const summary = result.details.map((d) => d.message).join('; ');
  throw new DomainError('invalid_input', `Invalid params of ${action}: ${summary}.`, { details: result.details });
}

/** A field an import message starts with (`properties.name must be ...`); other messages are about the whole line. */
const FIELD_FIRST = /^((?:properties|key|from|to)(?:\.[^\s:]+)*):? (.*)$/;

/** `line` checked and normalized exactly as an import line is; its messages name fields under `params.`. */
function asImportLine(action: Action, line: unknown) {
  try {
    return parseImportLine(JSON.stringify(line));
  } catch (error) {
    const reasons = messageOf(error).split('; ');
    const details = reasons.map((reason) => {
      const field = FIELD_FIRST.exec(reason);
      return field ? { path: `params.${field[1]}`, message: `params.${reason}` } : { path: 'params', message: `params: ${reason}` };
    });
    throw new DomainError('invalid_input', `Invalid params of ${action}: ${details.map((d) => d.message).join('; ')}.`, { details });
  }
}

const named = (o: { type: string; key: string }) => `${o.type} ${o.key}`;

function noObject(o: { type: string; key: string }): DomainError {
  return new DomainError('not_found', `No ${named(o)} in your organization; an action can only change an object that exists (create it with upsert_object).`);
}

function normalizedKey(action: Action, type: ObjectType, key: string): string {
  return checkParams(action, z.object({ key: KEY_SCHEMAS[type] }), { key }).key;
}

interface Checked {
  params: Record<string, unknown>;
  baseVersion: number | null;
  /** The properties of the object the action is about, as stored now (null: it does not exist, or the action is a link's). */
  current: Record<string, unknown> | null;
}

/** The request's params, validated and normalized against the organization's current data. */
async function checkAction(ctx: CoreContext, action: Action, raw: Record<string, unknown>): Promise<Checked> {
  const db = ctx.db;
  const org = ctx.principal.organization.id;
  switch (action) {
    case 'upsert_object': {
      const parsed = asImportLine(action, checkParams(action, ACTION_PARAMS.upsert_object, raw));
      if (parsed.kind !== 'object') throw new Error('an object line parsed as a link');
      const { type, key, properties } = parsed.write;
      const current = await objectVersion(db, org, type, key);
      return { params: { type, key, properties }, baseVersion: current?.version ?? null, current: current?.properties ?? null };
    }
    case 'update_properties': {
      const input = checkParams(action, ACTION_PARAMS.update_properties, raw);
      const target = { type: input.type, key: normalizedKey(action, input.type, input.key) };
      const current = await objectVersion(db, org, target.type, target.key);
      if (!current) throw noObject(target);
      // The object as it would be, checked as one import line; only the named properties are kept.
      const parsed = asImportLine(action, { ...target, properties: { ...current.properties, ...input.properties } });
      if (parsed.kind !== 'object') throw new Error('an object line parsed as a link');
      const properties = Object.fromEntries(Object.keys(input.properties).map((name) => [name, parsed.write.properties[name]]));
      return { params: { ...target, properties }, baseVersion: current.version, current: current.properties };
    }
    case 'link':
    case 'unlink': {
      const parsed = asImportLine(action, checkParams(action, ACTION_PARAMS[action], raw));
      if (parsed.kind !== 'link') throw new Error('a link line parsed as an object');
      const link = parsed.write;
      if (action === 'link') {
        for (const end of [link.from, link.to]) if (!(await objectVersion(db, org, end.type, end.key))) throw noObject(end);
      } else if (!(await linkExists(db, org, link))) {
        throw new DomainError('not_found', `No ${link.link} link from ${named(link.from)} to ${named(link.to)} in your organization.`);
      }
      return { params: { link: link.link, from: link.from, to: link.to }, baseVersion: null, current: null };
    }
    case 'delete_object': {
      const input = checkParams(action, ACTION_PARAMS.delete_object, raw);
      const target = { type: input.type, key: normalizedKey(action, input.type, input.key) };
      const current = await objectVersion(db, org, target.type, target.key);
      if (!current) throw noObject(target);
      return { params: target, baseVersion: current.version, current: current.properties };
    }
  }
}

/** One property an action would change: what is stored now and what it would be (null: none). */
export interface PropertyDiff {
  property: string;
  from: unknown;
  to: unknown;
}

/** What filing an action request would ask to change, against the organization's data now. */
export interface ActionPreview {
  action: Action;
  /** The params as they would be filed: validated and normalized. */
  params: Record<string, unknown>;
  /** For an object: whether it exists now; null for a link. */
  exists: boolean | null;
  /** The object's properties that would change (a deleted object: all of them, to null); empty for a link. */
  changes: PropertyDiff[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The diff of an action request, checked exactly as `requestAction` checks it and written nowhere:
 * what the MCP door shows a person to confirm before action-request files it (src/mcp/questions.ts).
 */
export async function previewAction(ctx: CoreContext, input: z.output<typeof ActionRequestInput>): Promise<ActionPreview> {
  assertScope(ctx, 'oms:write');
  const { params, current } = await checkAction(ctx, input.action, input.params);
  if (input.action === 'link' || input.action === 'unlink') return { action: input.action, params, exists: null, changes: [] };
  const stored = current ?? {};
  const changes =
    input.action === 'delete_object'
      ? Object.entries(stored).map(([property, from]) => ({ property, from, to: null }))
      : Object.entries(params.properties as Record<string, unknown>)
          .filter(([property, to]) => !same(stored[property] ?? null, to))
          .map(([property, to]) => ({ property, from: stored[property] ?? null, to }));
  return { action: input.action, params, exists: current !== null, changes };
}

/** POST /api/v1/oms/actions and the action-request tool: stores a pending request (nothing changes yet). */
export async function requestAction(ctx: CoreContext, input: z.output<typeof ActionRequestInput>, now = new Date()): Promise<ApprovalRequestView> {
  assertScope(ctx, 'oms:write');
  const { params, baseVersion } = await checkAction(ctx, input.action, input.params);
  const row: ApprovalRow = {
    id: randomId('apr'),
    organizationId: ctx.principal.organization.id,
    action: input.action,
    params,
    reason: input.reason ?? null,
    status: 'pending',
    requestedBy: ctx.principal.keyId,
    baseVersion,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS).toISOString(),
    decidedAt: null,
    decidedBy: null,
    failure: null,
  };
  await insertApprovalRequest(ctx.db, row);
  return viewOfRequest(row);
}

/** Reading requests takes any OMS scope: requesters follow theirs, approvers find what waits for them. */
function assertCanRead(ctx: CoreContext): void {
  if (!ctx.principal.scopes.some((s) => s === 'oms:read' || s === 'oms:write' || s === 'oms:approve')) assertScope(ctx, 'oms:read');
}

function requestNotFound(id: string): DomainError {
  return new DomainError('not_found', `No approval request ${id} in your organization; GET /api/v1/oms/actions lists them.`);
}

async function readRequest(ctx: CoreContext, id: string, now: Date): Promise<ApprovalRow> {
  const org = ctx.principal.organization.id;
  await settleDueRequests(ctx.db, org, now.toISOString(), id);
  const row = await readApprovalRequest(ctx.db, org, id);
  if (!row) throw requestNotFound(id);
  return row;
}

/** GET /api/v1/oms/actions?id= and action-list with an id. */
export async function getActionRequest(ctx: CoreContext, id: string, now = new Date()): Promise<ApprovalRequestView> {
  assertCanRead(ctx);
  return viewOfRequest(await readRequest(ctx, id, now));
}

const RequestsPosition = z.tuple([z.string().max(64), z.string().max(100)]);

export const ActionListFilter = z.object({
  status: z.enum(APPROVAL_STATUSES).optional().describe('Only requests in this status: pending, approved, applied, failed, rejected or expired.'),
});

/** GET /api/v1/oms/actions and action-list: the organization's requests, newest first, paged by a signed cursor. */
export async function listActionRequests(
  ctx: CoreContext,
  limit: number,
  cursor?: string,
  filter: z.output<typeof ActionListFilter> = {},
  now = new Date(),
): Promise<{ requests: ApprovalRequestView[]; nextCursor: string | null }> {
  assertCanRead(ctx);
  const scope = { organizationId: ctx.principal.organization.id, list: `actions:${filter.status ?? '*'}` };
  const after = cursor ? await readPageToken(ctx.env, cursor, scope, RequestsPosition, 'cursor') : undefined;
  await settleDueRequests(ctx.db, scope.organizationId, now.toISOString());
  const rows = await listApprovalRequests(ctx.db, scope.organizationId, limit + 1, after && { createdAt: after[0], id: after[1] }, filter.status);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    requests: page.map(viewOfRequest),
    nextCursor: rows.length > limit && last ? await signPageToken(ctx.env, scope, [last.createdAt, last.id]) : null,
  };
}

function notPending(row: ApprovalRow): DomainError {
  const when = row.status === 'expired' ? `expired at ${row.expiresAt}` : `${row.status}${row.decidedAt ? ` since ${row.decidedAt}` : ''}`;
  return new DomainError(
    'conflict',
    `Approval request ${row.id} is ${when}; only a pending request can be approved or rejected. To make the change now, request it again (POST /api/v1/oms/actions).`,
  );
}

/**
 * POST /api/v1/oms/actions/{id}/approve and /reject (scope `oms:approve`; REST only, no MCP tool
 * decides). The key that requested a change can never approve it (it may reject, i.e. withdraw,
 * it). Approving applies the change at once: the answer's status is then `applied` or `failed`.
 */
export async function decideActionRequest(ctx: CoreContext, id: string, decision: 'approve' | 'reject', now = new Date()): Promise<ApprovalRequestView> {
  assertScope(ctx, 'oms:approve');
  const org = ctx.principal.organization.id;
  const row = await readRequest(ctx, id, now);
  if (decision === 'approve' && row.requestedBy === ctx.principal.keyId) {
    throw new DomainError('access_denied', `Approval request ${id} was made with this API key, and a key cannot approve its own request; someone with another key that has oms:approve must decide it.`);
  }
  if (row.status !== 'pending') throw notPending(row);
  if (decision === 'approve') await approveRequest(ctx, row, now);
  else if (!(await rejectApprovalRequest(ctx.db, org, id, ctx.principal.keyId, now.toISOString()))) throw notPending(await readRequest(ctx, id, now));
  return viewOfRequest((await readApprovalRequest(ctx.db, org, id))!);
}

const AGAIN = '; request the change again against the current data.';

/**
 * Approves a pending request and applies its change as one step. One D1 batch holds guards (the
 * request is still pending and unexpired; the object is at the version the request was checked
 * against, or the link's ends and the link are there), the change with its provenance and history,
 * and the request's move from pending to `applied` (or to `failed`, for an object that would be
 * too large). When that batch writes nothing, because a guard failed or the write did, a second
 * statement moves the request from pending to `failed` with why. `approved` is never stored, so no
 * request can be left in it; if that second write fails too, the request is still pending and the
 * approver gets the error (500) and may approve again.
 */
async function approveRequest(ctx: CoreContext, row: ApprovalRow, now: Date): Promise<void> {
  const db = ctx.db;
  const org = ctx.principal.organization.id;
  const at = now.toISOString();
  const decidedBy = ctx.principal.keyId;
  const outcome = (o: ApprovalOutcome) => [approvalPendingGuard(db, org, row.id, at), finishApprovalStatement(db, org, row.id, o, decidedBy, at)];
  try {
    await applyChange(db, org, row, at, outcome);
  } catch (error) {
    // Nothing of the batch was written. A request no longer pending was decided by someone else.
    const current = await readRequest(ctx, row.id, now);
    if (current.status !== 'pending') throw notPending(current);
    const failure =
      error instanceof ExpectationFailed ? noLongerApplies(row, error) : `the change could not be written (${toDomainError(error, ctx.requestId).message})`;
    const failed = await finishApprovalStatement(db, org, row.id, { status: 'failed', failure: failure + AGAIN }, decidedBy, at).run();
    if (failed.meta.changes !== 1) throw notPending(await readRequest(ctx, row.id, now));
  }
}

/** Writes the request's change through the store, guarded and with `outcome`'s statements in its batch. */
async function applyChange(db: Db, org: string, row: ApprovalRow, at: string, outcome: (o: ApprovalOutcome) => D1PreparedStatement[]): Promise<void> {
  const source: WriteSource = { kind: 'action', id: row.id };
  const applied = outcome({ status: 'applied' });
  const params = row.params;
  switch (row.action as Action) {
    case 'upsert_object':
    case 'update_properties':
    case 'delete_object': {
      const target = { type: params.type as ObjectType, key: params.key as string };
      const expect: Expectation[] = [row.baseVersion === null ? { object: target, exists: false } : { object: target, version: row.baseVersion }];
      if (row.action === 'delete_object') return deleteObject(db, org, target, source, at, applied, expect);
      const write = { ...target, properties: params.properties as Record<string, unknown> };
      // The store leaves an object that would be too large as it is; the request then fails in the same batch.
      const tooLarge = `${named(target)} would pass the largest size an object may have (1.5 MiB of properties)${AGAIN}`;
      await writeObjects(db, org, [write], [], source, at, (r) => (r.objects[0] === 'too_large' ? outcome({ status: 'failed', failure: tooLarge }) : applied), expect);
      return;
    }
    case 'link':
    case 'unlink': {
      const link = params as unknown as LinkWrite;
      if (row.action === 'unlink') return deleteLink(db, org, link, applied, [{ link, exists: true }]);
      await writeObjects(db, org, [], [link], source, at, applied, [
        { object: link.from, exists: true },
        { object: link.to, exists: true },
      ]);
      return;
    }
  }
}

/** Why the change no longer applies, from the expectation its batch found false. */
function noLongerApplies(row: ApprovalRow, { expectation: e, found }: ExpectationFailed): string {
  if ('link' in e) return `the ${e.link.link} link from ${named(e.link.from)} to ${named(e.link.to)} no longer exists`;
  const target = named(e.object);
  if ('exists' in e) return e.exists ? `${target} no longer exists` : `${target} was created after the request`;
  if (found === null) return row.action === 'update_properties' ? `${target} no longer exists` : `${target} was deleted after the request`;
  return `${target} changed after the request (version ${e.version} then, ${String(found)} now)`;
}
