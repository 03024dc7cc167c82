/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { GTM_AUDIT_AREAS, AREAS } from '../../runs/gtm-audit.ts';
import { callOperation } from '../../operations/call.ts';
import type { CommandResult } from '../../operations/definition.ts';
import { operationById } from '../../operations/index.ts';
import { cancelRun, getRun, getRunWithScorecard, listRuns, UNSCORED, type RunView, type ScoreLine } from '../../operations/runs/runs.ts';
import { barChart, chartSentence, type BarChartOptions } from '../charts.ts';
import { Field, NextPage, Table, when, type Column } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { all, readForm, text } from '../form.ts';
import { renderMarkdown } from '../markdown.ts';
import { ErrorAlert, ErrorSummary, refused, type FormErrors } from '../refusal.tsx';

/**
 * Runs (issue 14, part 4; issue 26, part 3): the organization's asynchronous runs (gtm-audit and
 * audit) through operations/runs/runs.ts. Two forms start them through the operations the API calls,
 * after the same `commands` rate limit (`gtm-audit` with a company and focus areas, as
 * POST /api/v1/commands/gtm-audit takes them; the organization audit as POST /api/v1/audit). A running run's page shows a `<progress>` bar
 * of steps done of steps in all and a cancel button; with scripts on, dashboard.js polls
 * `GET /dashboard/runs/{id}/progress` (JSON) and reloads the page once the run has finished,
 * without scripts a reload link does. A finished run shows its report rendered from markdown
 * (markdown.ts) and its scorecard drawn as an SVG bar chart (charts.ts) with a text equivalent.
 */
export const runs = new Hono<SignedInEnv>();

type RunSummary = Awaited<ReturnType<typeof listRuns>>['runs'][number];

const PATH = '/dashboard/runs';
const PAGE_SIZE = 25;
const GTM_FIELDS = ['company', 'focus'] as const;
const GTM_AUDIT = operationById('gtm-audit');
const START_AUDIT = operationById('start-audit');

function Progress({ done, total, label }: { done: number; total: number; label: string }) {
  return (
    <progress max={total} value={done} aria-label={label}>
      {`${done} of ${total}`}
    </progress>
  );
}

const RUN_COLUMNS: Column<RunSummary>[] = [
  { header: 'Run', cell: (run) => <a href={`${PATH}/${run.id}`}>{run.target}</a> },
  { header: 'Kind', cell: (run) => run.kind },
  {
    header: 'Status',
    cell: (run) =>
      run.status === 'running' ? (
        <>
          running, step {Math.min(run.stepsDone + 1, run.stepsTotal)} of {run.stepsTotal}{' '}
          <Progress done={run.stepsDone} total={run.stepsTotal} label={`Progress of ${run.kind} for ${run.target}`} />
        </>
      ) : (
        run.status
      ),
  },
  { header: 'Started', cell: (run) => when(run.createdAt) },
  { header: 'Finished', cell: (run) => when(run.finishedAt) },
];

function RunTable({ list }: { list: RunSummary[] }) {
  return <Table rows={list} columns={RUN_COLUMNS} caption="Your organization's runs, newest first." empty={<p>No runs yet. Start a GTM audit or an audit above.</p>} />;
}

interface GtmValues {
  company: string;
  focus: string[];
}

