import { z } from 'zod';
import type { CoreContext } from '../ground/context.ts';
import { randomId } from '../ground/api-key.ts';
import { DomainError, rateLimited } from '../ground/errors.ts';
import { checkInput } from '../ground/validation.ts';
import { assertScope } from '../ground/scopes.ts';
import { KEY_SCHEMAS, LINKS, OBJECT_TYPES, PROPERTY_SCHEMAS, type ObjectType } from './object-types.ts';
import { MAX_OBJECT_BYTES, writeObjects, type LinkWrite, type ObjectWrite } from './store.ts';

/** One line the import could not apply; the line was skipped whole. */
export interface ImportError {
  line: number;
  error: 'invalid_input';
  message: string;
}

/** A line not applied because a later valid line names the same object or link. */
export interface SupersededLine {
  line: number;
  /** The line that was applied instead: the last valid one for that object or link. */
  by: number;
}

export interface ImportResult {
  imported: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: ImportError[];
  superseded: number;
  supersededLines: SupersededLine[];
}

/** The bounds of one import (docs/oms.md#import). The body itself is capped at 10 MiB in app.ts. */
export const IMPORT_LIMITS = {
  /** Non-empty lines in one request; more is refused whole with 413 before anything is written. */
  lines: 10_000,
  /** UTF-8 bytes of one line; a longer line fails and nothing of it is written. */
  lineBytes: 1024 * 1024,
  /** Properties named on one object line. */
  properties: 100,
  /** UTF-8 bytes of one extra property of a company or person (its name and its value as JSON). */
  extraPropertyBytes: 64 * 1024,
} as const;

const ObjectLine = z.strictObject({
  type: z.enum(OBJECT_TYPES.filter((t) => t !== 'brief') as ['company', 'person', 'source']),
  key: z.string(),
  properties: z.record(z.string(), z.unknown()).default({}),
});

const Endpoint = z.strictObject({ type: z.enum(OBJECT_TYPES), key: z.string() });
const LinkLine = z.strictObject({ link: z.enum(LINKS.map((l) => l.name) as [string, ...string[]]), from: Endpoint, to: Endpoint });

type Parsed = { kind: 'object'; write: ObjectWrite } | { kind: 'link'; write: LinkWrite };

/** The schema's data, or a LineError naming each offending field and what it allows. */
function check<S extends z.ZodType>(schema: S, value: unknown, what: string, prefix = ''): z.output<S> {
  const result = checkInput(schema, value, what, prefix);
  if (!result.success) throw new LineError(result.details.map((d) => d.message).join('; '));
  return result.data;
}

function normalizeKey(type: ObjectType, key: string, path: string): string {
  return check(KEY_SCHEMAS[type], key, path);
}

class LineError extends Error {}

const encoder = new TextEncoder();

function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

const number = (n: number) => n.toLocaleString('en-US');

/** Extra properties (beyond the type's own) are free-form, so each is bounded by size. */
function checkExtraProperties(type: ObjectType, properties: Record<string, unknown>): void {
  const known = Object.keys(PROPERTY_SCHEMAS[type].shape);
  for (const [name, value] of Object.entries(properties)) {
    if (known.includes(name)) continue;
    const bytes = utf8Bytes(name) + utf8Bytes(JSON.stringify(value));
    if (bytes > IMPORT_LIMITS.extraPropertyBytes) {
      const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
      throw new LineError(
        `properties.${shown}: ${number(bytes)} bytes as JSON; an extra property may be at most ${number(IMPORT_LIMITS.extraPropertyBytes)} bytes (64 KiB)`,
      );
    }
  }
}

