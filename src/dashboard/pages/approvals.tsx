/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import type { CoreContext } from '../../ground/context.ts';
import { DomainError } from '../../ground/errors.ts';
import { parseInput } from '../../ground/validation.ts';
import { getTeam } from '../../operations/account/account-invites.ts';
import { decideActionRequest, getActionRequest, listActionRequests, type ApprovalRequestView } from '../../operations/actions/actions.ts';
import { listApiKeys } from '../../operations/account/keys.ts';
import { getOmsObject, getOmsProvenance, GetObjectInput, type ObjectView } from '../../operations/oms/oms-reads.ts';
import { NextPage, Notice, objectPath, Table, when, type Column } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { readForm } from '../form.ts';
import { ErrorAlert, refused } from '../refusal.tsx';

/**
 * Approvals (issue 14, part 6) through operations/actions/actions.ts: the pending requests, each with its
 * change shown against the object as it is now, approve or reject (a form post; the dashboard's
 * CSRF check covers it), and the decided ones under History.
 *
 * Who decides: the dashboard acts with the person's user id (`usr_...`) as its credential id, so a
 * request records `requestedBy.keyId` / `decidedBy.keyId` as that user id, and the core's rule "no
 * credential approves its own request" holds between a person and themselves. A person may approve
 * a request made with an API key of the organization (keys belong to the organization, not to a
 * person); a person's own request can only be rejected (withdrawn) by them.
 */
export const approvals = new Hono<SignedInEnv>();

const PATH = '/dashboard/approvals';
const PENDING_PAGE_SIZE = 20;
const HISTORY_PAGE_SIZE = 50;
const DECIDED = ['applied', 'failed', 'rejected', 'expired'] as const;

type Who = Map<string, string>;

/** Names for the credential ids requests carry: the organization's keys and people (`me`: the signed-in person). */
async function whoIs(ctx: CoreContext, me: string): Promise<Who> {
  const [keys, team] = await Promise.all([listApiKeys(ctx), getTeam(ctx)]);
  const names: Who = new Map();
  for (const key of keys) names.set(key.id, `API key "${key.name}" (${key.prefix})${key.revokedAt ? ', revoked' : ''}`);
  for (const member of team.members) names.set(member.userId, member.userId === me ? `you (${member.name})` : member.name);
  return names;
}

function By({ id, who }: { id: string; who: Who }) {
  return <>{who.get(id) ?? <code>{id}</code>}</>;
}

/** What a request would change, read against the current object. */
interface Change {
  request: ApprovalRequestView;
  /** The object the request changes (upsert, update, delete), or null when it does not exist (now). */
  current?: ObjectView | null;
  /** For delete_object: the links that go with the object. */
  links?: { link: string; targetType: string; targetKey: string }[];
}

interface Endpoint {
  type: string;
  key: string;
}

async function currentObject(ctx: CoreContext, type: string, key: string): Promise<ObjectView | null> {
  try {
    return await getOmsObject(ctx, parseInput(GetObjectInput, { type, key }));
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return null;
    throw error;
  }
}

async function changeOf(ctx: CoreContext, request: ApprovalRequestView): Promise<Change> {
  const params = request.params as { type?: string; key?: string };
  if (request.action === 'link' || request.action === 'unlink' || !params.type || !params.key) return { request };
  const current = await currentObject(ctx, params.type, params.key);
  if (request.action !== 'delete_object' || !current) return { request, current };
  const provenance = await getOmsProvenance(ctx, { type: current.type, key: current.key });
  return { request, current, links: provenance.relationships };
}

/** Whether a proposed value is the current one. */
function same(before: unknown, after: unknown): boolean {
  return JSON.stringify(before) === JSON.stringify(after);
}

