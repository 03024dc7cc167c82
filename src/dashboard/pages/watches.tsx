/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { CHANGE_KINDS, type Change } from '../../ground/schemas/changes.ts';
import { noChangeCounts, TIER_PRICE_MICROS, WATCH_TIERS, type ChangeCounts, type Claim, type CreatedWatch, type ExecutionRecord, type WatchTier, type WatchView } from '../../ground/schemas/watch.ts';
import { callOperation } from '../../operations/call.ts';
import { operationById } from '../../operations/index.ts';
import { getWatch, listWatches, listWatchExecutions } from '../../operations/watches/watches.ts';
import { ChangesByKind, plural } from '../change-view.tsx';
import { barChart, chartSentence, MAX_BARS, type Bar, type BarChartOptions } from '../charts.ts';
import { dollars, ExternalLink, Field, NextPage, Notice, objectPath, Table, when, type Column } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { lines, readForm, text } from '../form.ts';
import { ErrorAlert, ErrorSummary, refused, type FormErrors } from '../refusal.tsx';

/**
 * Research watches (issue 14, part 5; issue 26, part 4) through operations/watches/watches.ts: the list with
 * status, schedule, next run and spend against the cap, and a form that creates a watch; a page per
 * watch with its settings, a chart of its spend against its cap, its executions with what each found
 * changed (issue 32: the company's web by kind, then the cited claims added and removed), run now,
 * and cancel after a confirmation. Create, run now and
 * cancel call the very operations of POST /api/v1/oms/watches, POST /api/v1/oms/watches/run and
 * DELETE /api/v1/oms/watches by id (watch-create, watch-run, watch-cancel) through callOperation:
 * the same rate limit, checks and work.
 */
export const watches = new Hono<SignedInEnv>();

const PATH = '/dashboard/watches';
const PAGE_SIZE = 50;
const EXECUTIONS_PAGE_SIZE = 20;

const CREATE = operationById('watch-create');
const RUN_NOW = operationById('watch-run');
const CANCEL = operationById('watch-cancel');


/** Spend against the cap: a meter (high from 80 % of the cap) and the numbers as text. */
function Spend({ watch }: { watch: WatchView }) {
  const text = `${dollars(watch.spentMicros)} of ${dollars(watch.costCapMicros)}`;
  return (
    <span class="spend">
      <meter min={0} max={watch.costCapMicros} value={watch.spentMicros} high={Math.round(watch.costCapMicros * 0.8)} optimum={0} aria-label={`Spent ${text}`}>
        {text}
      </meter>{' '}
      {text}
    </span>
  );
}

function targetLabel(watch: WatchView): string {
  return `${watch.target.type} ${watch.target.key}`;
}

const WATCH_COLUMNS: Column<WatchView>[] = [
  { header: 'Target', cell: (watch) => <a href={`${PATH}/${watch.id}`}>{targetLabel(watch)}</a> },
  { header: 'Status', cell: (watch) => watch.status },
  { header: 'Schedule', cell: (watch) => `every ${watch.frequency}, ${watch.tier}` },
  { header: 'Next run', cell: (watch) => (watch.status === 'cancelled' ? '—' : when(watch.nextRunAt)) },
  { header: 'Spend against cap', cell: (watch) => <Spend watch={watch} /> },
  {
    header: 'Executions',
    cell: (watch) => (
      <a href={`${PATH}/${watch.id}`} aria-label={`${watch.executions} execution${watch.executions === 1 ? '' : 's'} of the watch of ${targetLabel(watch)}`}>
        {watch.executions}
      </a>
    ),
  },
];

function WatchTable({ list }: { list: WatchView[] }) {
  return (
    <Table
      rows={list}
      columns={WATCH_COLUMNS}
      caption="Your organization's watches, newest first."
      empty={<p>No watches yet. Create one with the form above, POST /api/v1/oms/watches or the MCP tool watch-create.</p>}
    />
  );
}

/** The create form's fields, as the person typed them (shown again after a refusal). */
interface WatchValues {
  company: string;
  frequency: string;
  tier: string;
  costCapMicros: string;
  include: string;
  exclude: string;
  webhook: string;
  /** The watch's ignore patterns, one a line. */
  ignore: string;
  /** The change kinds the webhook is sent for, comma- or space-separated. */
  kinds: string;
}

