/** @jsxImportSource hono/jsx */
import type { Context } from 'hono';
import type { FC } from 'hono/jsx';
import { DomainError, type ErrorCode, type ErrorDetail } from '../ground/errors.ts';
import { errorHeaders } from '../http-headers.ts';

/**
 * A refused form, from the refusal to what the person reads. When an operation refuses what a form
 * sent, the page's handler makes one call, `const errors = refused(c, error, { fields })`: the
 * answer takes the refusal's status and headers (those of the HTTP funnel: 400, 409, 428, 429 with
 * Retry-After), and the page renders its form again with the FormErrors it returns: the summary on
 * top (ErrorSummary, focused so it is read out; ErrorAlert for a page that shows a bare message)
 * and each field's message beside it (Field in components.tsx, or a fieldset's own error line).
 * Anything but a refusal (a bug, D1 down) is re-thrown to the dashboard's onError (index.tsx), as is
 * a refusal of a code the page passes on, and every error a page does not catch.
 */

/** What a form page shows after a refused post: one message per field and the rest on top. */
export interface FormErrors {
  summary?: string;
  fields: Record<string, string>;
}

/** Field errors by form field: a detail's path is cut to the field it belongs to (`icp.industries.0` -> `icp.industries`). */
export function errorsByField(details: ErrorDetail[] | undefined, fields: readonly string[]): { byField: Record<string, string>; other: string[] } {
  const byField: Record<string, string> = {};
  const other: string[] = [];
  for (const detail of details ?? []) {
    const field = fields.find((name) => detail.path === name || detail.path.startsWith(`${name}.`));
    if (field && !byField[field]) byField[field] = detail.message;
    else if (!field) other.push(detail.message);
  }
  return { byField, other };
}

export interface RefusalOptions {
  /** The form's fields, by the paths of the operation's refusals: each one's message goes beside it. */
  fields?: readonly string[];
  /** Refusals this page does not show on its form (e.g. `not_found`): re-thrown to the error page. */
  passOn?: readonly ErrorCode[];
}

/**
 * The one call of a refused form: sets the answer's status and headers from the refusal and
 * returns what the form shows. Re-throws anything but a DomainError, `internal`, and the codes in
 * `passOn`. The summary of a refused input (400) is what no field shows, or a pointer to the fields.
 */
export function refused(c: Context, error: unknown, options: RefusalOptions = {}): FormErrors {
  if (!(error instanceof DomainError) || error.code === 'internal' || options.passOn?.includes(error.code)) throw error;
  c.status(error.status === 500 || error.status === 504 ? 500 : error.status);
  for (const [name, value] of Object.entries(errorHeaders(error))) c.header(name, value);
  const { byField, other } = errorsByField(error.details, options.fields ?? []);
  const summary = error.code === 'invalid_input' ? (other.length ? other.join(' ') : 'Some fields need a change; see the messages beside them.') : error.message;
  return { summary, fields: byField };
}

/** The message on top of a refused form; focusable so it can be announced. */
export const ErrorSummary: FC<{ errors?: FormErrors }> = ({ errors }) =>
  errors?.summary ? (
    <div class="alert alert-error" role="alert" tabindex={-1} id="form-errors">
      {errors.summary}
    </div>
  ) : null;

/** A refusal shown on top of a page as a bare message (an action the operation refused: 409, 428, 429...). */
export const ErrorAlert: FC<{ message?: string }> = ({ message }) => (message ? <ErrorSummary errors={{ summary: message, fields: {} }} /> : null);
