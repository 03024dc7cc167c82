import type { z } from 'zod';
import { DomainError, type ErrorDetail } from './errors.ts';

/** Validates `raw` against `schema`; throws 400 `invalid_input` with one detail per offending field. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, what = 'request body'): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const details = result.error.issues.flatMap(issueToDetails);
  const summary = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
  throw new DomainError('invalid_input', `Invalid ${what}: ${summary}.`, { details });
}

function issueToDetails(issue: z.core.$ZodIssue): ErrorDetail[] {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    // One entry per unknown field, so a typo is named where it is.
    return issue.keys.map((key) => ({
      path: path ? `${path}.${key}` : key,
      message: 'unknown field',
    }));
  }
  return [{ path, message: issue.message }];
}
