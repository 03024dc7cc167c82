import { z } from 'zod';

/**
 * What a schema allows, in plain words, read from its JSON Schema (the same description the
 * catalog and the OpenAPI document are generated from): `a string of 1 to 500 characters`,
 * `an integer from 1 to 25`, `one of "lite", "base"`, `a list of at most 25 items`.
 * Validation messages are built from it, so a new schema gets readable messages without any text
 * of its own. A refinement's own message (a domain, a repeated area) is not described here.
 */
export function describeSchema(schema: z.core.$ZodType): string {
  return describe(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

const FORMATS: Record<string, string> = {
  email: 'an email address',
  uri: 'a URL',
  uuid: 'a UUID',
  'date-time': 'a date and time such as 2026-05-01T09:00:00Z',
  date: 'a date such as 2026-05-01',
  hostname: 'a host name',
};

/** Bounds at or past these are zod's safe-integer limits, not a rule worth stating. */
const SAFE = Number.MAX_SAFE_INTEGER;

function describe(schema: JsonSchema): string {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return joinOr(alternatives.map(describe));
  if (schema.const !== undefined) return quote(schema.const);
  if (schema.enum) return schema.enum.length === 1 ? quote(schema.enum[0]) : `one of ${schema.enum.map(quote).join(', ')}`;
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return 'a value';
  return joinOr(types.map((type) => describeType(type, schema)));
}

function describeType(type: string, schema: JsonSchema): string {
  switch (type) {
    case 'string':
      if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format]!;
      return `a string${range(schema.minLength === 0 ? undefined : schema.minLength, schema.maxLength, ' of ', ' characters', 'character')}`;
    case 'integer':
    case 'number': {
      const noun = type === 'integer' ? 'an integer' : 'a number';
      const min = schema.minimum !== undefined && schema.minimum > -SAFE ? schema.minimum : undefined;
      const max = schema.maximum !== undefined && schema.maximum < SAFE ? schema.maximum : undefined;
      const parts = [numberRange(min, max)];
      if (schema.exclusiveMinimum !== undefined) parts.push(`greater than ${schema.exclusiveMinimum}`);
      if (schema.exclusiveMaximum !== undefined) parts.push(`less than ${schema.exclusiveMaximum}`);
      if (schema.multipleOf !== undefined) parts.push(`a multiple of ${schema.multipleOf}`);
      const rule = parts.filter(Boolean).join(' and ');
      return rule ? `${noun} ${rule}` : noun;
    }
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array': {
      const count = range(schema.minItems === 0 ? undefined : schema.minItems, schema.maxItems, ' of ', ' items', 'item');
      // The allowed values of an enum's items are worth listing; any other item's rule is stated
      // by its own message, at its own path (`focus.0`, `sourcePolicy.include.3`).
      const items = schema.items;
      const listed = items && (items.enum !== undefined || items.const !== undefined);
      return listed ? `a list${count || ' of items'}, each ${describe(items)}` : `a list${count}`;
    }
    case 'object': {
      const fields = Object.keys(schema.properties ?? {});
      return fields.length ? `an object with the fields ${fields.join(', ')}` : 'an object';
    }
    default:
      return `a ${type}`;
  }
}

/** ` of 1 to 500 characters`, ` of at most 25 items`, ` of exactly 1 item`, or '' without bounds. */
function range(min: number | undefined, max: number | undefined, lead: string, unit: string, one: string): string {
  const counted = (n: number) => (n === 1 ? ` ${one}` : unit);
  if (min !== undefined && max !== undefined) {
    return min === max ? `${lead}exactly ${min}${counted(min)}` : `${lead}${min} to ${max}${unit}`;
  }
  if (max !== undefined) return `${lead}at most ${max}${counted(max)}`;
  if (min !== undefined) return `${lead}at least ${min}${counted(min)}`;
  return '';
}

function numberRange(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `equal to ${min}` : `from ${min} to ${max}`;
  if (max !== undefined) return `of at most ${max}`;
  if (min !== undefined) return `of at least ${min}`;
  return '';
}

function quote(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function joinOr(words: string[]): string {
  const unique = [...new Set(words)];
  return unique.length <= 1 ? (unique[0] ?? 'a value') : `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
}
