import { z } from 'zod';
import { getObject } from '../../db/objects.ts';
import { listWatches as listWatchRows, readWatch, type WatchRow } from '../../db/watches.ts';
import { readSalesProfile } from '../../db/sales-profiles.ts';
import { placementOf } from '../../ground/location-hint.ts';
import type { RunOutcome, WatchObject } from '../../watches/watch-object.ts';
import { randomId } from '../../ground/api-key.ts';
import type { CoreContext } from '../../ground/context.ts';
import { DomainError } from '../../ground/errors.ts';
import { MAX_PAGE_TOKEN_LENGTH, readPageToken, signPageToken } from '../../ground/page-token.ts';
import { assertScope } from '../../ground/scopes.ts';
import { checkInput } from '../../ground/validation.ts';
import {
  CreateWatchInput,
  WATCH_STATUSES,
  type CreatedWatch,
  WATCHABLE_TYPES,
  type ExecutionRecord,
  type WatchableType,
  type WatchStatus,
  type WatchTier,
  type WatchView,
} from '../../ground/schemas/watch.ts';
import { KEY_SCHEMAS } from '../../oms/object-types.ts';
import { writeObjects } from '../../oms/store.ts';
import type { ChangeKind } from '../../ground/schemas/changes.ts';
import { priceOf } from '../../watches/ledger.ts';
import { checkWebhookUrl } from '../../watches/webhooks/url-policy.ts';
import { webhookUrlOptions } from '../../watches/webhooks/url-options.ts';
import { ensureWebhookSecret } from '../../watches/webhooks/secrets.ts';

/**
 * Research watches: create, list, get, cancel, run now and executions.
 * Each is one function both doors call, declared in ./watch-operations.ts.
 * A watch lives in its own WatchObject; its D1 row (written by the object) is what lists read, and
 * what tells which organization a watch id belongs to: another organization's watch is not found.
 */

export { CreateWatchInput };

export const WatchId = z.string().min(1).max(100).describe('The watch id (wch_...).');
export const Cursor = z.string().min(1).max(MAX_PAGE_TOKEN_LENGTH).describe("The previous page's nextCursor, with the same other parameters.");

export const WatchListFilter = z.object({
  status: z.enum(WATCH_STATUSES).optional().describe('Only watches in this status: active, failing, capped or cancelled.'),
  targetType: z.enum(WATCHABLE_TYPES).optional().describe('With targetKey: only the watches of this target (type "company").'),
  targetKey: z.string().min(1).max(2048).optional().describe('With targetType: the target\'s key, e.g. "globex.com".'),
});
export type WatchListFilter = z.output<typeof WatchListFilter>;

function stubOf(ctx: CoreContext, id: string, placement?: DurableObjectNamespaceGetDurableObjectOptions): DurableObjectStub<WatchObject> {
  return ctx.env.WATCHES.getByName(id, placement);
}

function watchNotFound(id: string): DomainError {
  return new DomainError('not_found', `No watch ${id} in your organization; GET /api/v1/oms/watches lists them.`);
}

function invalid(path: string, message: string, what = 'watch'): DomainError {
  return new DomainError('invalid_input', `Invalid ${what}: ${message}.`, { details: [{ path, message }] });
}

/** The target's key normalized as its type's keys are (an import line's rule); 400 on `path` otherwise. */
function normalizedKey(type: WatchableType, key: string, path: string, what: string): string {
  const result = checkInput(KEY_SCHEMAS[type], key, path, path);
  if (result.success) return result.data;
  throw new DomainError('invalid_input', `Invalid ${what}: ${result.details.map((d) => d.message).join('; ')}.`, { details: result.details });
}

/** The watch's row in the caller's organization; 404 for an unknown id or another organization's. */
/**
 * The watch object writes its D1 mirror (and an execution's brief) through its own session: the
 * request observes that session's bookmark, so the one it sends back covers those writes and the
 * client's next read with it (a listing, a search) sees them on any replica.
 */
async function observeWrites(ctx: CoreContext, stub: DurableObjectStub<WatchObject>): Promise<void> {
  ctx.db.observe(await stub.d1Bookmark());
}

async function ownRow(ctx: CoreContext, id: string): Promise<WatchRow> {
  const row = await readWatch(ctx.db, ctx.principal.organization.id, id);
  if (!row) throw watchNotFound(id);
  return row;
}

