import type { Context } from 'hono';
import { DomainError, type ErrorDetail } from '../ground/errors.ts';

/**
 * The fields of a posted form. Only `application/x-www-form-urlencoded` (what the dashboard's
 * forms send) is read; every other body is refused, so nothing reaches a handler without passing
 * hono's CSRF check (which judges form encodings by their Origin and Sec-Fetch-Site).
 * Repeated fields (checkboxes) become arrays.
 */
export async function readForm(c: Context): Promise<Record<string, string | string[]>> {
  const type = c.req.header('Content-Type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw new DomainError('invalid_input', 'Send this form from the dashboard page (application/x-www-form-urlencoded).');
  }
  const body = await c.req.parseBody({ all: true });
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(body)) {
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    fields[name] = Array.isArray(value) ? values : (values[0] ?? '');
  }
  return fields;
}

/** One text field of a form: its (first) value, or '' when absent. */
export function text(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** A repeated field (checkboxes): every value. */
export function all(form: Record<string, string | string[]>, name: string): string[] {
  const value = form[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** A textarea of one entry per line (or comma-separated), blank entries dropped. */
export function lines(form: Record<string, string | string[]>, name: string): string[] {
  return text(form, name)
    .split(/[\r\n,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
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

/** What a form page shows after a refused post: one message per field and the rest on top. */
export interface FormErrors {
  summary?: string;
  fields: Record<string, string>;
}

/**
 * A DomainError from an operation as what the form shows; anything else (a bug, D1 down) is
 * re-thrown to the dashboard's error page.
 */
export function formErrors(error: unknown, fields: readonly string[]): FormErrors {
  if (!(error instanceof DomainError) || error.code === 'internal') throw error;
  const { byField, other } = errorsByField(error.details, fields);
  const summary = error.code === 'invalid_input' ? (other.length ? other.join(' ') : 'Some fields need a change; see the messages beside them.') : error.message;
  return { summary, fields: byField };
}