/** The gtm-audit form: a company (default: your own) and the areas to audit (none checked: every area). */
function GtmAuditForm({ values, errors }: { values?: GtmValues; errors?: FormErrors }) {
  const chosen = values?.focus ?? [...GTM_AUDIT_AREAS];
  const focusError = errors?.fields.focus;
  return (
    <section aria-labelledby="gtm-title">
      <h2 id="gtm-title">Audit a company's go-to-market</h2>
      <p>Scores positioning, ideal customers, pricing, channels, competition and content from the sources in your knowledge base, each point cited. It runs in the background.</p>
      <ErrorSummary errors={errors} />
      <form method="post" action={`${PATH}/gtm-audit`} novalidate>
        <Field name="company" label="Company domain" hint="A domain such as acme.com; leave empty to audit your own company." value={values?.company} errors={errors} maxlength={253} />
        <fieldset aria-describedby={focusError ? 'focus-error' : undefined}>
          <legend>Areas to audit</legend>
          {focusError ? (
            <p class="error" id="focus-error">
              {focusError}
            </p>
          ) : null}
          {GTM_AUDIT_AREAS.map((area) => (
            <div>
              <input type="checkbox" name="focus" value={area} id={`focus-${area}`} checked={chosen.includes(area)} />{' '}
              <label for={`focus-${area}`}>{AREAS[area].title}</label>
            </div>
          ))}
          <p class="hint">None checked: every area.</p>
        </fieldset>
        <button type="submit">Start a GTM audit</button>
      </form>
    </section>
  );
}

function RunsPage(props: { list: RunSummary[]; nextCursor: string | null; error?: string; gtm?: { values: GtmValues; errors: FormErrors } }) {
  return (
    <>
      <ErrorAlert message={props.error} />
      <GtmAuditForm values={props.gtm?.values} errors={props.gtm?.errors} />
      <section aria-labelledby="start-title">
        <h2 id="start-title">Audit your organization</h2>
        <p>The audit checks your sales profile, your data and your setup, and writes a report with fixes. It runs in the background.</p>
        <form method="post" action={`${PATH}/audit`}>
          <button type="submit">Start an audit</button>
        </form>
      </section>
      <h2>Runs</h2>
      <RunTable list={props.list} />
      <NextPage path={PATH} cursor={props.nextCursor} label="Older runs" />
    </>
  );
}

async function listPage(c: Context<SignedInEnv>, options: { error?: string; gtm?: { values: GtmValues; errors: FormErrors } } = {}) {
  const page = await listRuns(c.var.core, PAGE_SIZE, c.req.query('cursor') || undefined);
  return c.render(<RunsPage list={page.runs} nextCursor={page.nextCursor} {...options} />, { title: 'Runs' });
}

runs.get('/', (c) => listPage(c));

runs.post('/audit', async (c) => {
  await readForm(c);
  try {
    // The operation of POST /api/v1/audit, without waiting.
    const { started } = (await callOperation(c.var.core, START_AUDIT, {}, 'request body')).output as { started: CommandResult };
    if (started.mode !== 'async') throw new Error('the audit answered synchronously');
    return c.redirect(`${PATH}/${started.run.id}`, 303);
  } catch (error) {
    // 428 (the sales profile is not finished) and 429 (three runs going, or the rate limit) are shown on the list.
    const { summary } = refused(c, error);
    return listPage(c, { error: summary });
  }
});

/** Starts a gtm-audit through the operation of POST /api/v1/commands/gtm-audit (its rate limit, checks and work). */
runs.post('/gtm-audit', async (c) => {
  const form = await readForm(c);
  const values: GtmValues = { company: text(form, 'company').trim(), focus: all(form, 'focus') };
  try {
    const input = { ...(values.company ? { company: values.company } : {}), ...(values.focus.length ? { focus: values.focus } : {}) };
    const started = (await callOperation(c.var.core, GTM_AUDIT, input, 'arguments of gtm-audit')).output as CommandResult;
    if (started.mode !== 'async') throw new Error('the gtm-audit answered synchronously');
    return c.redirect(`${PATH}/${started.run.id}`, 303);
  } catch (error) {
    // 400 (a field), 428 (the sales profile is not finished) and 429 (three runs going) are shown on the form.
    const errors = refused(c, error, { fields: GTM_FIELDS });
    return listPage(c, { gtm: { values, errors } });
  }
});