/** Form fields by the paths of the operation's refusals (errorsByField matches `target.key` to `target`). */
const CREATE_FIELDS = ['target', 'frequency', 'tier', 'costCapMicros', 'sourcePolicy.include', 'sourcePolicy.exclude', 'ignore', 'webhook.url', 'webhook.kinds'] as const;

const DEFAULT_VALUES: WatchValues = { company: '', frequency: '1d', tier: 'lite', costCapMicros: '90000', include: '', exclude: '', webhook: '', ignore: '', kinds: '' };

/** What a cap pays for, in words: the price per execution of each tier and the executions the cap buys. */
function capNote(values: WatchValues): string {
  const prices = WATCH_TIERS.map((tier) => `${tier} ${dollars(TIER_PRICE_MICROS[tier])}`).join(', ');
  const cap = /^\d{1,9}$/.test(values.costCapMicros.trim()) ? Number(values.costCapMicros.trim()) : null;
  const tier = (WATCH_TIERS as readonly string[]).includes(values.tier) ? (values.tier as WatchTier) : null;
  const pays = cap !== null && tier ? ` A cap of ${cap} micros (${dollars(cap)}) pays for ${Math.floor(cap / TIER_PRICE_MICROS[tier])} ${tier} execution(s).` : '';
  return `In micros (millionths of a dollar); the watch stops for good when the next execution would pass it. Each execution costs ${prices}.${pays}`;
}

/** The create form: a company of your data, how often, the tier, the cap, the source policy and an optional webhook. */
function WatchForm({ values, errors }: { values: WatchValues; errors?: FormErrors }) {
  const tierError = errors?.fields.tier;
  return (
    <section aria-labelledby="create-title">
      <h2 id="create-title">Create a watch</h2>
      <p>Its first execution runs at once; each one stores a brief about the company and updates its properties.</p>
      <ErrorSummary errors={errors} />
      <form method="post" action={PATH} novalidate>
        <Field name="target" label="Company domain" hint="A company's domain, such as globex.com: one not in your data yet is created, and its site is read." value={values.company} errors={errors} maxlength={253} />
        <Field name="frequency" label="Frequency" hint="A whole number and a unit, h, d or w, from 1h to 30d, such as 6h, 1d or 2w." value={values.frequency} errors={errors} maxlength={10} />
        <fieldset aria-describedby={tierError ? 'tier-error' : undefined}>
          <legend>Tier</legend>
          {tierError ? (
            <p class="error" id="tier-error">
              {tierError}
            </p>
          ) : null}
          {WATCH_TIERS.map((tier) => (
            <div>
              <input type="radio" name="tier" value={tier} id={`tier-${tier}`} checked={values.tier === tier} />{' '}
              <label for={`tier-${tier}`}>
                {tier}, {dollars(TIER_PRICE_MICROS[tier])} per execution
              </label>
            </div>
          ))}
        </fieldset>
        <Field name="costCapMicros" label="Cost cap (micros)" hint={capNote(values)} value={values.costCapMicros} errors={errors} maxlength={12} />
        <Field name="sourcePolicy.include" label="Only sources from (optional)" hint="Bare domains, one a line or comma-separated; empty: any domain." value={values.include} errors={errors} multiline rows={2} />
        <Field name="sourcePolicy.exclude" label="Never sources from (optional)" hint="Bare domains, one a line or comma-separated." value={values.exclude} errors={errors} multiline rows={2} />
        <Field
          name="ignore"
          label="Never report (optional)"
          hint="Regular expressions, one a line, for text that changes and is no news (dates, counters and quotes are left out already), such as \d+ open tickets."
          value={values.ignore}
          errors={errors}
          multiline
          rows={2}
        />
        <Field name="webhook.url" label="Webhook URL (optional)" hint="An https URL on a public host; each execution record is POSTed there, signed." value={values.webhook} errors={errors} maxlength={2048} />
        <Field
          name="webhook.kinds"
          label="Send only these kinds of change (optional)"
          hint={`Comma-separated, among ${CHANGE_KINDS.join(', ')}; empty: every execution is sent.`}
          value={values.kinds}
          errors={errors}
          maxlength={200}
        />
        <button type="submit">Create watch</button>
      </form>
    </section>
  );
}