function show(value: unknown): string {
  return value === undefined ? '' : typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

/** An object by type and key, linked to its page (`key` is JSX's own prop, so the object's is `object`). */
function ObjectName({ object }: { object: Endpoint }) {
  return (
    <a href={objectPath(object.type, object.key)}>
      {object.type} <code>{object.key}</code>
    </a>
  );
}

/** The change as a diff: property, current value, proposed value (or what goes, or the link). */
function Diff({ change }: { change: Change }) {
  const { request, current } = change;
  const params = request.params as { type: string; key: string; properties?: Record<string, unknown>; link?: string; from?: Endpoint; to?: Endpoint };
  if (request.action === 'link' || request.action === 'unlink') {
    return (
      <p class="diff-line">
        {request.action === 'link' ? <ins>Adds</ins> : <del>Removes</del>} the link <strong>{params.link}</strong> from <ObjectName object={params.from!} /> to{' '}
        <ObjectName object={params.to!} />.
      </p>
    );
  }
  if (request.action === 'delete_object') {
    if (!current) return <p>Deletes {params.type} <code>{params.key}</code>, which no longer exists: approving it fails.</p>;
    const names = Object.keys(current.properties).sort();
    return (
      <>
        <p>
          Deletes <ObjectName object={current} /> (version {current.version}). What goes:
        </p>
        <Table
          class="diff"
          rows={names}
          columns={[
            { header: 'Property', cell: (name) => name, rowHeader: true },
            { header: 'Current', cell: (name) => <del>{show(current.properties[name])}</del> },
            { header: 'After', cell: () => '(deleted)', class: 'muted' },
          ]}
        />
        {change.links?.length ? (
          <>
            <p>Its links go with it:</p>
            <ul>
              {change.links.map((l) => (
                <li>
                  <del>
                    {l.link} → {l.targetType} {l.targetKey}
                  </del>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>It has no links.</p>
        )}
      </>
    );
  }
  const proposed = params.properties ?? {};
  return (
    <>
      <p>
        {current ? (
          <>
            Changes <ObjectName object={current} /> (version {current.version}); properties not listed stay as they are.
          </>
        ) : request.action === 'update_properties' ? (
          <>
            Changes {params.type} <code>{params.key}</code>, which no longer exists: approving it fails.
          </>
        ) : (
          <>
            Creates {params.type} <code>{params.key}</code>.
          </>
        )}
      </p>
      <Table
        class="diff"
        rows={Object.keys(proposed).sort()}
        columns={[
          { header: 'Property', cell: (name) => name, rowHeader: true },
          {
            header: 'Current',
            cell: (name) => {
              const before = current?.properties[name];
              return before === undefined ? <span class="muted">(not set)</span> : same(before, proposed[name]) ? show(before) : <del>{show(before)}</del>;
            },
          },
          { header: 'Proposed', cell: (name) => (same(current?.properties[name], proposed[name]) ? <span class="muted">(unchanged)</span> : <ins>{show(proposed[name])}</ins>) },
        ]}
      />
    </>
  );
}

const ACTION_TEXT: Record<ApprovalRequestView['action'], string> = {
  upsert_object: 'Create or update an object',
  update_properties: 'Update properties',
  link: 'Add a link',
  unlink: 'Remove a link',
  delete_object: 'Delete an object',
};

function Decide({ request, mine }: { request: ApprovalRequestView; mine: boolean }) {
  return (
    <div class="actions">
      {mine ? (
        <p class="muted">You requested this change, so someone else must approve it; you can withdraw it by rejecting it.</p>
      ) : (
        <form method="post" action={`${PATH}/${request.id}/approve`}>
          <button type="submit" aria-label={`Approve ${request.id}`}>
            Approve
          </button>
        </form>
      )}
      <form method="post" action={`${PATH}/${request.id}/reject`}>
        <button type="submit" class="secondary" aria-label={`Reject ${request.id}`}>
          Reject
        </button>
      </form>
    </div>
  );
}

function RequestCard({ change, who, me }: { change: Change; who: Who; me: string }) {
  const { request } = change;
  return (
    // Named with its id too: two requests of the same kind are two regions a screen reader tells apart.
    <section class="card" aria-label={`${ACTION_TEXT[request.action]} (${request.id})`}>
      <h2 id={`title-${request.id}`}>
        <a href={`${PATH}/${request.id}`}>{ACTION_TEXT[request.action]}</a>
      </h2>
      <p class="muted">
        Requested by <By id={request.requestedBy.keyId} who={who} /> on {when(request.createdAt)}; expires {when(request.expiresAt)}.
      </p>
      {request.reason ? <blockquote>{request.reason}</blockquote> : null}
      <Diff change={change} />
      <Decide request={request} mine={request.requestedBy.keyId === me} />
    </section>
  );
}

function Tabs({ current }: { current: 'pending' | 'history' }) {
  return (
    <nav aria-label="Approval requests" class="tabs">
      <ul>
        <li>
          <a href={PATH} aria-current={current === 'pending' ? 'page' : undefined}>
            Pending
          </a>
        </li>
        <li>
          <a href={`${PATH}?tab=history`} aria-current={current === 'history' ? 'page' : undefined}>
            History
          </a>
        </li>
      </ul>
    </nav>
  );
}

function outcomeText(request: ApprovalRequestView): string {
  switch (request.status) {
    case 'applied':
      return 'approved and applied';
    case 'failed':
      return `approved, but it could not be applied: ${request.failure ?? 'unknown reason'}`;
    default:
      return request.status;
  }
}

function HistoryTable({ list, who }: { list: ApprovalRequestView[]; who: Who }) {
  const columns: Column<ApprovalRequestView>[] = [
    {
      header: 'Request',
      cell: (request) => (
        <>
          <a href={`${PATH}/${request.id}`}>{ACTION_TEXT[request.action]}</a> <Subject request={request} />
        </>
      ),
    },
    { header: 'Status', cell: (request) => request.status },
    { header: 'Requested by', cell: (request) => <By id={request.requestedBy.keyId} who={who} /> },
    { header: 'Decided by', cell: (request) => (request.decidedBy ? <By id={request.decidedBy.keyId} who={who} /> : '—') },
    { header: 'Decided', cell: (request) => when(request.decidedAt ?? (request.status === 'expired' ? request.expiresAt : null)) },
  ];
  return <Table rows={list} columns={columns} caption="Decided requests, newest first." empty={<p>No decided requests.</p>} />;
}

/** The object (or link) a request is about, in a few words. */
function Subject({ request }: { request: ApprovalRequestView }) {
  const p = request.params as { type?: string; key?: string; link?: string; from?: Endpoint; to?: Endpoint };
  if (p.link && p.from && p.to) return <span class="muted">{`${p.link}: ${p.from.type} ${p.from.key} → ${p.to.type} ${p.to.key}`}</span>;
  return <span class="muted">{`${p.type} ${p.key}`}</span>;
}

async function pendingPage(c: Context<SignedInEnv>, error?: string) {
  const ctx = c.var.core;
  const me = c.var.session.user.id;
  const [page, who] = await Promise.all([listActionRequests(ctx, PENDING_PAGE_SIZE, c.req.query('cursor') || undefined, { status: 'pending' }), whoIs(ctx, me)]);
  const changes = await Promise.all(page.requests.map((request) => changeOf(ctx, request)));
  return c.render(
    <>
      <Tabs current="pending" />
      <ErrorAlert message={error} />
      <p>Changes to your objects requested through the API or MCP wait here until someone approves or rejects them. Approving applies the change at once.</p>
      {changes.length === 0 ? <p>Nothing waits for a decision.</p> : changes.map((change) => <RequestCard change={change} who={who} me={me} />)}
      <NextPage path={PATH} cursor={page.nextCursor} label="More pending requests" />
    </>,
    { title: 'Approvals' },
  );
}

approvals.get('/', async (c) => {
  if (c.req.query('tab') !== 'history') return pendingPage(c);
  const raw = c.req.query('status');
  const status = (DECIDED as readonly string[]).includes(raw ?? '') ? (raw as (typeof DECIDED)[number]) : undefined;
  const [page, who] = await Promise.all([
    listActionRequests(c.var.core, HISTORY_PAGE_SIZE, c.req.query('cursor') || undefined, status ? { status } : {}),
    whoIs(c.var.core, c.var.session.user.id),
  ]);
  return c.render(
    <>
      <Tabs current="history" />
      <form method="get" action={PATH} class="inline-form">
        <input type="hidden" name="tab" value="history" />
        <label for="field-status">Status</label>{' '}
        <select id="field-status" name="status">
          <option value="">all decided</option>
          {DECIDED.map((s) => (
            <option value={s} selected={s === status}>
              {s}
            </option>
          ))}
        </select>{' '}
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
      <HistoryTable list={page.requests.filter((r) => r.status !== 'pending')} who={who} />
      <NextPage path={PATH} params={{ tab: 'history', status }} cursor={page.nextCursor} label="Older requests" />
    </>,
    { title: 'Approval history' },
  );
});

async function detailPage(c: Context<SignedInEnv>, options: { error?: string; decided?: boolean } = {}) {
  const ctx = c.var.core;
  const me = c.var.session.user.id;
  const [request, who] = await Promise.all([getActionRequest(ctx, c.req.param('id') ?? ''), whoIs(ctx, me)]);
  const pending = request.status === 'pending';
  const change = pending ? await changeOf(ctx, request) : undefined;
  return c.render(
    <>
      <p>
        <a href={PATH}>Pending requests</a> · <a href={`${PATH}?tab=history`}>History</a>
      </p>
      <ErrorAlert message={options.error} />
      {options.decided && !pending ? <Notice>Request {outcomeText(request)}.</Notice> : null}
      {change ? (
        <RequestCard change={change} who={who} me={me} />
      ) : (
        <>
          <dl class="facts">
            <dt>Change</dt>
            <dd>
              {ACTION_TEXT[request.action]} <Subject request={request} />
            </dd>
            <dt>Status</dt>
            <dd>{outcomeText(request)}</dd>
            <dt>Requested by</dt>
            <dd>
              <By id={request.requestedBy.keyId} who={who} /> on {when(request.createdAt)}
            </dd>
            <dt>Decided by</dt>
            <dd>{request.decidedBy ? <By id={request.decidedBy.keyId} who={who} /> : '—'}</dd>
            <dt>Decided</dt>
            <dd>{when(request.decidedAt)}</dd>
            {request.reason ? (
              <>
                <dt>Reason</dt>
                <dd>{request.reason}</dd>
              </>
            ) : null}
          </dl>
          <h2>Params</h2>
          <pre>
            <code>{JSON.stringify(request.params, null, 2)}</code>
          </pre>
        </>
      )}
      <p class="muted">
        Request <code>{request.id}</code>
      </p>
    </>,
    { title: 'Approval request' },
  );
}

approvals.get('/:id', (c) => detailPage(c, { decided: c.req.query('done') === '1' }));

for (const decision of ['approve', 'reject'] as const) {
  approvals.post(`/:id/${decision}`, async (c) => {
    await readForm(c);
    try {
      const request = await decideActionRequest(c.var.core, c.req.param('id'), decision);
      return c.redirect(`${PATH}/${request.id}?done=1`, 303);
    } catch (error) {
      // 409 (decided meanwhile, expired) and 403 (your own request) are shown on the request's page; 404 goes to the error page.
      const { summary } = refused(c, error, { passOn: ['not_found'] });
      const own = error instanceof DomainError && error.code === 'access_denied';
      return detailPage(c, { error: own ? 'You requested this change, so you cannot approve it; someone else in your organization must.' : summary });
    }
  });
}
