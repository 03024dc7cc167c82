import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../env.ts';
import { DomainError } from '../ground/errors.ts';
import { WATCH_STATUSES, WATCH_TIERS, WATCHABLE_TYPES } from '../ground/schemas/watch.ts';
import {
  cancelWatch,
  createWatch,
  CreateWatchInput,
  Cursor,
  getWatch,
  listWatches,
  listWatchExecutions,
  runWatch,
  WatchId,
  WatchListFilter,
} from '../operations/watches.ts';
import { readJsonObject } from './json-body.ts';
import { documentedBody, errors, json, KEYED } from './openapi-parts.ts';
import { refuseInvalid } from './validation-hook.ts';

/** Research watches under /api/v1/oms/watches: thin adapters over operations/watches.ts. */
export const watches = new OpenAPIHono<AppEnv>();

const Policy = z.object({ include: z.array(z.string()), exclude: z.array(z.string()) });

export const Watch = z
  .object({
    id: z.string(),
    target: z.object({ type: z.enum(WATCHABLE_TYPES), key: z.string() }),
    query: z.string().nullable().describe("What each execution researches; null: the target's name."),
    frequency: z.string().describe('1h to 30d, e.g. "6h", "1d", "2w".'),
    tier: z.enum(WATCH_TIERS),
    costCapMicros: z.int(),
    spentMicros: z.int().describe('Never above costCapMicros: the tier price times the charged executions.'),
    sourcePolicy: Policy,
    status: z.enum(WATCH_STATUSES).describe('active; failing after 5 failed executions in a row (a success makes it active); capped when the next execution would pass the cap; cancelled.'),
    executions: z.int().describe('Charged (succeeded) executions.'),
    lastRunAt: z.string().nullable(),
    nextRunAt: z.string().nullable().describe('When the next execution is due; null once capped or cancelled.'),
    createdAt: z.string(),
    updatedAt: z.string(),
    cancelledAt: z.string().nullable(),
    webhook: z.object({ url: z.string() }).nullable().describe('Where each execution record is POSTed, signed with your organization\'s secret; null: no webhook.'),
  })
  .openapi('Watch');

const CreatedWatch = Watch.extend({
  webhookSecret: z
    .string()
    .optional()
    .describe("Your organization's webhook signing secret (whsec_...), only in the answer of the create that made it: store it now, it is never shown again."),
}).openapi('CreatedWatch');

const WatchPage = z
  .object({ watches: z.array(Watch), nextCursor: z.string().nullable().describe('The next page, or null at the end.') })
  .openapi('WatchPage');

export const Execution = z
  .object({
    id: z.string(),
    watchId: z.string(),
    startedAt: z.string(),
    finishedAt: z.string(),
    outcome: z.enum(['succeeded', 'failed']),
    costMicros: z.int().describe('The tier price when it succeeded; 0 when it failed (a failed execution is not charged).'),
    briefKey: z.string().nullable().describe('The brief it stored (type brief), or null.'),
    changes: z.array(z.object({ property: z.string(), from: z.unknown(), to: z.unknown() })).describe("The target's properties it changed."),
    error: z.string().optional().describe('Why it failed.'),
    webhook: z
      .object({
        state: z.enum(['pending', 'delivered', 'gave_up']),
        attempts: z.int(),
        lastStatus: z.int().nullable(),
        lastError: z.string().nullable(),
        nextAttemptAt: z.string().nullable(),
      })
      .optional()
      .describe('On a watch with a webhook: how the delivery of this record went (6 attempts over about 5 hours, then given up).'),
  })
  .openapi('WatchExecution');

const ExecutionPage = z
  .object({ executions: z.array(Execution), nextCursor: z.string().nullable().describe('The next page, or null at the end.') })
  .openapi('WatchExecutionPage');

const IdQuery = z.strictObject({ id: WatchId });

