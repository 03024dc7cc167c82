import { z } from 'zod';
import type { CoreContext } from '../core/context.ts';
import { randomId } from '../auth/api-key.ts';
import { assertScope } from '../core/scopes.ts';
import { KEY_SCHEMAS, LINKS, OBJECT_TYPES, PROPERTY_SCHEMAS, type ObjectType } from './object-types.ts';
import { writeObjects, type LinkWrite, type ObjectWrite } from './store.ts';

/** One line the import could not apply; the line was skipped whole. */
export interface ImportError {
  line: number;
  error: 'invalid_input';
  message: string;
}

export interface ImportResult {
  imported: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: ImportError[];
}

const ObjectLine = z.strictObject({
  type: z.enum(OBJECT_TYPES.filter((t) => t !== 'brief') as ['company', 'person', 'source']),
  key: z.string(),
  properties: z.record(z.string(), z.unknown()).default({}),
});

const Endpoint = z.strictObject({ type: z.enum(OBJECT_TYPES), key: z.string() });
const LinkLine = z.strictObject({ link: z.enum(LINKS.map((l) => l.name) as [string, ...string[]]), from: Endpoint, to: Endpoint });

type Parsed = { kind: 'object'; write: ObjectWrite } | { kind: 'link'; write: LinkWrite };

function describe(error: z.ZodError, prefix: string[] = []): string {
  return error.issues
    .map((issue) => {
      const path = [...prefix, ...issue.path.map(String)].join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function normalizeKey(type: ObjectType, key: string, path: string): string {
  const result = KEY_SCHEMAS[type].safeParse(key);
  if (!result.success) throw new LineError(`${path}: ${describe(result.error)}`);
  return result.data;
}

class LineError extends Error {}

/** Validates one NDJSON line into an object or link write; throws LineError with a readable reason. */
export function parseImportLine(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LineError('not valid JSON');
  }
  if (typeof value === 'object' && value !== null && 'link' in value) {
    const line = LinkLine.safeParse(value);
    if (!line.success) throw new LineError(describe(line.error));
    const definition = LINKS.find((l) => l.name === line.data.link)!;
    if (line.data.from.type !== definition.from || line.data.to.type !== definition.to) {
      throw new LineError(`link '${definition.name}' goes from a ${definition.from} to a ${definition.to}`);
    }
    return {
      kind: 'link',
      write: {
        link: definition.name,
        from: { type: definition.from, key: normalizeKey(definition.from, line.data.from.key, 'from.key') },
        to: { type: definition.to, key: normalizeKey(definition.to, line.data.to.key, 'to.key') },
      },
    };
  }
  const line = ObjectLine.safeParse(value);
  if (!line.success) throw new LineError(describe(line.error));
  const { type } = line.data;
  const key = normalizeKey(type, line.data.key, 'key');
  const properties = PROPERTY_SCHEMAS[type].safeParse(line.data.properties);
  if (!properties.success) throw new LineError(describe(properties.error, ['properties']));
  if (type === 'source' && properties.data.url !== undefined) {
    const url = KEY_SCHEMAS.source.safeParse(properties.data.url);
    if (!url.success || url.data !== key) throw new LineError('properties.url: must be the same URL as key');
  }
  return { kind: 'object', write: { type, key, properties: properties.data } };
}

const CHUNK_LINES = 100;
const CHUNK_BYTES = 512 * 1024;

/**
 * Imports NDJSON: one object or link per line, upserted by (type, key). A bad line is reported and
 * skipped whole; good lines are applied in chunks, each chunk one D1 transaction.
 */
export async function importObjects(ctx: CoreContext, ndjson: string): Promise<ImportResult> {
  assertScope(ctx, 'oms:write');
  const result: ImportResult = { imported: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
  const source = { kind: 'import' as const, id: randomId('imp') };
  let objects: ObjectWrite[] = [];
  let links: LinkWrite[] = [];
  let keys = new Set<string>();
  let bytes = 0;

  const flush = async () => {
    if (objects.length === 0 && links.length === 0) return;
    const outcome = await writeObjects(ctx.env.DB, ctx.principal.organization.id, objects, links, source);
    for (const o of [...outcome.objects, ...outcome.links]) {
      if (o === 'created') result.imported++;
      else if (o === 'updated') result.updated++;
      else result.unchanged++;
    }
    objects = [];
    links = [];
    keys = new Set();
    bytes = 0;
  };

  const lines = ndjson.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!.trim();
    if (!text) continue;
    let parsed: Parsed;
    try {
      parsed = parseImportLine(text);
    } catch (error) {
      if (!(error instanceof LineError)) throw error;
      result.failed++;
      result.errors.push({ line: index + 1, error: 'invalid_input', message: error.message });
      continue;
    }
    if (parsed.kind === 'object') {
      const id = `${parsed.write.type}\u001f${parsed.write.key}`;
      // A key seen twice is applied in order: the second write starts a new chunk.
      if (keys.has(id)) await flush();
      keys.add(id);
      objects.push(parsed.write);
    } else {
      links.push(parsed.write);
    }
    bytes += text.length;
    if (objects.length + links.length >= CHUNK_LINES || bytes >= CHUNK_BYTES) await flush();
  }
  await flush();
  return result;
}