/** The scorecard as a bar chart (out of 100) with its text equivalent beside it. */
function Scorecard({ run, scorecard }: { run: RunView; scorecard: ScoreLine[] }) {
  const options: BarChartOptions = {
    title: `Scores of the ${run.kind === 'audit' ? 'audit' : 'GTM audit'} of ${run.target}, out of 100`,
    max: 100,
    missing: UNSCORED[run.kind],
  };
  const bars = scorecard.map((line) => ({ label: line.title, value: line.score }));
  return (
    <section aria-labelledby="scores-title">
      <h2 id="scores-title">Scores</h2>
      <figure class="chart">
        <div dangerouslySetInnerHTML={{ __html: barChart(bars, options) }} />
        <figcaption>Scores out of 100, by area: {chartSentence(bars, options)}</figcaption>
      </figure>
    </section>
  );
}

function RunPage({ run, scorecard }: { run: RunView; scorecard: ScoreLine[] }) {
  const running = run.status === 'running';
  const self = `${PATH}/${run.id}`;
  return (
    <>
      <p>
        <a href={PATH}>All runs</a>
      </p>
      <dl class="facts">
        <dt>Kind</dt>
        <dd>{run.kind}</dd>
        <dt>Target</dt>
        <dd>{run.target}</dd>
        <dt>Status</dt>
        <dd>{run.status}</dd>
        <dt>Started</dt>
        <dd>{when(run.createdAt)}</dd>
        <dt>Finished</dt>
        <dd>{when(run.finishedAt)}</dd>
        <dt>Run id</dt>
        <dd>
          <code>{run.id}</code>
        </dd>
      </dl>
      {running ? (
        <section aria-labelledby="progress-title" class="run-progress" data-run-progress={`${self}/progress`}>
          <h2 id="progress-title">Progress</h2>
          <p role="status" data-run-line="">
            {run.markdown.trim()}
          </p>
          <p>
            <Progress done={run.stepsDone} total={run.stepsTotal} label="Steps done" />{' '}
            <span data-run-count="">{`${run.stepsDone} of ${run.stepsTotal} steps done`}</span>
          </p>
          <p class="muted">
            This page follows the run and shows the report when it is ready. If it does not (scripts off), <a href={self}>reload the page</a>.
          </p>
          <form method="post" action={`${PATH}/cancel/${run.id}`}>
            <button type="submit" class="danger">
              Cancel this run
            </button>
          </form>
        </section>
      ) : (
        <>
          {scorecard.length ? <Scorecard run={run} scorecard={scorecard} /> : null}
          <article class="markdown" aria-label="Report" dangerouslySetInnerHTML={{ __html: renderMarkdown(run.markdown) }} />
        </>
      )}
    </>
  );
}

runs.get('/:id', async (c) => {
  const { view, scorecard } = await getRunWithScorecard(c.var.core, undefined, c.req.param('id'));
  const title = `${view.kind === 'audit' ? 'Audit' : 'GTM audit'} of ${view.target}`;
  return c.render(<RunPage run={view} scorecard={scorecard} />, { title });
});

/**
 * What a running run's page polls (dashboard.js): its status, steps done of steps in all, the
 * status line and when to ask again. 404 as the page for another organization's run.
 */
runs.get('/:id/progress', async (c) => {
  const run = await getRun(c.var.core, undefined, c.req.param('id'));
  return c.json({
    id: run.id,
    kind: run.kind,
    status: run.status,
    stepsDone: run.stepsDone,
    stepsTotal: run.stepsTotal,
    line: run.status === 'running' ? run.markdown.trim() : '',
    retryAfter: run.retryAfter ?? null,
  });
});

/** Cancels a running run (DELETE /api/v1/runs/{kind}/{id}'s operation); a finished one is left as it is. */
// /cancel/:id rather than /:id/cancel: beside the static /audit, a parameter followed by more
// segments is a route set Hono's RegExpRouter cannot compile (test/app-router.test.ts).
runs.post('/cancel/:id', async (c) => {
  await readForm(c);
  const id = c.req.param('id');
  await cancelRun(c.var.core, undefined, id);
  return c.redirect(`${PATH}/${id}`, 303);
});