const createRoute_ = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createWatch',
  summary: 'Create a research watch; its first execution runs at once',
  description:
    'Researches the target every frequency, stores a brief about it, updates its properties (provenance kind watch) and charges the tier price ' +
    '(lite 3000, base 10000 micros) against the cap, which is never passed. The target must exist in your organization.',
  'x-required-scope': 'oms:write',
  request: {
    body: documentedBody(watches, 'WatchCreate', CreateWatchInput, {
      required: true,
      example: { target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 90000, sourcePolicy: { include: [], exclude: ['reddit.com'] } },
    }),
  },
  responses: { 201: json('The watch (with webhookSecret once, when this create made the secret)', CreatedWatch), ...errors(400, ...KEYED) },
});

const ListQuery = z.strictObject({
  id: WatchId.optional().describe('One watch by its id (then no other parameter).'),
  ...WatchListFilter.shape,
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('Watches per page, 1-200 (default 50).'),
  cursor: Cursor.optional(),
});

const listRoute = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listWatches',
  summary: "The organization's watches, newest first, or one by id",
  'x-required-scope': 'oms:read',
  request: { query: ListQuery },
  responses: { 200: json('One watch (with id) or a page of watches', z.union([Watch, WatchPage])), ...errors(400, ...KEYED, 404) },
});

const cancelRoute = createRoute({
  method: 'delete',
  path: '/',
  operationId: 'cancelWatch',
  summary: 'Cancel a watch (idempotent): its schedule is deleted and it never executes again',
  'x-required-scope': 'oms:write',
  request: { query: IdQuery },
  responses: { 200: json('The cancelled watch', Watch), ...errors(400, ...KEYED, 404) },
});

const runRoute = createRoute({
  method: 'post',
  path: '/run',
  operationId: 'runWatch',
  summary: 'Execute a watch now and answer its execution record',
  description: 'Charged like any execution; the schedule does not move. 409 when the watch is capped or cancelled.',
  'x-required-scope': 'oms:write',
  request: { query: IdQuery },
  responses: { 200: json('The execution', Execution), ...errors(400, ...KEYED, 404, 409) },
});

const executionsRoute = createRoute({
  method: 'get',
  path: '/executions',
  operationId: 'listWatchExecutions',
  summary: "A watch's executions, newest first (the newest 1000 are kept)",
  'x-required-scope': 'oms:read',
  request: {
    query: z.strictObject({
      id: WatchId,
      limit: z.coerce.number().int().min(1).max(100).default(20).describe('Executions per page, 1-100 (default 20).'),
      cursor: Cursor.optional(),
    }),
  },
  responses: { 200: json('A page of executions', ExecutionPage), ...errors(400, ...KEYED, 404) },
});

watches
  .openapi(createRoute_, async (c) => c.json(await createWatch(c.var.core, await readJsonObject(c)), 201))
  .openapi(
    listRoute,
    async (c) => {
      const { id, limit, cursor, ...filter } = c.req.valid('query');
      if (id !== undefined) {
        const extra = Object.keys(c.req.queries()).filter((name) => name !== 'id');
        if (extra.length) {
          throw new DomainError('invalid_input', `Invalid query: id names one watch; send it without ${extra.join(', ')}.`, {
            details: extra.map((name) => ({ path: name, message: `${name} cannot be combined with id` })),
          });
        }
        return c.json(await getWatch(c.var.core, id), 200);
      }
      return c.json(await listWatches(c.var.core, limit, cursor, filter), 200);
    },
    refuseInvalid(listRoute),
  )
  .openapi(cancelRoute, async (c) => c.json(await cancelWatch(c.var.core, c.req.valid('query').id), 200), refuseInvalid(cancelRoute))
  .openapi(runRoute, async (c) => c.json(await runWatch(c.var.core, c.req.valid('query').id), 200), refuseInvalid(runRoute))
  .openapi(
    executionsRoute,
    async (c) => {
      const { id, limit, cursor } = c.req.valid('query');
      return c.json(await listWatchExecutions(c.var.core, id, limit, cursor), 200);
    },
    refuseInvalid(executionsRoute),
  );
