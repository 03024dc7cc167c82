import type { Context } from 'hono';
import { DomainError } from '../ground/errors.ts';

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
