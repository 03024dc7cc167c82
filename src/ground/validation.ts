import type { z } from 'zod';
import { DomainError, type ErrorDetail } from './errors.ts';
import { describeSchema } from './schema-words.ts';

/**
 * Validates `raw` against `schema`; throws 400 `invalid_input` with one detail per offending field.
 * `what` names the input in the summary ("Invalid arguments of research: ...") and is the subject
 * of a message about the input as a whole.
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, what = 'request body'): z.output<S> {
  const result = checkInput(schema, raw, what);
  if (result.success) return result.data;
  const summary = result.details.map((d) => d.message).join('; ');
  throw new DomainError('invalid_input', `Invalid ${what}: ${summary}.`, { details: result.details });
}

export type CheckResult<T> = { success: true; data: T } | { success: false; details: ErrorDetail[] };

/**
 * Validates `raw` against `schema` without throwing. Each detail's message names its field and
 * what it allows, generated from the schema (`topic is required: a string of 1 to 500
 * characters`, `tier must be one of "lite", "base", not "deep"`, `unknown field 'topci' (did you
 * mean 'topic'?)`); a refinement's own message is kept, after the field's name. `prefix` is put
 * before every path (an import line's `properties`); `what` is the subject when the path is empty.
 */
export function checkInput<S extends z.ZodType>(schema: S, raw: unknown, what: string, prefix = ''): CheckResult<z.output<S>> {
  const knownFields = new Map<string, string[]>();
  const result = schema.safeParse(raw, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        // Remembered for the did-you-mean hint: the fields the object knows and was not sent.
        const shape = (issue.inst?._zod.def as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
        const sent = typeof issue.input === 'object' && issue.input !== null ? issue.input : {};
        knownFields.set(joinPath(issue.path ?? []), Object.keys(shape).filter((field) => !Object.hasOwn(sent, field)));
        return undefined;
      }
      return ruleOf(issue);
    },
  });
  if (result.success) return { success: true, data: result.data };
  const details = result.error.issues.flatMap((issue): ErrorDetail[] => {
    const path = joinPath([...(prefix ? [prefix] : []), ...issue.path]);
    if (issue.code === 'unrecognized_keys') {
      // One entry per unknown field, so a typo is named where it is.
      const known = knownFields.get(joinPath(issue.path)) ?? [];
      return issue.keys.map((key) => {
        const field = path ? `${path}.${key}` : key;
        const guess = closest(key, known);
        const hint = guess ? ` (did you mean '${path ? `${path}.${guess}` : guess}'?)` : '';
        return { path: field, message: `unknown field '${field}'${hint}` };
      });
    }
    return [{ path, message: `${path || what} ${issue.message}` }];
  });
  // One entry per offending field: the first rule it broke (a string sent for a list also fails
  // the list's length checks, which would only repeat the point).
  const seen = new Set<string>();
  return { success: false, details: details.filter((detail) => !seen.has(detail.path) && Boolean(seen.add(detail.path))) };
}

function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

type RawIssue = z.core.$ZodRawIssue;

/** The rule an issue broke, as a predicate on the field: `is required: ...`, `must be ...`. */
function ruleOf(issue: RawIssue): string | undefined {
  const allowed = () => allowedBy(issue);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `is required: ${allowed()}`;
      return `must be ${allowed()}${received(issue.input, issue.expected === 'int')}`;
    case 'invalid_value':
      return `must be ${allowed()}${typeof issue.input === 'string' ? received(issue.input, true) : ''}`;
    case 'too_small':
    case 'too_big':
    case 'invalid_format':
    case 'invalid_union':
      return `must be ${allowed()}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has a value that is not allowed';
    default:
      return 'is not valid';
  }
}

function allowedBy(issue: RawIssue): string {
  // `schema` is the field's schema when a check (min, max, format) raised the issue.
  const schema = issue.schema ?? (issue.inst && 'type' in issue.inst._zod.def ? (issue.inst as z.core.$ZodType) : undefined);
  if (!schema) return 'a valid value';
  try {
    return describeSchema(schema);
  } catch {
    // A schema JSON Schema cannot express: say less rather than fail the request.
    return 'a valid value';
  }
}

/** `, not "deep"`, `, not 2.5`, `, not a number`: what was sent, briefly and never at length. */
function received(input: unknown, showValue: boolean): string {
  if (input === null) return ', not null';
  if (Array.isArray(input)) return ', not a list';
  switch (typeof input) {
    case 'string':
      return showValue && input.length <= 40 ? `, not ${JSON.stringify(input)}` : ', not a string';
    case 'number':
      return Number.isNaN(input) ? '' : showValue ? `, not ${input}` : ', not a number';
    case 'boolean':
      return `, not ${input}`;
    case 'object':
      return ', not an object';
    default:
      return '';
  }
}

/** The known field closest to a mistyped one (a third of its letters or two edits away, case aside), if any. */
function closest(typed: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(typed.toLowerCase(), candidate.toLowerCase());
    const allowed = Math.max(2, Math.floor(candidate.length / 3));
    if (distance <= allowed && distance < bestDistance && distance < Math.max(typed.length, candidate.length)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit ("topci" -> "topic"). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