async function listPage(c: Context<SignedInEnv>, form: { values: WatchValues; errors?: FormErrors } = { values: DEFAULT_VALUES }) {
  const page = await listWatches(c.var.core, PAGE_SIZE, c.req.query('cursor') || undefined, {});
  return c.render(
    <>
      <p>A watch researches its target on a schedule and keeps its properties fresh, and stops for good at its cost cap.</p>
      <WatchForm values={form.values} errors={form.errors} />
      <h2>Your watches</h2>
      <WatchTable list={page.watches} />
      <NextPage path={PATH} cursor={page.nextCursor} label="Older watches" />
    </>,
    { title: 'Watches' },
  );
}

watches.get('/', (c) => listPage(c));

/** The operation's input from the form: empty optional fields left out, the cap a number when it is one (else the schema says why). */
function createInput(values: WatchValues): Record<string, unknown> {
  const cap = values.costCapMicros.trim();
  const include = lines({ v: values.include }, 'v');
  const exclude = lines({ v: values.exclude }, 'v');
  // A pattern may hold a comma: one a line.
  const ignore = values.ignore.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const kinds = values.kinds.split(/[\s,]+/).filter(Boolean);
  return {
    target: { type: 'company', key: values.company },
    frequency: values.frequency,
    ...(values.tier ? { tier: values.tier } : {}),
    ...(cap ? { costCapMicros: /^-?\d+(\.\d+)?$/.test(cap) ? Number(cap) : cap } : {}),
    ...(include.length || exclude.length ? { sourcePolicy: { include, exclude } } : {}),
    ...(ignore.length ? { ignore } : {}),
    ...(values.webhook.trim() ? { webhook: { url: values.webhook.trim(), ...(kinds.length ? { kinds } : {}) } } : {}),
  };
}

/** Creates a watch through the operation of POST /api/v1/oms/watches; a refusal is shown beside the fields and writes nothing. */
watches.post('/', async (c) => {
  const form = await readForm(c);
  const values: WatchValues = {
    company: text(form, 'target').trim(),
    frequency: text(form, 'frequency').trim(),
    tier: text(form, 'tier'),
    costCapMicros: text(form, 'costCapMicros'),
    include: text(form, 'sourcePolicy.include'),
    exclude: text(form, 'sourcePolicy.exclude'),
    webhook: text(form, 'webhook.url'),
    ignore: text(form, 'ignore'),
    kinds: text(form, 'webhook.kinds'),
  };
  let watch: CreatedWatch;
  try {
    watch = (await callOperation(c.var.core, CREATE, createInput(values), 'watch')).output as CreatedWatch;
  } catch (error) {
    const errors = refused(c, error, { fields: CREATE_FIELDS });
    return listPage(c, { values, errors });
  }
  // The webhook secret is shown once, by the create that made it: on this answer, never after a redirect.
  if (watch.webhookSecret) return c.render(<CreatedWithSecret watch={watch} secret={watch.webhookSecret} />, { title: 'Watch created' });
  return c.redirect(`${PATH}/${watch.id}?done=created`, 303);
});

function CreatedWithSecret({ watch, secret }: { watch: WatchView; secret: string }) {
  return (
    <>
      <Notice>Created the watch of {targetLabel(watch)}; its first execution runs now.</Notice>
      <p>
        Its webhook deliveries are signed with your organization's secret, shown this once: store it now. <code>{secret}</code>
      </p>
      <p>
        <a href={`${PATH}/${watch.id}`}>Open the watch</a>
      </p>
    </>
  );
}

/** What changed in the claims an execution's brief cites, since the execution before (its brief lists them). */
function claimsChange({ findings }: ExecutionRecord): string {
  if (!findings) return '—';
  if (findings.since === null) return 'first reading';
  if (findings.added.length === 0 && findings.removed.length === 0) return 'no change';
  return `${findings.added.length} added, ${findings.removed.length} removed`;
}