/** A watch as its D1 row says (what lists answer; get answers from the object itself). */
export function viewOfRow(row: WatchRow): WatchView {
  return {
    id: row.id,
    target: { type: row.targetType as WatchableType, key: row.targetKey },
    query: row.query,
    frequency: row.frequency,
    tier: row.tier as WatchTier,
    costCapMicros: row.costCapMicros,
    spentMicros: row.spentMicros,
    sourcePolicy: row.sourcePolicy,
    includePaths: row.includePaths,
    excludePaths: row.excludePaths,
    status: row.status as WatchStatus,
    executions: row.executions,
    lastRunAt: row.lastRunAt,
    nextRunAt: row.nextRunAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    cancelledAt: row.cancelledAt,
    webhook: row.webhookUrl ? { url: row.webhookUrl, kinds: row.webhookKinds as ChangeKind[] } : null,
    ignore: row.ignorePatterns,
  };
}

/** A create's arguments checked against the deployment and the organization's data: the target's key normalized, the webhook URL allowed. */
interface CheckedWatch {
  target: { type: WatchableType; key: string };
  webhook: { url: string; kinds?: ChangeKind[] } | null;
  /** Whether the target is an object of the organization yet (a company that is not is created with the watch). */
  exists: boolean;
}

/** Checks a create without writing anything: the target's key, the webhook URL against the deployment's policy, the target existing. */
async function checkWatch(ctx: CoreContext, input: z.output<typeof CreateWatchInput>): Promise<CheckedWatch> {
  assertScope(ctx, 'oms:write');
  const { type } = input.target;
  const key = normalizedKey(type, input.target.key, 'target.key', 'watch');
  let webhook: CheckedWatch['webhook'] = null;
  if (input.webhook) {
    const checked = checkWebhookUrl(input.webhook.url, webhookUrlOptions(ctx.env));
    if (!checked.ok) throw invalid('webhook.url', `webhook.url ${checked.message}`);
    webhook = { url: checked.url, ...(input.webhook.kinds?.length ? { kinds: [...new Set(input.webhook.kinds)] } : {}) };
  }
  const exists = (await getObject(ctx.db, ctx.principal.organization.id, type, key)) !== null;
  return { target: { type, key }, webhook, exists };
}

/** What a watch would cost, told before it is created: its price per execution, its cap, and how many executions the cap pays for. */
export interface WatchQuote {
  target: { type: WatchableType; key: string };
  frequency: string;
  tier: WatchTier;
  priceMicros: number;
  costCapMicros: number;
  /** Executions the cap pays for: after these the watch is capped and never executes again. */
  executions: number;
}

/**
 * The cost of a watch `createWatch` would make, after the same checks (nothing is written): what
 * the MCP door asks a person to confirm before watch-create runs (src/mcp/questions.ts).
 */
export async function quoteWatch(ctx: CoreContext, input: z.output<typeof CreateWatchInput>): Promise<WatchQuote> {
  const { target } = await checkWatch(ctx, input);
  const priceMicros = priceOf(input.tier);
  return { target, frequency: input.frequency, tier: input.tier, priceMicros, costCapMicros: input.costCapMicros, executions: Math.floor(input.costCapMicros / priceMicros) };
}

/**
 * POST /api/v1/oms/watches and watch-create: validates, checks the target exists (and the webhook
 * URL against the deployment's policy), and starts the watch (its first execution runs at once).
 * With a webhook, the organization's signing secret is made if it has none yet, before the watch
 * (so no delivery goes out unsigned), and answered as `webhookSecret` by the create that made it:
 * once, never again (POST /api/v1/oms/webhooks/secret rotates it and shows the new one).
 */
export async function createWatch(ctx: CoreContext, input: z.output<typeof CreateWatchInput>, now = new Date()): Promise<CreatedWatch> {
  const { target, webhook, exists } = await checkWatch(ctx, input);
  const organizationId = ctx.principal.organization.id;
  const secret = webhook ? await ensureWebhookSecret(ctx.db, organizationId, now) : null;
  const id = randomId('wch');
  // A company watched by its domain before it is an object is created now, as a site read does (its
  // first execution reads the site and names it); the watch's id is its provenance.
  if (!exists) await writeObjects(ctx.db, organizationId, [{ type: target.type, key: target.key, properties: {} }], [], { kind: 'watch', id }, now.toISOString());
  // The get that creates the object: the organization's location hint only counts here.
  const placement = placementOf((await readSalesProfile(ctx.db, organizationId))?.profile.icp?.regions ?? []);
  const stub = stubOf(ctx, id, placement);
  const watch = await stub.create({
    id,
    organizationId,
    target,
    query: input.query ?? null,
    frequency: input.frequency,
    tier: input.tier,
    costCapMicros: input.costCapMicros,
    sourcePolicy: { include: input.sourcePolicy?.include ?? [], exclude: input.sourcePolicy?.exclude ?? [] },
    includePaths: input.includePaths,
    excludePaths: input.excludePaths,
    webhook,
    ignorePatterns: input.ignore,
    ...(ctx.origin ? { origin: ctx.origin } : {}),
    createdAt: now.toISOString(),
  });
  await observeWrites(ctx, stub);
  return secret?.created ? { ...watch, webhookSecret: secret.secret } : watch;
}

