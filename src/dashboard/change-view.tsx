/** @jsxImportSource hono/jsx */
import { CHANGE_KINDS, KIND_HEADINGS, type Change, type ChangeKind } from '../ground/schemas/changes.ts';
import type { ChangeCounts } from '../ground/schemas/watch.ts';
import { ExternalLink, Table, when, type Column } from './components.tsx';

/**
 * How the dashboard shows what a watch found changed on a company's web (issue 32): one change
 * (a price as before and after side by side, a role with its location, a removal with when it was
 * last seen), each cited by its URL; and an execution's changes grouped by kind. Used by the
 * Changes page and by a watch's page. Every text is the page's own, escaped by JSX.
 */

/** `1 word` or `n words` (or `n <many>`). */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : many}`;
}

/** The kind of a change as a small badge. */
export function KindBadge({ kind }: { kind: string }) {
  return <span class={`badge badge-${kind}`}>{kind}</span>;
}

const PRICE_COLUMNS: Column<Change>[] = [
  { header: 'Before', cell: (change) => change.before ?? '—' },
  { header: 'After', cell: (change) => change.after ?? '—' },
];

/** A price change: the plan it is the price of as the caption, and a "Before | After" row. */
function PriceChange({ change }: { change: Change }) {
  return <Table class="price-change" rows={[change]} columns={PRICE_COLUMNS} caption={change.plan ? `Price of ${change.plan}` : 'Price'} />;
}

/** A role's title, and where it is when the board says. */
function role(change: Change): string {
  return change.location ? `${change.text}, ${change.location}` : change.text;
}

/** What changed, in words (a price: its before and after as a small table). */
export function ChangeWhat({ change }: { change: Change }) {
  switch (change.action) {
    case 'changed':
      return (
        <>
          <PriceChange change={change} />
          {change.text ? <q>{change.text}</q> : null}
        </>
      );
    case 'added':
      return (
        <>
          Added: <q>{change.text}</q>
        </>
      );
    case 'removed':
      return (
        <>
          Removed: <q>{change.text}</q>
        </>
      );
    case 'new':
      return <>New page: {change.title || change.text || change.url}</>;
    case 'gone':
      return <>Page gone: {change.title || change.text || change.url}</>;
    case 'opened':
      return <>Role opened: {role(change)}</>;
    case 'closed':
      return <>Role closed: {role(change)}</>;
    case 'new-entry':
      return <>New entry: {change.text}</>;
    default:
      return <>{change.text}</>;
  }
}

/** Where it is said: a link to the page (only http(s) is a link), and for a removal when it was last seen. */
export function ChangeSource({ change }: { change: Change }) {
  return (
    <>
      <ExternalLink href={change.url}>{change.title || change.url}</ExternalLink>
      {change.lastSeenAt ? <span class="muted"> (last seen {change.lastSeenAt.slice(0, 10)})</span> : null}
    </>
  );
}

/** One change on one line of a list: what, then where (and when it was found, given `found`). */
export function ChangeItem({ change, found }: { change: Change; found?: string }) {
  return (
    <li>
      <ChangeWhat change={change} /> <span class="muted">at</span> <ChangeSource change={change} />
      {found ? (
        <span class="muted">
          {' '}
          · found <time datetime={found}>{when(found)}</time>
        </span>
      ) : null}
    </li>
  );
}

/** The changes in kind order, each kind with its changes (kinds with none left out). */
export function byKind<T extends { kind: ChangeKind }>(changes: readonly T[]): Array<{ kind: ChangeKind; changes: T[] }> {
  return CHANGE_KINDS.map((kind) => ({ kind, changes: changes.filter((change) => change.kind === kind) })).filter((group) => group.changes.length > 0);
}

/** A sentence on the sentences that flipped back to how they were (counted, never listed). */
export function flipsNote(flips: number): string | null {
  return flips > 0 ? `${plural(flips, 'sentence')} flipped back to how ${flips === 1 ? 'it was' : 'they were'} shortly before: counted, not listed.` : null;
}

/**
 * An execution's changes on the company's web, grouped by kind under h4 headings (each
 * with its count), "and N more" under a kind when its count exceeds those listed and after them
 * for kinds counted but not listed, and the flips noted. Counts missing (old records): the list's.
 */
export function ChangesByKind({ changes, counts }: { changes: readonly Change[]; counts: ChangeCounts }) {
  const groups = byKind(changes).map((group) => ({ ...group, count: Math.max(counts.byKind[group.kind] ?? 0, group.changes.length) }));
  const unlistedKinds = CHANGE_KINDS.filter((kind) => (counts.byKind[kind] ?? 0) > 0 && !groups.some((g) => g.kind === kind)).map((kind) => ({ kind, count: counts.byKind[kind] ?? 0 }));
  const accounted = groups.reduce((sum, g) => sum + g.count, 0) + unlistedKinds.reduce((sum, k) => sum + k.count, 0);
  const unlisted = unlistedKinds.reduce((sum, k) => sum + k.count, 0) + Math.max(0, counts.total - accounted);
  const flips = flipsNote(counts.flips);
  return (
    <>
      {groups.map(({ kind, changes: ofKind, count }) => (
        <>
          <h4>
            {KIND_HEADINGS[kind]} ({count.toLocaleString('en-US')})
          </h4>
          <ul>
            {ofKind.map((change) => (
              <ChangeItem change={change} />
            ))}
            {count > ofKind.length ? <li class="muted">and {(count - ofKind.length).toLocaleString('en-US')} more</li> : null}
          </ul>
        </>
      ))}
      {unlisted > 0 ? (
        <p class="muted">
          {groups.length ? `and ${unlisted.toLocaleString('en-US')} more not listed` : `${plural(unlisted, 'change')} not listed`}
          {unlistedKinds.length ? `: ${unlistedKinds.map(({ kind, count }) => `${KIND_HEADINGS[kind].toLowerCase()} ${count}`).join(', ')}` : ''}.
        </p>
      ) : null}
      {flips ? <p class="muted">{flips}</p> : null}
    </>
  );
}
