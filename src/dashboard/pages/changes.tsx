/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import type { CoreContext } from '../../ground/context.ts';
import { CHANGE_KINDS, KIND_HEADINGS } from '../../ground/schemas/changes.ts';
import { DomainError } from '../../ground/errors.ts';
import { parseInput } from '../../ground/validation.ts';
import { ChangesInput, listChanges, type ChangeEntry, type ChangesPage } from '../../operations/changes/changes.ts';
import { byKind, ChangeItem, ChangeSource, ChangeWhat, KindBadge, plural } from '../change-view.tsx';
import { Field, NextPage, objectPath, Table, when, type Column } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { ErrorSummary, refused, type FormErrors } from '../refusal.tsx';

/**
 * Changes (issue 32): what the organization's watched companies changed on their web, across all
 * watches, through operations/changes/changes.ts `listChanges` (the operation of GET /api/v1/oms/changes).
 * The feed, newest first, filtered by company, kinds and days and paged by cursor; and a weekly
 * digest (`?view=week`, the last 7 days or the ISO week `week` names) grouped per company, then
 * per kind, with counts. Refused filters are shown on the form (400), never as an error page.
 */
export const changes = new Hono<SignedInEnv>();

const PATH = '/dashboard/changes';
const PAGE_SIZE = 50;
/** Changes read for one digest: pages of the operation's largest size, up to this many changes. */
const DIGEST_PAGE_SIZE = 200;
const MAX_DIGEST_CHANGES = 1_000;
const DAY_MS = 86_400_000;
/** Form fields by the paths of the operation's refusals (a refused cursor is said on top), and the digest's week. */
const FIELDS = ['company', 'kind', 'since', 'until', 'week'] as const;

/** The filters as the query string gave them (shown again in the form, refused or not). */
interface Filters {
  company: string;
  kinds: string[];
  /** Days (YYYY-MM-DD) or ISO times, as typed. */
  since: string;
  until: string;
  /** The digest's ISO week (2026-W48), or '' for the last 7 days. */
  week: string;
}

function filtersOf(c: Context<SignedInEnv>): Filters {
  const kinds = (c.req.queries('kind') ?? []).flatMap((value) => value.split(',')).map((kind) => kind.trim());
  return {
    company: (c.req.query('company') ?? '').trim(),
    kinds: [...new Set(kinds.filter(Boolean))],
    since: (c.req.query('since') ?? '').trim(),
    until: (c.req.query('until') ?? '').trim(),
    week: (c.req.query('week') ?? '').trim(),
  };
}

/** A day as YYYY-MM-DD, when it is a real one: its start in UTC (milliseconds). */
function dayStart(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const start = Date.parse(`${value}T00:00:00.000Z`);
  return Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== value ? null : start;
}

/** The operation's `since`: a day from its start; anything else as typed, for the operation to judge. */
function sinceOf(value: string): string {
  const start = dayStart(value);
  return start === null ? value : new Date(start).toISOString();
}

/** The operation's `until` (exclusive): a day up to its end; anything else as typed. */
function untilOf(value: string): string {
  const start = dayStart(value);
  return start === null ? value : new Date(start + DAY_MS).toISOString();
}

/** The operation's input for these filters (empty ones left out). */
function inputOf(filters: Filters, window: { since?: string; until?: string }, limit: number, cursor?: string): Record<string, unknown> {
  return {
    ...(filters.company ? { company: filters.company } : {}),
    ...(filters.kinds.length ? { kind: filters.kinds.join(',') } : {}),
    ...(window.since ? { since: window.since } : {}),
    ...(window.until ? { until: window.until } : {}),
    limit,
    ...(cursor ? { cursor } : {}),
  };
}

function read(ctx: CoreContext, input: Record<string, unknown>): Promise<ChangesPage> {
  return listChanges(ctx, parseInput(ChangesInput, input, 'filters'));
}

// ---- ISO weeks (Monday to Monday, UTC) ----

/** The Monday (UTC, milliseconds) that starts ISO week `week` of `year`. */
function mondayOf(year: number, week: number): number {
  const jan4 = Date.UTC(year, 0, 4);
  return jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS + (week - 1) * 7 * DAY_MS;
}