/** GET /api/v1/oms/watches?id= and watch-get. */
export async function getWatch(ctx: CoreContext, id: string): Promise<WatchView> {
  assertScope(ctx, 'oms:read');
  const row = await ownRow(ctx, id);
  return (await stubOf(ctx, row.id).get()) ?? viewOfRow(row);
}

const WatchesPosition = z.tuple([z.string().max(64), z.string().max(100)]);

/** GET /api/v1/oms/watches and watch-list: the organization's watches, newest first, paged by a signed cursor. */
export async function listWatches(
  ctx: CoreContext,
  limit: number,
  cursor: string | undefined,
  filter: WatchListFilter,
): Promise<{ watches: WatchView[]; nextCursor: string | null }> {
  assertScope(ctx, 'oms:read');
  if ((filter.targetType === undefined) !== (filter.targetKey === undefined)) {
    const missing = filter.targetType === undefined ? 'targetType' : 'targetKey';
    throw invalid(missing, `${missing} is required with ${missing === 'targetType' ? 'targetKey' : 'targetType'}: a target is a type and a key`, 'query');
  }
  const target = filter.targetType && filter.targetKey ? { type: filter.targetType, key: normalizedKey(filter.targetType, filter.targetKey, 'targetKey', 'query') } : undefined;
  const organizationId = ctx.principal.organization.id;
  const scope = { organizationId, list: `watches:${filter.status ?? '*'}:${target ? `${target.type}:${target.key}` : '*'}` };
  const after = cursor ? await readPageToken(ctx.env, cursor, scope, WatchesPosition, 'cursor') : undefined;
  const rows = await listWatchRows(ctx.db, organizationId, limit + 1, after && { createdAt: after[0], id: after[1] }, { status: filter.status, target });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    watches: page.map(viewOfRow),
    nextCursor: rows.length > limit && last ? await signPageToken(ctx.env, scope, [last.createdAt, last.id]) : null,
  };
}

/** DELETE /api/v1/oms/watches?id= and watch-cancel: idempotent; a cancelled watch is answered as it is. */
export async function cancelWatch(ctx: CoreContext, id: string): Promise<WatchView> {
  assertScope(ctx, 'oms:write');
  const row = await ownRow(ctx, id);
  const stub = stubOf(ctx, row.id);
  const watch = await stub.cancel();
  if (!watch) throw watchNotFound(id);
  await observeWrites(ctx, stub);
  return watch;
}

function refused(id: string, outcome: Extract<RunOutcome, { ran: false }>): DomainError {
  const watch = outcome.watch;
  switch (outcome.refusal) {
    case 'missing':
      return watchNotFound(id);
    case 'cancelled':
      return new DomainError('conflict', `Watch ${id} is cancelled (since ${watch?.cancelledAt}); it never executes again. Create a new watch instead.`);
    case 'capped':
      return new DomainError(
        'conflict',
        `Watch ${id} is capped: it spent ${watch?.spentMicros} of its ${watch?.costCapMicros} micros, and one more execution would pass the cap. Create a new watch with a larger cap to go on.`,
      );
    case 'budget_reserved':
      return new DomainError(
        'conflict',
        `Watch ${id} has an execution running that holds the rest of its budget (${watch?.spentMicros} of ${watch?.costCapMicros} micros spent); try again when it has finished.`,
      );
  }
}

/** POST /api/v1/oms/watches/run?id= and watch-run: executes now and answers the execution record (charged like any execution). */
export async function runWatch(ctx: CoreContext, id: string): Promise<ExecutionRecord> {
  assertScope(ctx, 'oms:write');
  const row = await ownRow(ctx, id);
  const stub = stubOf(ctx, row.id);
  const outcome = await stub.runNow();
  if (!outcome.ran) throw refused(id, outcome);
  await observeWrites(ctx, stub);
  return outcome.execution;
}

const ExecutionsPosition = z.int().min(1);

/** GET /api/v1/oms/watches/executions?id= and watch-executions: the watch's executions, newest first. */
export async function listWatchExecutions(
  ctx: CoreContext,
  id: string,
  limit: number,
  cursor?: string,
): Promise<{ executions: ExecutionRecord[]; nextCursor: string | null }> {
  assertScope(ctx, 'oms:read');
  const row = await ownRow(ctx, id);
  const scope = { organizationId: ctx.principal.organization.id, list: `watch-executions:${row.id}` };
  const before = cursor ? await readPageToken(ctx.env, cursor, scope, ExecutionsPosition, 'cursor') : undefined;
  const page = await stubOf(ctx, row.id).executionsPage(limit, before);
  return {
    executions: page.executions,
    nextCursor: page.more && page.lastSeq !== null ? await signPageToken(ctx.env, scope, page.lastSeq) : null,
  };
}

