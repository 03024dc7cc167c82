import { z } from '../../ground/schemas/openapi.ts';
import { paging } from '../../ground/schemas/paging.ts';
import { CreatedWatch, Watch, WatchFindings, type ExecutionRecord, type WatchView } from '../../ground/schemas/watch.ts';
import { formatMicros } from '../../ground/money.ts';
import { assertIdAlone, defineOperation, type Effects } from '../definition.ts';
import { changeLine } from '../../watches/findings.ts';
import { cancelWatch, createWatch, CreateWatchInput, getWatch, listWatches, listWatchExecutions, quoteWatch, runWatch, WatchId, WatchListFilter } from './watches.ts';

const WatchPage = z
  .object({ watches: z.array(Watch), nextCursor: z.string().nullable().describe('The next page, or null at the end.') })
  .openapi('WatchPage');

const Execution = z
  .object({
    id: z.string(),
    watchId: z.string(),
    startedAt: z.string(),
    finishedAt: z.string(),
    outcome: z.enum(['succeeded', 'failed']),
    costMicros: z.int().describe('The tier price when it succeeded; 0 when it failed (a failed execution is not charged).'),
    briefKey: z.string().nullable().describe('The brief it stored (type brief), or null.'),
    changes: z.array(z.object({ property: z.string(), from: z.unknown(), to: z.unknown() })).describe("The target's properties it changed."),
    findings: WatchFindings.nullable(),
    siteRead: z
      .object({ runId: z.string().describe('The site-read run: GET /api/v1/runs/site-read/{runId}.'), status: z.string().describe('How it ended (completed, failed, ...), or running when the execution stopped waiting for it.') })
      .nullable()
      .optional()
      .describe("The read of the target company's site that ran before the research; null when none ran (not a company, a site not read here, or refused)."),
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

const IdInput = z.strictObject({ id: WatchId });
const ListInput = z.strictObject({
  id: WatchId.optional().describe('One watch by its id (then no other parameter).'),
  ...WatchListFilter.shape,
  ...paging({ max: 200, byDefault: 50, noun: 'Watches' }),
});
const ExecutionsInput = z.strictObject({ id: WatchId, ...paging({ max: 100, byDefault: 20, noun: 'Executions' }) });

/** One watch as a line a person reads: what, how often, its status and its spend. */
function watchLine(watch: WatchView): string {
  const next = watch.nextRunAt ? `; next run ${watch.nextRunAt}` : '';
  const query = watch.query ? ` ("${watch.query}")` : '';
  return (
    `- ${watch.id}: ${watch.target.type} ${watch.target.key}${query}, every ${watch.frequency}, ${watch.tier}; ${watch.status}; ` +
    `spent ${formatMicros(watch.spentMicros)} of ${formatMicros(watch.costCapMicros)} over ${watch.executions} execution(s)${next}`
  );
}

function executionLine(execution: ExecutionRecord): string {
  if (execution.outcome === 'failed') return `- ${execution.id} at ${execution.startedAt}: failed, not charged: ${execution.error}`;
  const changes = execution.changes.length
    ? `changed ${execution.changes.map((c) => `${c.property} (${JSON.stringify(c.from)} -> ${JSON.stringify(c.to)})`).join(', ')}`
    : 'no property changed';
  return `- ${execution.id} at ${execution.startedAt}: succeeded, charged ${formatMicros(execution.costMicros)}; brief ${execution.briefKey}; ${changes}; ${findingsNote(execution)}`;
}

/** What changed, in words: the web's changes (each cited), then the cited claims (`1 added, 1 removed since wex_...`). */
function findingsNote({ findings }: ExecutionRecord): string {
  if (!findings) return 'no findings recorded';
  if (findings.since === null) return 'first reading of the company\'s web and of its cited claims';
  const { added, removed } = findings;
  const changes = findings.changes ?? [];
  const total = findings.changeCounts?.total ?? changes.length;
  const web = total
    ? `${total} change(s) on the company's web since ${findings.since}:\n${changes.map((change) => `    ${changeLine(change)}`).join('\n')}${total > changes.length ? `\n    - and ${total - changes.length} more` : ''}\n  `
    : `no change on the company's web since ${findings.since}; `;
  if (!added.length && !removed.length) return `${web}cited claims unchanged`;
  return `${web}cited claims: ${added.length} added, ${removed.length} removed`;
}

const lines = (text: string[], structured: object) => ({ text: `${text.join('\n')}\n`, structured: { ...structured } });

const WRITE: Effects = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const READ: Effects = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Research watches: /api/v1/oms/watches and the watch-* tools. */
export const WATCH_OPERATIONS = [
  defineOperation({
    id: 'watch-create',
    scope: 'oms:write',
    bucket: 'commands',
    input: CreateWatchInput,
    inputName: 'watch',
    output: CreatedWatch,
    errors: ['invalid_input', 'payload_too_large'],
    effects: WRITE,
    run: (ctx, input) => createWatch(ctx, input),
    rest: {
      method: 'post',
      path: '/oms/watches',
      operationId: 'createWatch',
      summary: 'Create a research watch; its first execution runs at once',
      description:
        'Researches the target every frequency, stores a brief about it, updates its properties (provenance kind watch) and charges the tier price ' +
        '(lite 3000, base 10000 micros) against the cap, which is never passed. Each execution reports what the company changed on its web since the previous one (findings.changes). ' +
        'A company not yet in your organization is created from its domain.',
      input: {
        from: 'body',
        name: 'WatchCreate',
        required: true,
        example: { target: { type: 'company', key: 'globex.com' }, frequency: '1d', tier: 'lite', costCapMicros: 90000, sourcePolicy: { include: [], exclude: ['reddit.com'] } },
      },
      answer: { kind: 'json', status: 201, description: 'The watch (with webhookSecret once, when this create made the secret)' },
    },
    mcp: {
      answersOutput: true,
      title: 'Create a research watch',
      description:
        'Keeps a company fresh: on a schedule Recon researches it, stores a brief about it and updates its properties (founded, headquarters, employees, pricing) ' +
        'with provenance "watch", and reports what the company changed on its web since the last execution (prices, roles, releases, pages), ' +
        'charging the tier price (lite 3000, base 10000 micros) against a hard cap that is never passed. The first execution runs at once. ' +
        'Example: {"target": {"type": "company", "key": "globex.com"}, "frequency": "1d", "tier": "lite", "costCapMicros": 90000}. ' +
        'frequency 1h to 30d; a company not yet in your organization is created from its domain. ignore: your own patterns of text never to report; webhook.kinds: send only executions with changes of these kinds.',
      confirm: async (ctx, input) => {
        const quote = await quoteWatch(ctx, input);
        const what = `${quote.tier} watch of ${quote.target.type} ${quote.target.key}, every ${quote.frequency}`;
        return {
          message:
            `Create a ${what}? Each execution costs ${formatMicros(quote.priceMicros)}; the cap of ${formatMicros(quote.costCapMicros)} ` +
            `pays for ${quote.executions} execution(s), after which the watch stops (capped). The first execution runs now.`,
          confirm: 'Create this watch',
          declined: `Watch not created: the ${what} (cap ${formatMicros(quote.costCapMicros)}) was declined. Nothing was written and nothing was charged.`,
        };
      },
      answer: (watch) => {
        const secret = watch.webhookSecret
          ? [`Webhook signing secret (shown once, store it now): ${watch.webhookSecret}`]
          : watch.webhook
            ? ["Its deliveries are signed with your organization's existing webhook secret."]
            : [];
        return lines([`Watch ${watch.id} created; its first execution runs now.`, watchLine(watch), ...secret], watch);
      },
    },
  }),
  defineOperation({
    id: 'watch-list',
    scope: 'oms:read',
    bucket: 'reads',
    input: ListInput,
    output: z.union([Watch, WatchPage]),
    errors: ['invalid_input', 'not_found'],
    effects: READ,
    freshness: 'recent',
    run: async (ctx, { id, limit, cursor, ...filter }, call) => {
      if (id !== undefined) {
        assertIdAlone(call, 'watch');
        return getWatch(ctx, id);
      }
      return listWatches(ctx, limit, cursor, filter);
    },
    rest: {
      method: 'get',
      path: '/oms/watches',
      operationId: 'listWatches',
      summary: "The organization's watches, newest first, or one by id",
      input: { from: 'query' },
      answer: { kind: 'json', status: 200, description: 'One watch (with id) or a page of watches' },
    },
    mcp: {
      answersOutput: true,
      title: 'List research watches',
      description:
        "Your organization's watches, newest first; filter by status (active, failing, capped, cancelled) or by target (targetType and targetKey together). " +
        'Paged: pass nextCursor back as cursor. With id alone: that one watch.',
      answer: (result) => {
        if (!('watches' in result)) return lines([`Watch ${result.id}:`, watchLine(result)], result);
        return lines(
          [
            result.watches.length ? `${result.watches.length} watch(es), newest first:` : 'No watches.',
            ...result.watches.map(watchLine),
            ...(result.nextCursor ? [`More: call watch-list again with cursor "${result.nextCursor}".`] : []),
          ],
          result,
        );
      },
    },
  }),
  defineOperation({
    id: 'watch-get',
    scope: 'oms:read',
    bucket: 'reads',
    input: IdInput,
    output: Watch,
    errors: ['invalid_input', 'not_found'],
    effects: READ,
    run: (ctx, { id }) => getWatch(ctx, id),
    mcp: {
      answersOutput: true,
      title: 'Get a research watch',
      description: 'One watch by id: its target, schedule (nextRunAt), status and spend against its cap. watch-executions lists what its executions found.',
      answer: (watch) => lines([`Watch ${watch.id}:`, watchLine(watch)], watch),
    },
  }),
  defineOperation({
    id: 'watch-executions',
    scope: 'oms:read',
    bucket: 'reads',
    input: ExecutionsInput,
    output: ExecutionPage,
    errors: ['invalid_input', 'not_found'],
    effects: READ,
    run: (ctx, { id, limit, cursor }) => listWatchExecutions(ctx, id, limit, cursor),
    rest: {
      method: 'get',
      path: '/oms/watches/executions',
      operationId: 'listWatchExecutions',
      summary: "A watch's executions, newest first (the newest 1000 are kept)",
      input: { from: 'query' },
      answer: { kind: 'json', status: 200, description: 'A page of executions' },
    },
    mcp: {
      answersOutput: true,
      title: "A watch's executions",
      description:
        "A watch's executions, newest first: when, outcome, cost, the brief it stored (read it with oms-get type brief), the properties it changed, " +
        "and its findings: what the company changed on its web since the previous succeeded execution (prices before and after, sentences added and removed, pages new and gone, roles opened and closed, new feed entries, each with its URL), " +
          'then the cited claims its brief added and removed. Paged by cursor. The tool changes lists the changes of every watch.',
      answer: (page, { id }) =>
        lines(
          [
            page.executions.length ? `${page.executions.length} execution(s) of watch ${id}, newest first:` : `Watch ${id} has not executed yet.`,
            ...page.executions.map(executionLine),
            ...(page.nextCursor ? [`More: call watch-executions again with cursor "${page.nextCursor}".`] : []),
          ],
          page,
        ),
    },
  }),
  defineOperation({
    id: 'watch-cancel',
    scope: 'oms:write',
    bucket: 'reads',
    input: IdInput,
    output: Watch,
    errors: ['invalid_input', 'not_found'],
    effects: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: (ctx, { id }) => cancelWatch(ctx, id),
    rest: {
      method: 'delete',
      path: '/oms/watches',
      operationId: 'cancelWatch',
      summary: 'Cancel a watch (idempotent): its schedule is deleted and it never executes again',
      input: { from: 'query' },
      answer: { kind: 'json', status: 200, description: 'The cancelled watch' },
    },
    mcp: {
      answersOutput: true,
      title: 'Cancel a research watch',
      description: 'Cancels a watch: its schedule is deleted and it never executes (nor spends) again. Cancelling a cancelled watch changes nothing.',
      answer: (watch) => lines([`Watch ${watch.id} is cancelled.`, watchLine(watch)], watch),
    },
  }),
  defineOperation({
    id: 'watch-run',
    scope: 'oms:write',
    bucket: 'commands',
    input: IdInput,
    output: Execution,
    errors: ['invalid_input', 'not_found', 'conflict'],
    effects: WRITE,
    run: (ctx, { id }) => runWatch(ctx, id),
    rest: {
      method: 'post',
      path: '/oms/watches/run',
      operationId: 'runWatch',
      summary: 'Execute a watch now and answer its execution record',
      description: 'Charged like any execution; the schedule does not move. 409 when the watch is capped or cancelled.',
      input: { from: 'query' },
      answer: { kind: 'json', status: 200, description: 'The execution' },
    },
    mcp: {
      answersOutput: true,
      title: 'Run a research watch now',
      description:
        'Executes a watch now and answers its execution record once done (charged like any execution; the schedule does not move). ' +
        'Refused (conflict) when the watch is capped or cancelled.',
      answer: (execution, { id }) => lines([`Watch ${id} executed:`, executionLine(execution)], execution),
    },
  }),
];