/** An execution's changes on the company's web and their counts; none on records made before them. */
function webChangesOf({ findings }: ExecutionRecord): { changes: Change[]; counts: ChangeCounts } {
  return { changes: findings?.changes ?? [], counts: findings?.changeCounts ?? noChangeCounts() };
}

/** What the company changed on its web by an execution, in a few words: `3 (pricing 1, hiring 2)`, `none`, `first reading`. */
function webChange(execution: ExecutionRecord): string {
  if (!execution.findings) return '—';
  if (execution.findings.since === null) return 'first reading';
  const { changes, counts } = webChangesOf(execution);
  const total = Math.max(counts.total, changes.length);
  if (total === 0) return counts.flips ? `none (${plural(counts.flips, 'flip')})` : 'none';
  const kinds = CHANGE_KINDS.map((kind) => ({ kind, n: counts.byKind[kind] ?? changes.filter((c) => c.kind === kind).length })).filter(({ n }) => n > 0);
  return `${total} (${kinds.map(({ kind, n }) => `${kind} ${n}`).join(', ')})`;
}

const EXECUTION_COLUMNS: Column<ExecutionRecord>[] = [
  { header: 'Started', cell: (execution) => when(execution.startedAt) },
  { header: 'Outcome', cell: (execution) => (execution.outcome === 'failed' ? `failed: ${execution.error ?? 'unknown error'}` : 'succeeded') },
  { header: 'Cost', cell: (execution) => dollars(execution.costMicros) },
  { header: 'Brief', cell: (execution) => (execution.briefKey ? <a href={objectPath('brief', execution.briefKey)}>{execution.briefKey}</a> : '—') },
  {
    header: 'Properties updated',
    cell: (execution) =>
      execution.changes.length === 0 ? (
        'none'
      ) : (
        <ul class="plain">
          {execution.changes.map((change) => (
            <li>
              {change.property}: {JSON.stringify(change.from)} → {JSON.stringify(change.to)}
            </li>
          ))}
        </ul>
      ),
  },
  { header: 'Changes on the web', cell: webChange },
  { header: 'Cited claims', cell: claimsChange },
];

function ExecutionTable({ list }: { list: ExecutionRecord[] }) {
  return <Table rows={list} columns={EXECUTION_COLUMNS} caption="Executions, newest first." empty={<p>No executions yet.</p>} />;
}

function WatchFacts({ watch }: { watch: WatchView }) {
  return (
    <dl class="facts">
      <dt>Target</dt>
      <dd>
        <a href={objectPath(watch.target.type, watch.target.key)}>{targetLabel(watch)}</a>
      </dd>
      <dt>Query</dt>
      <dd>{watch.query ?? '—'}</dd>
      <dt>Status</dt>
      <dd>{watch.status}</dd>
      <dt>Schedule</dt>
      <dd>
        every {watch.frequency}, tier {watch.tier}
      </dd>
      <dt>Last run</dt>
      <dd>{when(watch.lastRunAt)}</dd>
      <dt>Next run</dt>
      <dd>{watch.status === 'cancelled' ? '—' : when(watch.nextRunAt)}</dd>
      <dt>Spend against cap</dt>
      <dd>
        <Spend watch={watch} />
      </dd>
      <dt>Sources</dt>
      <dd>
        {watch.sourcePolicy.include.length ? `only ${watch.sourcePolicy.include.join(', ')}` : 'any'}
        {watch.sourcePolicy.exclude.length ? `; never ${watch.sourcePolicy.exclude.join(', ')}` : ''}
      </dd>
      {watch.ignore.length ? (
        <>
          <dt>Never reports</dt>
          <dd>
            {watch.ignore.map((pattern) => (
              <code>{pattern}</code>
            ))}
          </dd>
        </>
      ) : null}
      <dt>Webhook</dt>
      <dd>
        {watch.webhook ? watch.webhook.url : 'none'}
        {watch.webhook?.kinds.length ? ` (only executions with ${watch.webhook.kinds.join(', ')} changes)` : ''}
      </dd>
      <dt>Created</dt>
      <dd>{when(watch.createdAt)}</dd>
      {watch.cancelledAt ? (
        <>
          <dt>Cancelled</dt>
          <dd>{when(watch.cancelledAt)}</dd>
        </>
      ) : null}
      <dt>Watch id</dt>
      <dd>
        <code>{watch.id}</code>
      </dd>
    </dl>
  );
}

