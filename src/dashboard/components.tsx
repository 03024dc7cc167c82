/** @jsxImportSource hono/jsx */
import { formatDollars } from '../ground/money.ts';
import type { Child, FC } from 'hono/jsx';
import type { FormErrors } from './refusal.tsx';

/**
 * The dashboard's shared parts: form fields with accessible labels (Field), notices, links from the
 * data, paging, the one table component (Table), and how dates, money and object pages are written.
 * A refused form's summary is in refusal.tsx.
 */

/**
 * A text field with its <label>, a hint and an error tied to it with aria-describedby, and
 * aria-invalid when it was refused.
 */
interface FieldProps {
  name: string;
  label: string;
  errors?: FormErrors;
  hint?: string;
  value?: string;
  type?: 'text' | 'email' | 'password';
  autocomplete?: string;
  required?: boolean;
  multiline?: boolean;
  rows?: number;
  maxlength?: number;
}

export const Field: FC<FieldProps> = (props) => {
  const id = `field-${props.name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  const error = props.errors?.fields[props.name];
  const describedBy = [props.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: props.name,
    required: props.required,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': describedBy,
    maxlength: props.maxlength,
  };
  return (
    <div class={error ? 'field field-error' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {props.multiline ? (
        <textarea {...common} rows={props.rows ?? 3}>
          {props.value ?? ''}
        </textarea>
      ) : (
        <input {...common} type={props.type ?? 'text'} value={props.value ?? ''} autocomplete={props.autocomplete} />
      )}
    </div>
  );
};

export const Notice: FC<{ children?: Child }> = ({ children }) => (
  <div class="alert alert-ok" role="status">
    {children}
  </div>
);

/** A dates as people read them, in UTC (`2026-11-23 21:26 UTC`), or a dash. */
export function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—';
}

/**
 * A link to an address from the data (a source's URL): a link only for http(s), opened without
 * the referrer or the opener; anything else is shown as text.
 */
export const ExternalLink: FC<{ href: string; children?: Child }> = ({ href, children }) =>
  /^https?:\/\//i.test(href) ? (
    <a href={href} rel="noopener noreferrer nofollow">
      {children ?? href}
    </a>
  ) : (
    <span>{children ?? href}</span>
  );

/** "Next page" for a list paged by a cursor: a link to the same page with `cursor` set, or nothing. */
export const NextPage: FC<{ path: string; params?: Record<string, string | undefined>; cursor: string | null; label?: string }> = ({ path, params, cursor, label }) => {
  if (!cursor) return null;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) if (value) query.set(name, value);
  query.set('cursor', cursor);
  return (
    <p>
      <a href={`${path}?${query.toString()}`}>{label ?? 'Next page'}</a>
    </p>
  );
};

/** Micros (millionths of a dollar) as dollars, e.g. 3000 -> `$0.003`. */
export function dollars(micros: number): string {
  return formatDollars(micros);
}

/** The dashboard page of one OMS object (keys can be URLs, so both go in the query). */
export function objectPath(type: string, key: string): string {
  return `/dashboard/objects/view?${new URLSearchParams({ type, key }).toString()}`;
}

/** One column of a Table: its header and how a row fills its cell. */
export interface Column<Row> {
  /** The column's header, a `<th scope="col">` (e.g. `<span class="muted">Actions</span>` for a column of buttons). */
  header: Child;
  /** The row's cell in this column. */
  cell: (row: Row) => Child;
  /** The cell names its row (a property's name): a `<th scope="row">` instead of a `<td>`. */
  rowHeader?: boolean;
  /** The class of the column's cells, e.g. `muted` for a column that only says what happens to a value. */
  class?: string;
}

export interface TableProps<Row> {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  /** What the table holds, in a sentence: its `<caption>`, e.g. "Your organization's runs, newest first." */
  caption?: Child;
  /** What shows instead of the table when there are no rows, e.g. `<p>No runs yet.</p>` (default: the table, its body empty). */
  empty?: Child;
  /** The class of a table styled apart (`diff`, `changes`, `price-change`). */
  class?: string;
}

/**
 * Every table of the dashboard: a caption when given (styled muted by the stylesheet, a price
 * change's as its title), a header row of `<th scope="col">`, then a row per item, each cell filled
 * by its column's `cell` (a `<th scope="row">` in a row-header column), e.g.
 * `<Table rows={runs} caption="Your runs." columns={[{ header: 'Run', cell: (run) => run.id }]} />`.
 */
export function Table<Row>({ rows, columns, caption, empty, class: className }: TableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <table class={className}>
      {caption === undefined ? null : <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col">{column.header}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr>
            {columns.map((column) =>
              column.rowHeader ? (
                <th scope="row" class={column.class}>
                  {column.cell(row)}
                </th>
              ) : (
                <td class={column.class}>{column.cell(row)}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