/** The ISO week (2026-W48) of a time. */
export function isoWeek(at: number): string {
  const day = new Date(at);
  const thursday = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) + (3 - ((day.getUTCDay() + 6) % 7)) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = 1 + Math.round((thursday - mondayOf(year, 1) - 3 * DAY_MS) / (7 * DAY_MS));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The Monday that starts the week `value` names (2026-W48, or a day of it such as 2026-11-25), or null. */
export function weekStart(value: string): number | null {
  const day = dayStart(value);
  if (day !== null) return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  const match = /^(\d{4})-W(\d{2})$/.exec(value);
  if (!match) return null;
  const monday = mondayOf(Number(match[1]), Number(match[2]));
  return isoWeek(monday) === value ? monday : null;
}

// ---- The page ----

/** This page with `extra` parameters and the company and kinds of `filters`. */
function linkTo(filters: Filters, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (filters.company) query.set('company', filters.company);
  if (filters.kinds.length) query.set('kind', filters.kinds.join(','));
  const text = query.toString();
  return text ? `${PATH}?${text}` : PATH;
}

function Tabs({ current, filters }: { current: 'feed' | 'week'; filters: Filters }) {
  return (
    <nav aria-label="Changes views" class="tabs">
      <ul>
        <li>
          <a href={linkTo(filters)} aria-current={current === 'feed' ? 'page' : undefined}>
            Feed
          </a>
        </li>
        <li>
          <a href={linkTo(filters, { view: 'week' })} aria-current={current === 'week' ? 'page' : undefined}>
            Weekly digest
          </a>
        </li>
      </ul>
    </nav>
  );
}