/** The cited claims of one list (added or removed), each with a link to its source. */
function ClaimList({ claims }: { claims: Claim[] }) {
  return (
    <ul>
      {claims.map((claim) => (
        <li>
          <q>{claim.text}</q> (<ExternalLink href={claim.url} />)
        </li>
      ))}
    </ul>
  );
}

/** Whether an execution found anything: a change on the web (or a flip) or a cited claim added or removed. */
function foundSomething(execution: ExecutionRecord): boolean {
  const findings = execution.findings;
  if (!findings || findings.since === null) return false;
  const { changes, counts } = webChangesOf(execution);
  return changes.length > 0 || counts.total > 0 || counts.flips > 0 || findings.added.length > 0 || findings.removed.length > 0;
}

/**
 * For each execution that found something: what the company changed on its web, grouped by kind
 * (change-view.tsx), then, smaller, the claims its brief cites that were added and removed.
 */
function Findings({ list }: { list: ExecutionRecord[] }) {
  const found = list.filter(foundSomething);
  if (found.length === 0) return null;
  return (
    <section aria-labelledby="findings-title">
      <h2 id="findings-title">What changed</h2>
      {found.map((execution) => {
        const findings = execution.findings!;
        const { changes, counts } = webChangesOf(execution);
        const total = Math.max(counts.total, changes.length);
        const claims = findings.added.length > 0 || findings.removed.length > 0;
        return (
          <section aria-label={`What the execution of ${when(execution.startedAt)} found changed`}>
            <h3>
              Execution of {when(execution.startedAt)}: {total ? plural(total, 'change') : 'no change'} on the web{claims ? `; cited claims ${claimsChange(execution)}` : ''}
            </h3>
            <ChangesByKind changes={changes} counts={counts} />
            {claims ? (
              <div class="hint">
                <h4>Cited claims</h4>
                {findings.added.length ? (
                  <>
                    <h5>Added</h5>
                    <ClaimList claims={findings.added} />
                  </>
                ) : null}
                {findings.removed.length ? (
                  <>
                    <h5>Removed</h5>
                    <ClaimList claims={findings.removed} />
                  </>
                ) : null}
              </div>
            ) : null}
          </section>
        );
      })}
    </section>
  );
}

/**
 * The watch's spend after each of its latest executions (oldest first), against its cap: the
 * watch's spend now, minus what the executions after each one cost. At most MAX_BARS executions.
 */
export function spendBars(watch: WatchView, newestFirst: readonly ExecutionRecord[]): Bar[] {
  const bars: Bar[] = [];
  let after = watch.spentMicros;
  for (const execution of newestFirst.slice(0, MAX_BARS)) {
    // To the second: two executions in one minute (a run now after the first) keep apart labels.
    bars.push({ label: `${execution.startedAt.slice(0, 10)} ${execution.startedAt.slice(11, 19)} UTC`, value: after });
    after -= execution.costMicros;
  }
  return bars.reverse();
}

/** The spend chart (charts.ts): a bar per execution, the cap as a marker line, and its text equivalent. */
function SpendChart({ watch, newestFirst, more }: { watch: WatchView; newestFirst: ExecutionRecord[]; more: boolean }) {
  if (newestFirst.length === 0) return null;
  const cap = dollars(watch.costCapMicros);
  const options: BarChartOptions = {
    title: `Spend of the watch of ${targetLabel(watch)} after each execution, against its cap of ${cap}`,
    max: watch.costCapMicros,
    format: (micros) => `${dollars(micros)} of ${cap}`,
    marker: { value: watch.costCapMicros, label: `cap ${cap}` },
  };
  const bars = spendBars(watch, newestFirst);
  const which = more || watch.executions > bars.length ? `the latest ${bars.length} executions` : 'each execution';
  return (
    <section aria-labelledby="spend-title">
      <h2 id="spend-title">Spend against the cap</h2>
      <figure class="chart">
        <div dangerouslySetInnerHTML={{ __html: barChart(bars, options) }} />
        <figcaption>
          Spend after {which}, oldest first, against the cap of {cap}: {chartSentence(bars, options)}
        </figcaption>
      </figure>
    </section>
  );
}

