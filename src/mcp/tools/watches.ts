import { z } from 'zod';
import { parseInput } from '../../ground/validation.ts';
import type { ExecutionRecord, WatchView } from '../../ground/schemas/watch.ts';
import {
  cancelWatch,
  createWatch,
  CreateWatchInput,
  Cursor,
  ExecutionPageSize,
  getWatch,
  listWatches,
  listWatchExecutions,
  runWatch,
  WatchId,
  WatchListFilter,
  WatchPageSize,
} from '../../operations/watches.ts';
import type { ToolDefinition } from './registry.ts';

const IdInput = z.strictObject({ id: WatchId });
export const WatchListInput = z.strictObject({ ...WatchListFilter.shape, limit: WatchPageSize, cursor: Cursor.optional() });
export const WatchExecutionsInput = z.strictObject({ id: WatchId, limit: ExecutionPageSize, cursor: Cursor.optional() });

const micros = (n: number) => `${n} micros ($${(n / 1_000_000).toFixed(4)})`;

/** One watch as a line a person reads: what, how often, its status and its spend. */
function watchLine(watch: WatchView): string {
  const next = watch.nextRunAt ? `; next run ${watch.nextRunAt}` : '';
  const query = watch.query ? ` ("${watch.query}")` : '';
  return (
    `- ${watch.id}: ${watch.target.type} ${watch.target.key}${query}, every ${watch.frequency}, ${watch.tier}; ${watch.status}; ` +
    `spent ${micros(watch.spentMicros)} of ${micros(watch.costCapMicros)} over ${watch.executions} execution(s)${next}`
  );
}

function executionLine(execution: ExecutionRecord): string {
  if (execution.outcome === 'failed') return `- ${execution.id} at ${execution.startedAt}: failed, not charged: ${execution.error}`;
  const changes = execution.changes.length
    ? `changed ${execution.changes.map((c) => `${c.property} (${JSON.stringify(c.from)} -> ${JSON.stringify(c.to)})`).join(', ')}`
    : 'no property changed';
  return `- ${execution.id} at ${execution.startedAt}: succeeded, charged ${micros(execution.costMicros)}; brief ${execution.briefKey}; ${changes}`;
}

function result(lines: string[], structured: object) {
  return { content: [{ type: 'text' as const, text: `${lines.join('\n')}\n` }], structuredContent: { ...structured } };
}

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** watch-create, watch-list, watch-get, watch-executions, watch-cancel, watch-run: /api/v1/oms/watches over the same core. */
export const watchTools: ToolDefinition[] = [
  {
    name: 'watch-create',
    title: 'Create a research watch',
    description:
      'Keeps a company fresh: on a schedule Recon researches it, stores a brief about it and updates its properties (founded, headquarters, employees, pricing) ' +
      'with provenance "watch", charging the tier price (lite 3000, base 10000 micros) against a hard cap that is never passed. The first execution runs at once. ' +
      'Example: {"target": {"type": "company", "key": "globex.com"}, "frequency": "1d", "tier": "lite", "costCapMicros": 90000}. ' +
      'frequency 1h to 30d; the company must exist in your organization (oms-search finds it).',
    input: CreateWatchInput,
    annotations: WRITE,
    scope: 'oms:write',
    bucket: 'commands',
    async call(ctx, args) {
      const watch = await createWatch(ctx, args);
      const secret = watch.webhookSecret
        ? [`Webhook signing secret (shown once, store it now): ${watch.webhookSecret}`]
        : watch.webhook
          ? ["Its deliveries are signed with your organization's existing webhook secret."]
          : [];
      return result([`Watch ${watch.id} created; its first execution runs now.`, watchLine(watch), ...secret], watch);
    },
  },
  {
    name: 'watch-list',
    title: 'List research watches',
    description:
      "Your organization's watches, newest first; filter by status (active, failing, capped, cancelled) or by target (targetType and targetKey together). " +
      'Paged: pass nextCursor back as cursor.',
    input: WatchListInput,
    annotations: READ,
    scope: 'oms:read',
    bucket: 'reads',
    async call(ctx, args) {
      const { limit, cursor, ...filter } = parseInput(WatchListInput, args, 'arguments of watch-list');
      const page = await listWatches(ctx, limit, cursor, filter);
      const lines = [
        page.watches.length ? `${page.watches.length} watch(es), newest first:` : 'No watches.',
        ...page.watches.map(watchLine),
        ...(page.nextCursor ? [`More: call watch-list again with cursor "${page.nextCursor}".`] : []),
      ];
      return result(lines, page);
    },
  },
  {
    name: 'watch-get',
    title: 'Get a research watch',
    description: 'One watch by id: its target, schedule (nextRunAt), status and spend against its cap. watch-executions lists what its executions found.',
    input: IdInput,
    annotations: READ,
    scope: 'oms:read',
    bucket: 'reads',
    async call(ctx, args) {
      const { id } = parseInput(IdInput, args, 'arguments of watch-get');
      const watch = await getWatch(ctx, id);
      return result([`Watch ${watch.id}:`, watchLine(watch)], watch);
    },
  },
  {
    name: 'watch-executions',
    title: "A watch's executions",
    description:
      "A watch's executions, newest first: when, outcome, cost, the brief it stored (read it with oms-get type brief) and the properties it changed. Paged by cursor.",
    input: WatchExecutionsInput,
    annotations: READ,
    scope: 'oms:read',
    bucket: 'reads',
    async call(ctx, args) {
      const { id, limit, cursor } = parseInput(WatchExecutionsInput, args, 'arguments of watch-executions');
      const page = await listWatchExecutions(ctx, id, limit, cursor);
      const lines = [
        page.executions.length ? `${page.executions.length} execution(s) of watch ${id}, newest first:` : `Watch ${id} has not executed yet.`,
        ...page.executions.map(executionLine),
        ...(page.nextCursor ? [`More: call watch-executions again with cursor "${page.nextCursor}".`] : []),
      ];
      return result(lines, page);
    },
  },
  {
    name: 'watch-cancel',
    title: 'Cancel a research watch',
    description: 'Cancels a watch: its schedule is deleted and it never executes (nor spends) again. Cancelling a cancelled watch changes nothing.',
    input: IdInput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    scope: 'oms:write',
    bucket: 'reads',
    async call(ctx, args) {
      const { id } = parseInput(IdInput, args, 'arguments of watch-cancel');
      const watch = await cancelWatch(ctx, id);
      return result([`Watch ${watch.id} is cancelled.`, watchLine(watch)], watch);
    },
  },
  {
    name: 'watch-run',
    title: 'Run a research watch now',
    description:
      'Executes a watch now and answers its execution record once done (charged like any execution; the schedule does not move). ' +
      'Refused (conflict) when the watch is capped or cancelled.',
    input: IdInput,
    annotations: WRITE,
    scope: 'oms:write',
    bucket: 'commands',
    async call(ctx, args) {
      const { id } = parseInput(IdInput, args, 'arguments of watch-run');
      const execution = await runWatch(ctx, id);
      return result([`Watch ${id} executed:`, executionLine(execution)], execution);
    },
  },
];