/** A date or week field, labelled and described as components.tsx's Field is. */
function DayField({ name, label, hint, type, value, errors }: { name: string; label: string; hint: string; type: 'date' | 'week'; value: string; errors?: FormErrors }) {
  const id = `field-${name}`;
  const error = errors?.fields[name];
  return (
    <div class={error ? 'field field-error' : 'field'}>
      <label for={id}>{label}</label>
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      <input type={type} id={id} name={name} value={value} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`} />
    </div>
  );
}

function FilterForm({ view, filters, errors }: { view: 'feed' | 'week'; filters: Filters; errors?: FormErrors }) {
  const kindError = errors?.fields.kind;
  return (
    <form method="get" action={PATH} class="search" role="search" aria-label="Filter changes" novalidate>
      <ErrorSummary errors={errors} />
      {view === 'week' ? <input type="hidden" name="view" value="week" /> : null}
      <Field name="company" label="Company" hint="A watched company's domain, such as globex.com; empty: every company." value={filters.company} errors={errors} maxlength={253} />
      <fieldset aria-describedby={kindError ? 'kind-hint kind-error' : 'kind-hint'}>
        <legend>Kinds</legend>
        <p class="hint" id="kind-hint">
          None checked: every kind.
        </p>
        {kindError ? (
          <p class="error" id="kind-error">
            {kindError}
          </p>
        ) : null}
        {CHANGE_KINDS.map((kind) => (
          <div>
            <input type="checkbox" name="kind" value={kind} id={`kind-${kind}`} checked={filters.kinds.includes(kind)} /> <label for={`kind-${kind}`}>{KIND_HEADINGS[kind]}</label>
          </div>
        ))}
      </fieldset>
      {view === 'week' ? (
        <DayField name="week" label="Week" type="week" hint="An ISO week such as 2026-W48 (Monday to Sunday, UTC); empty: the last 7 days." value={filters.week} errors={errors} />
      ) : (
        <>
          <DayField name="since" label="Since" type="date" hint="From the start of this day (UTC), such as 2026-11-23; empty: from the first change." value={filters.since} errors={errors} />
          <DayField name="until" label="Until" type="date" hint="To the end of this day (UTC); empty: up to now." value={filters.until} errors={errors} />
        </>
      )}
      <button type="submit">Show changes</button>
    </form>
  );
}

function filtered(filters: Filters): boolean {
  return !!(filters.company || filters.kinds.length || filters.since || filters.until);
}

const FEED_COLUMNS: Column<ChangeEntry>[] = [
  { header: 'Found', cell: (entry) => <time datetime={entry.detectedAt}>{when(entry.detectedAt)}</time> },
  { header: 'Company', cell: (entry) => <a href={objectPath('company', entry.company)}>{entry.company}</a> },
  { header: 'Kind', cell: (entry) => <KindBadge kind={entry.kind} /> },
  { header: 'Change', cell: (entry) => <ChangeWhat change={entry} /> },
  { header: 'Where', cell: (entry) => <ChangeSource change={entry} /> },
];

function FeedTable({ list, filters }: { list: ChangeEntry[]; filters: Filters }) {
  if (list.length === 0) {
    return filtered(filters) ? (
      <p>No change matches these filters.</p>
    ) : (
      <p>
        No changes yet. A watch reports what a company changed on its web from its second execution on: <a href="/dashboard/watches">watch a company</a>.
      </p>
    );
  }
  return <Table class="changes" rows={list} columns={FEED_COLUMNS} caption="Changes on your watched companies' web, newest first, each with where it is said." />;
}

async function feedPage(c: Context<SignedInEnv>) {
  const filters = filtersOf(c);
  const cursor = c.req.query('cursor') || undefined;
  let page: ChangesPage | undefined;
  let errors: FormErrors | undefined;
  try {
    const window = { ...(filters.since ? { since: sinceOf(filters.since) } : {}), ...(filters.until ? { until: untilOf(filters.until) } : {}) };
    page = await read(c.var.core, inputOf(filters, window, PAGE_SIZE, cursor));
  } catch (error) {
    errors = refused(c, error, { fields: FIELDS });
  }
  return c.render(
    <>
      <Tabs current="feed" filters={filters} />
      <p>What your watched companies changed on their web (prices, pages, roles, news), as each watch execution found it.</p>
      <FilterForm view="feed" filters={filters} errors={errors} />
      {page ? (
        <>
          <FeedTable list={page.changes} filters={filters} />
          <NextPage path={PATH} params={{ company: filters.company, kind: filters.kinds.join(','), since: filters.since, until: filters.until }} cursor={page.nextCursor} label="Older" />
        </>
      ) : null}
    </>,
    { title: 'Changes' },
  );
}

// ---- The weekly digest ----

/** The digest's window: a named week (Monday to Monday) or the 7 days to now. */
interface DigestWindow {
  since: string;
  until?: string;
  /** The ISO week shown, or null for the last 7 days. */
  week: string | null;
}

/** The window `week` names, or the last 7 days; a `week` that names none is refused (400), beside its field. */
function digestWindow(week: string, now: number): DigestWindow {
  if (!week) return { since: new Date(now - 7 * DAY_MS).toISOString(), week: null };
  const monday = weekStart(week);
  if (monday === null) {
    const message = 'week must be an ISO week such as 2026-W48, or a day of the week such as 2026-11-23';
    throw new DomainError('invalid_input', `Invalid filters: ${message}.`, { details: [{ path: 'week', message }] });
  }
  return { since: new Date(monday).toISOString(), until: new Date(monday + 7 * DAY_MS).toISOString(), week: isoWeek(monday) };
}

/** Every change of the window, newest first: up to MAX_DIGEST_CHANGES; `complete` false when there were more. */
async function digestChanges(ctx: CoreContext, filters: Filters, window: DigestWindow): Promise<{ list: ChangeEntry[]; complete: boolean }> {
  const list: ChangeEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(ctx, inputOf(filters, window, DIGEST_PAGE_SIZE, cursor));
    list.push(...page.changes);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && list.length < MAX_DIGEST_CHANGES);
  return { list, complete: cursor === undefined };
}

/** The changes per company (most changes first, then by name), each in the kinds' order. */
export function digestOf(list: readonly ChangeEntry[]): Array<{ company: string; total: number; kinds: ReturnType<typeof byKind<ChangeEntry>> }> {
  const companies = new Map<string, ChangeEntry[]>();
  for (const entry of list) companies.set(entry.company, [...(companies.get(entry.company) ?? []), entry]);
  return [...companies]
    .map(([company, entries]) => ({ company, total: entries.length, kinds: byKind(entries) }))
    .sort((a, b) => b.total - a.total || a.company.localeCompare(b.company));
}

function kindCounts(list: readonly ChangeEntry[]): string {
  return byKind(list)
    .map(({ kind, changes: ofKind }) => `${KIND_HEADINGS[kind].toLowerCase()} ${ofKind.length}`)
    .join(', ');
}

/** The digest of `week` (none: the last 7 days), with the same company and kinds. */
function weekLink(filters: Filters, week?: string): string {
  return linkTo(filters, { view: 'week', ...(week ? { week } : {}) });
}

function WeekNav({ window, filters, now }: { window: DigestWindow; filters: Filters; now: number }) {
  const monday = window.week ? weekStart(window.week)! : weekStart(isoWeek(now))!;
  const previous = isoWeek(monday - 7 * DAY_MS);
  const next = monday + 7 * DAY_MS <= now ? isoWeek(monday + 7 * DAY_MS) : null;
  return (
    <nav aria-label="Weeks">
      <ul class="actions plain">
        <li>
          <a href={weekLink(filters, previous)}>Previous week ({previous})</a>
        </li>
        {window.week === null ? (
          <li>
            <a href={weekLink(filters, isoWeek(now))}>This week ({isoWeek(now)})</a>
          </li>
        ) : (
          <>
            {next ? (
              <li>
                <a href={weekLink(filters, next)}>Next week ({next})</a>
              </li>
            ) : null}
            <li>
              <a href={weekLink(filters)}>The last 7 days</a>
            </li>
          </>
        )}
      </ul>
    </nav>
  );
}

function windowTitle(window: DigestWindow): string {
  if (!window.week) return `The last 7 days, since ${when(window.since)}`;
  const sunday = new Date(Date.parse(window.until!) - DAY_MS).toISOString().slice(0, 10);
  return `Week ${window.week}, Monday ${window.since.slice(0, 10)} to Sunday ${sunday}`;
}

function Digest({ list, complete, window }: { list: ChangeEntry[]; complete: boolean; window: DigestWindow }) {
  const companies = digestOf(list);
  return (
    <section aria-labelledby="digest-title">
      <h2 id="digest-title">{windowTitle(window)}</h2>
      {list.length === 0 ? (
        <p>No change found in these days.</p>
      ) : (
        <p>
          {plural(list.length, 'change')}
          {complete ? '' : ' (the newest; narrow by company or kind to see the rest)'} at {plural(companies.length, 'company', 'companies')}: {kindCounts(list)}.
        </p>
      )}
      {companies.map(({ company, total, kinds }, i) => (
        <section aria-labelledby={`digest-company-${i}`}>
          <h3 id={`digest-company-${i}`}>
            <a href={objectPath('company', company)}>{company}</a>: {plural(total, 'change')}
          </h3>
          {kinds.map(({ kind, changes: ofKind }) => (
            <>
              <h4>
                {KIND_HEADINGS[kind]} ({ofKind.length.toLocaleString('en-US')})
              </h4>
              <ul>
                {ofKind.map((entry) => (
                  <ChangeItem change={entry} found={entry.detectedAt} />
                ))}
              </ul>
            </>
          ))}
        </section>
      ))}
    </section>
  );
}

async function digestPage(c: Context<SignedInEnv>) {
  const filters = filtersOf(c);
  const now = Date.now();
  let window: DigestWindow | undefined;
  let digest: { list: ChangeEntry[]; complete: boolean } | undefined;
  let errors: FormErrors | undefined;
  try {
    window = digestWindow(filters.week, now);
    digest = await digestChanges(c.var.core, filters, window);
  } catch (error) {
    errors = refused(c, error, { fields: FIELDS });
  }
  return c.render(
    <>
      <Tabs current="week" filters={filters} />
      <p>A week of what your watched companies changed on their web, per company, then per kind, each change with where it is said.</p>
      <FilterForm view="week" filters={filters} errors={errors} />
      {window ? <WeekNav window={window} filters={filters} now={now} /> : null}
      {digest && window ? <Digest list={digest.list} complete={digest.complete} window={window} /> : null}
    </>,
    { title: 'Changes: weekly digest' },
  );
}

changes.get('/', (c) => (c.req.query('view') === 'week' ? digestPage(c) : feedPage(c)));
