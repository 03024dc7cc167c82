/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { DomainError } from '../../ground/errors.ts';
import { coreContextFor } from '../../operations/account.ts';
import { auditShortcut } from '../../operations/audit-shortcut.ts';
import { getRun, listRuns, type RunView } from '../../operations/runs.ts';
import { ErrorAlert, NextPage, when } from '../components.tsx';
import type { DashboardEnv } from '../env.ts';
import { readForm } from '../form.ts';
import { renderMarkdown } from '../markdown.ts';
import { accountContext, refusedWith } from '../status.ts';

/**
 * Runs (issue 14, part 4): the organization's asynchronous runs (gtm-audit and audit) through
 * operations/runs.ts, each opening its report rendered from markdown (markdown.ts, safe for
 * untrusted text), and a button that starts the organization audit (operations/audit-shortcut.ts,
 * the operation behind POST /api/v1/audit). A running run's page reloads itself every few seconds.
 */
export const runs = new Hono<DashboardEnv>();

type RunSummary = Awaited<ReturnType<typeof listRuns>>['runs'][number];

const PATH = '/dashboard/runs';
const PAGE_SIZE = 25;
/** How often a running run's page reloads itself (the API's Retry-After is 2 s; people need less). */
export const RUN_REFRESH_SECONDS = 3;

function Progress({ done, total, label }: { done: number; total: number; label: string }) {
  return (
    <progress max={total} value={done} aria-label={label}>
      {`${done} of ${total}`}
    </progress>
  );
}

function RunTable({ list }: { list: RunSummary[] }) {
  if (list.length === 0) return <p>No runs yet. Start an audit below, or a gtm-audit through the API or MCP.</p>;
  return (
    <table>
      <caption class="muted">Your organization's runs, newest first.</caption>
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Kind</th>
          <th scope="col">Status</th>
          <th scope="col">Started</th>
          <th scope="col">Finished</th>
        </tr>
      </thead>
      <tbody>
        {list.map((run) => (
          <tr>
            <td>
              <a href={`${PATH}/${run.id}`}>{run.target}</a>
            </td>
            <td>{run.kind}</td>
            <td>
              {run.status === 'running' ? (
                <>
                  running, step {Math.min(run.stepsDone + 1, run.stepsTotal)} of {run.stepsTotal}{' '}
                  <Progress done={run.stepsDone} total={run.stepsTotal} label={`Progress of ${run.kind} for ${run.target}`} />
                </>
              ) : (
                run.status
              )}
            </td>
            <td>{when(run.createdAt)}</td>
            <td>{when(run.finishedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RunsPage({ list, nextCursor, error }: { list: RunSummary[]; nextCursor: string | null; error?: string }) {
  return (
    <>
      <ErrorAlert message={error} />
      <section aria-labelledby="start-title">
        <h2 id="start-title">Audit your organization</h2>
        <p>The audit checks your sales profile, your data and your setup, and writes a report with fixes. It runs in the background.</p>
        <form method="post" action={`${PATH}/audit`}>
          <button type="submit">Start an audit</button>
        </form>
      </section>
      <h2>Runs</h2>
      <RunTable list={list} />
      <NextPage path={PATH} cursor={nextCursor} label="Older runs" />
    </>
  );
}

async function listPage(c: Context<DashboardEnv>, error?: string) {
  const ctx = coreContextFor(accountContext(c));
  const page = await listRuns(ctx, PAGE_SIZE, c.req.query('cursor') || undefined);
  return c.render(<RunsPage list={page.runs} nextCursor={page.nextCursor} error={error} />, { title: 'Runs' });
}

runs.get('/', (c) => listPage(c));

runs.post('/audit', async (c) => {
  await readForm(c);
  try {
    const { started } = await auditShortcut(coreContextFor(accountContext(c)), {}, {});
    if (started.mode !== 'async') throw new Error('the audit answered synchronously');
    return c.redirect(`${PATH}/${started.run.id}`, 303);
  } catch (error) {
    // 428 (the sales profile is not finished) and 429 (three runs going) are shown on the list.
    if (!(error instanceof DomainError) || error.code === 'internal') throw error;
    refusedWith(c, error);
    return listPage(c, error.message);
  }
});

function RunPage({ run }: { run: RunView }) {
  const running = run.status === 'running';
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
        <section aria-labelledby="progress-title">
          <h2 id="progress-title">Progress</h2>
          <p role="status">
            {run.markdown.trim()} <Progress done={run.stepsDone} total={run.stepsTotal} label="Progress" />
          </p>
          <p class="muted">This page reloads every {RUN_REFRESH_SECONDS} seconds until the run has finished.</p>
        </section>
      ) : (
        <article class="markdown" aria-label="Report" dangerouslySetInnerHTML={{ __html: renderMarkdown(run.markdown) }} />
      )}
    </>
  );
}

runs.get('/:id', async (c) => {
  const run = await getRun(coreContextFor(accountContext(c)), undefined, c.req.param('id'));
  const title = `${run.kind === 'audit' ? 'Audit' : 'GTM audit'} of ${run.target}`;
  return c.render(<RunPage run={run} />, { title, refreshSeconds: run.status === 'running' ? RUN_REFRESH_SECONDS : undefined });
});
