/** @jsxImportSource hono/jsx */
import { formatDollars } from '../ground/money.ts';
import type { Child, FC } from 'hono/jsx';
import type { FormErrors } from './form.ts';

/**
 * Form parts with accessible labels: every field has a <label>, a hint and an error tied to it
 * with aria-describedby, and aria-invalid when it was refused.
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

/** The message on top of a refused form; focusable so it can be announced. */
export const ErrorSummary: FC<{ errors?: FormErrors }> = ({ errors }) =>
  errors?.summary ? (
    <div class="alert alert-error" role="alert" tabindex={-1} id="form-errors">
      {errors.summary}
    </div>
  ) : null;

export const Notice: FC<{ children?: Child }> = ({ children }) => (
  <div class="alert alert-ok" role="status">
    {children}
  </div>
);

/** A dates as people read them, in UTC (`2026-11-23 21:26 UTC`), or a dash. */
export function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—';
}

/** A refusal shown on top of a page (an action the operation refused: 409, 428, 429...). */
export const ErrorAlert: FC<{ message?: string }> = ({ message }) => (message ? <ErrorSummary errors={{ summary: message, fields: {} }} /> : null);

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
