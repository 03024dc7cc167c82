/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import type { ExecutionRecord, WatchView } from '../../ground/schemas/watch.ts';
import { coreContextFor } from '../../operations/account.ts';
import { cancelWatch, getWatch, listWatches, listWatchExecutions } from '../../operations/watches.ts';
import { dollars, NextPage, Notice, objectPath, when } from '../components.tsx';
import type { DashboardEnv } from '../env.ts';
import { readForm } from '../form.ts';
import { accountContext } from '../status.ts';

/**
 * Research watches (issue 14, part 5) through operations/watches.ts: the list with status,
 * schedule, next run and spend against the cap, a page per watch with its executions, and cancel
 * after a confirmation. Watches are created through the API or MCP (they need a target and a cap).
 */
export const watches = new Hono<DashboardEnv>();

const PATH = '/dashboard/watches';
const PAGE_SIZE = 50;
const EXECUTIONS_PAGE_SIZE = 20;

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

function WatchTable({ list }: { list: WatchView[] }) {
  if (list.length === 0) return <p>No watches yet. Create one with POST /api/v1/oms/watches or the MCP tool watch-create.</p>;
  return (
    <table>
      <caption class="muted">Your organization's watches, newest first.</caption>
      <thead>
        <tr>
          <th scope="col">Target</th>
          <th scope="col">Status</th>
          <th scope="col">Schedule</th>
          <th scope="col">Next run</th>
          <th scope="col">Spend against cap</th>
          <th scope="col">Executions</th>
        </tr>
      </thead>
      <tbody>
        {list.map((watch) => (
          <tr>
            <td>
              <a href={`${PATH}/${watch.id}`}>{targetLabel(watch)}</a>
            </td>
            <td>{watch.status}</td>
            <td>
              every {watch.frequency}, {watch.tier}
            </td>
            <td>{watch.status === 'cancelled' ? '—' : when(watch.nextRunAt)}</td>
            <td>
              <Spend watch={watch} />
            </td>
            <td>
              <a href={`${PATH}/${watch.id}`} aria-label={`${watch.executions} execution${watch.executions === 1 ? '' : 's'} of the watch of ${targetLabel(watch)}`}>
                {watch.executions}
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

watches.get('/', async (c) => {
  const ctx = coreContextFor(accountContext(c));
  const page = await listWatches(ctx, PAGE_SIZE, c.req.query('cursor') || undefined, {});
  return c.render(
    <>
      <p>A watch researches its target on a schedule and keeps its properties fresh, and stops for good at its cost cap.</p>
      <WatchTable list={page.watches} />
      <NextPage path={PATH} cursor={page.nextCursor} label="Older watches" />
    </>,
    { title: 'Watches' },
  );
});

/** What changed in the claims an execution's brief cites, since the execution before (its brief lists them). */
function claimsChange({ findings }: ExecutionRecord): string {
  if (!findings) return '—';
  if (findings.since === null) return 'first reading';
  if (findings.added.length === 0 && findings.removed.length === 0) return 'no change';
  return `${findings.added.length} added, ${findings.removed.length} removed`;
}

function ExecutionTable({ list }: { list: ExecutionRecord[] }) {
  if (list.length === 0) return <p>No executions yet.</p>;
  return (
    <table>
      <caption class="muted">Executions, newest first.</caption>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Outcome</th>
          <th scope="col">Cost</th>
          <th scope="col">Brief</th>
          <th scope="col">Changes</th>
          <th scope="col">Cited claims</th>
        </tr>
      </thead>
      <tbody>
        {list.map((execution) => (
          <tr>
            <td>{when(execution.startedAt)}</td>
            <td>{execution.outcome === 'failed' ? `failed: ${execution.error ?? 'unknown error'}` : 'succeeded'}</td>
            <td>{dollars(execution.costMicros)}</td>
            <td>{execution.briefKey ? <a href={objectPath('brief', execution.briefKey)}>{execution.briefKey}</a> : '—'}</td>
            <td>
              {execution.changes.length === 0 ? (
                'none'
              ) : (
                <ul class="plain">
                  {execution.changes.map((change) => (
                    <li>
                      {change.property}: {JSON.stringify(change.from)} → {JSON.stringify(change.to)}
                    </li>
                  ))}
                </ul>
              )}
            </td>
            <td>{claimsChange(execution)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
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

watches.get('/:id', async (c) => {
  const ctx = coreContextFor(accountContext(c));
  const id = c.req.param('id');
  const watch = await getWatch(ctx, id);
  const page = await listWatchExecutions(ctx, id, EXECUTIONS_PAGE_SIZE, c.req.query('cursor') || undefined);
  return c.render(
    <>
      {c.req.query('done') === 'cancelled' ? <Notice>Cancelled. This watch never executes again.</Notice> : null}
      <p>
        <a href={PATH}>All watches</a>
      </p>
      <WatchFacts watch={watch} />
      {watch.status === 'cancelled' ? null : (
        <p>
          <a class="button danger" href={`${PATH}/${watch.id}/cancel`}>
            Cancel this watch
          </a>
        </p>
      )}
      <h2>Executions ({watch.executions})</h2>
      <ExecutionTable list={page.executions} />
      <NextPage path={`${PATH}/${watch.id}`} cursor={page.nextCursor} label="Older executions" />
    </>,
    { title: `Watch of ${targetLabel(watch)}` },
  );
});

watches.get('/:id/cancel', async (c) => {
  const watch = await getWatch(coreContextFor(accountContext(c)), c.req.param('id'));
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

watches.post('/:id/cancel', async (c) => {
  await readForm(c);
  const watch = await cancelWatch(coreContextFor(accountContext(c)), c.req.param('id'));
  return c.redirect(`${PATH}/${watch.id}?done=cancelled`, 303);
});