/** Validates one NDJSON line into an object or link write; throws LineError with a readable reason. */
export function parseImportLine(text: string): Parsed {
  // A UTF-16 code unit takes at most 3 bytes in UTF-8, so most lines need no encoding to be measured.
  if (text.length * 3 > IMPORT_LIMITS.lineBytes) {
    const bytes = utf8Bytes(text);
    if (bytes > IMPORT_LIMITS.lineBytes) {
      throw new LineError(
        `line is ${number(bytes)} bytes; a line may be at most ${number(IMPORT_LIMITS.lineBytes)} bytes (1 MiB): shorten its properties`,
      );
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LineError('not valid JSON');
  }
  if (typeof value === 'object' && value !== null && 'link' in value) {
    const line = check(LinkLine, value, 'line');
    const definition = LINKS.find((l) => l.name === line.link)!;
    if (line.from.type !== definition.from || line.to.type !== definition.to) {
      throw new LineError(`link '${definition.name}' goes from a ${definition.from} to a ${definition.to}`);
    }
    return {
      kind: 'link',
      write: {
        link: definition.name,
        from: { type: definition.from, key: normalizeKey(definition.from, line.from.key, 'from.key') },
        to: { type: definition.to, key: normalizeKey(definition.to, line.to.key, 'to.key') },
      },
    };
  }
  const line = check(ObjectLine, value, 'line');
  const { type } = line;
  const key = normalizeKey(type, line.key, 'key');
  const count = Object.keys(line.properties).length;
  if (count > IMPORT_LIMITS.properties) {
    throw new LineError(`properties: ${number(count)} properties; an object may have at most ${IMPORT_LIMITS.properties} per line`);
  }
  const properties = check(PROPERTY_SCHEMAS[type], line.properties, 'properties', 'properties');
  if (type === 'source' && properties.url !== undefined) {
    const url = KEY_SCHEMAS.source.safeParse(properties.url);
    if (!url.success || url.data !== key) throw new LineError('properties.url: must be the same URL as key');
  }
  checkExtraProperties(type, properties);
  return { kind: 'object', write: { type, key, properties } };
}

interface PlannedWrite {
  line: number;
  parsed: Parsed;
  /** UTF-8 bytes of the write as JSON: what it adds to the statements of its chunk. */
  bytes: number;
}

/** What an import will write, once every line is parsed: the last valid line per object and per link. */
export interface ImportPlan {
  writes: PlannedWrite[];
  errors: ImportError[];
  supersededLines: SupersededLine[];
}

function identity(parsed: Parsed): string {
  const w = parsed.write;
  return 'link' in w ? ['link', w.link, w.from.type, w.from.key, w.to.type, w.to.key].join('\u001f') : ['object', w.type, w.key].join('\u001f');
}

/** Lines parsed and checked between two turns of the isolate's other requests. */
const PLAN_SLICE_LINES = 200;

function otherRequestsTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Parses every line of `ndjson` (no I/O; it lets other requests run every PLAN_SLICE_LINES lines).
 * A bad line becomes an error; of the valid lines naming one object (type and normalized key) or
 * one link, only the last is kept and the earlier ones are reported as superseded by it. Throws
 * payload_too_large past IMPORT_LIMITS.lines.
 */
export async function planImport(ndjson: string): Promise<ImportPlan> {
  const lines = ndjson.split('\n');
  let count = 0;
  for (const text of lines) if (text.trim()) count++;
  if (count > IMPORT_LIMITS.lines) {
    throw new DomainError(
      'payload_too_large',
      `The import has ${number(count)} lines; send at most ${number(IMPORT_LIMITS.lines)} per request and the rest in further requests. Nothing was written.`,
    );
  }
  const errors: ImportError[] = [];
  const latest = new Map<string, PlannedWrite>();
  const earlier = new Map<string, number[]>();
  for (let index = 0; index < lines.length; index++) {
    // A large body takes a while to read: the isolate's other requests get their turn between slices.
    if (index % PLAN_SLICE_LINES === PLAN_SLICE_LINES - 1) await otherRequestsTurn();
    const text = lines[index]!.trim();
    if (!text) continue;
    let parsed: Parsed;
    try {
      parsed = parseImportLine(text);
    } catch (error) {
      if (!(error instanceof LineError)) throw error;
      errors.push({ line: index + 1, error: 'invalid_input', message: error.message });
      continue;
    }
    const id = identity(parsed);
    const previous = latest.get(id);
    if (previous) {
      const lineNumbers = earlier.get(id);
      if (lineNumbers) lineNumbers.push(previous.line);
      else earlier.set(id, [previous.line]);
    }
    latest.set(id, { line: index + 1, parsed, bytes: utf8Bytes(JSON.stringify(parsed.write)) });
  }
  const supersededLines: SupersededLine[] = [];
  for (const [id, lineNumbers] of earlier) {
    const by = latest.get(id)!.line;
    for (const line of lineNumbers) supersededLines.push({ line, by });
  }
  supersededLines.sort((a, b) => a.line - b.line);
  const writes = [...latest.values()].sort((a, b) => a.line - b.line);
  return { writes, errors, supersededLines };
}

/** Writes per D1 transaction, and the UTF-8 bytes of new data they may carry together. */
export const CHUNK_WRITES = 500;
export const CHUNK_BYTES = 512 * 1024;

/** Splits writes into chunks of at most CHUNK_WRITES and CHUNK_BYTES (a larger write goes alone). */
export function chunkWrites(writes: readonly PlannedWrite[]): PlannedWrite[][] {
  const chunks: PlannedWrite[][] = [];
  let current: PlannedWrite[] = [];
  let bytes = 0;
  for (const write of writes) {
    if (current.length > 0 && (current.length >= CHUNK_WRITES || bytes + write.bytes > CHUNK_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(write);
    bytes += write.bytes;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/**
 * Imports NDJSON: one object or link per line, upserted by (type, key). Every line is parsed first;
 * a bad line is reported and skipped whole, and of several lines naming one object or link only the
 * last valid one is applied (the others are reported as superseded). The writes then go to D1 in
 * chunks (CHUNK_WRITES, CHUNK_BYTES), each chunk one transaction.
 */
/** An import body of more than this many characters is large: one organization runs one at a time. */
export const LARGE_IMPORT_CHARS = 1024 * 1024;
const largeImportsInWork = new Set<string>();

/**
 * Admits an import for the organization, or refuses a large one with 429 while another large import
 * of the organization is in work in this isolate (small ones always go): parsing and writing a large
 * body is the most CPU one request takes, and every other organization's requests on the isolate
 * wait for it (the load suite measured one organization's parallel 5 MiB imports taking the others'
 * p95 to three times what it was alone). Returns the release.
 */
function admitImport(organizationId: string, size: number): () => void {
  if (size <= LARGE_IMPORT_CHARS) return () => {};
  if (largeImportsInWork.has(organizationId)) {
    throw rateLimited(1, 'Another large import of your organization is in progress here; send this one when it ends (imports over 1 MiB run one at a time).');
  }
  largeImportsInWork.add(organizationId);
  return () => largeImportsInWork.delete(organizationId);
}

export async function importObjects(ctx: CoreContext, ndjson: string): Promise<ImportResult> {
  assertScope(ctx, 'oms:write');
  const release = admitImport(ctx.principal.organization.id, ndjson.length);
  try {
    return await importAdmitted(ctx, ndjson);
  } finally {
    release();
  }
}

async function importAdmitted(ctx: CoreContext, ndjson: string): Promise<ImportResult> {
  const plan = await planImport(ndjson);
  const result: ImportResult = {
    imported: 0,
    updated: 0,
    unchanged: 0,
    failed: plan.errors.length,
    errors: plan.errors,
    superseded: plan.supersededLines.length,
    supersededLines: plan.supersededLines,
  };
  const source = { kind: 'import' as const, id: randomId('imp') };
  for (const chunk of chunkWrites(plan.writes)) {
    const objects: { line: number; write: ObjectWrite }[] = [];
    const links: LinkWrite[] = [];
    for (const { line, parsed } of chunk) {
      if (parsed.kind === 'object') objects.push({ line, write: parsed.write });
      else links.push(parsed.write);
    }
    const outcome = await writeObjects(
      ctx.db,
      ctx.principal.organization.id,
      objects.map((o) => o.write),
      links,
      source,
    );
    outcome.objects.forEach((o, i) => {
      if (o !== 'too_large') return;
      const { line, write } = objects[i]!;
      result.failed++;
      result.errors.push({
        line,
        error: 'invalid_input',
        message: `with the properties already stored, ${write.type} ${write.key} would hold more than ${number(MAX_OBJECT_BYTES)} bytes (1.5 MiB), the most one object may hold; nothing of this line was written`,
      });
    });
    for (const o of [...outcome.objects, ...outcome.links]) {
      if (o === 'created') result.imported++;
      else if (o === 'updated') result.updated++;
      else if (o === 'unchanged') result.unchanged++;
    }
  }
  result.errors.sort((a, b) => a.line - b.line);
  return result;
}