const DONE: Record<string, string> = {
  cancelled: 'Cancelled. This watch never executes again.',
  created: 'Created. Its first execution runs now; reload to see it.',
  ran: 'Executed now; its record is the newest below.',
};

async function detailPage(c: Context<SignedInEnv>, error?: string) {
  const ctx = c.var.core;
  const id = c.req.param('id')!;
  const watch = await getWatch(ctx, id);
  const page = await listWatchExecutions(ctx, id, EXECUTIONS_PAGE_SIZE, c.req.query('cursor') || undefined);
  const latest = await listWatchExecutions(ctx, id, MAX_BARS);
  const done = DONE[c.req.query('done') ?? ''];
  const live = watch.status !== 'cancelled' && watch.status !== 'capped';
  return c.render(
    <>
      {done && !error ? <Notice>{done}</Notice> : null}
      <ErrorAlert message={error} />
      <p>
        <a href={PATH}>All watches</a>
      </p>
      <WatchFacts watch={watch} />
      {watch.status === 'cancelled' ? null : (
        <div class="actions">
          {live ? (
            <form method="post" action={`${PATH}/${watch.id}/run`}>
              <button type="submit">Run now ({dollars(TIER_PRICE_MICROS[watch.tier])})</button>
            </form>
          ) : null}
          <a class="button danger" href={`${PATH}/${watch.id}/cancel`}>
            Cancel this watch
          </a>
        </div>
      )}
      <SpendChart watch={watch} newestFirst={latest.executions} more={latest.nextCursor !== null} />
      <h2>Executions ({watch.executions})</h2>
      <ExecutionTable list={page.executions} />
      <NextPage path={`${PATH}/${watch.id}`} cursor={page.nextCursor} label="Older executions" />
      <Findings list={page.executions} />
    </>,
    { title: `Watch of ${targetLabel(watch)}` },
  );
}

watches.get('/:id', (c) => detailPage(c));

/** Executes the watch now through the operation of POST /api/v1/oms/watches/run; a refusal (capped, cancelled, 429) is shown on its page. */
watches.post('/:id/run', async (c) => {
  await readForm(c);
  const id = c.req.param('id');
  try {
    await callOperation(c.var.core, RUN_NOW, { id }, 'watch');
  } catch (error) {
    // Another organization's watch goes to the error page (404).
    const { summary } = refused(c, error, { passOn: ['not_found'] });
    return detailPage(c, summary);
  }
  return c.redirect(`${PATH}/${id}?done=ran`, 303);
});

watches.get('/:id/cancel', async (c) => {
  const watch = await getWatch(c.var.core, c.req.param('id'));
  if (watch.status === 'cancelled') return c.redirect(`${PATH}/${watch.id}`, 303);
  return c.render(
    <>
      <p>
        Cancel the watch of {targetLabel(watch)} (every {watch.frequency}, {dollars(watch.spentMicros)} of {dollars(watch.costCapMicros)} spent)? It never executes
        again, and this cannot be undone; its executions and briefs are kept.
      </p>
      <form method="post" action={`${PATH}/${watch.id}/cancel`} class="actions">
        <button type="submit" class="danger">
          Cancel watch
        </button>
        <a class="button secondary" href={`${PATH}/${watch.id}`}>
          Keep it
        </a>
      </form>
    </>,
    { title: 'Cancel watch' },
  );
});

/** Cancels through the operation of DELETE /api/v1/oms/watches (idempotent). */
watches.post('/:id/cancel', async (c) => {
  await readForm(c);
  const watch = (await callOperation(c.var.core, CANCEL, { id: c.req.param('id') }, 'watch')).output as WatchView;
  return c.redirect(`${PATH}/${watch.id}?done=cancelled`, 303);
});
