import { z } from 'zod';
import { getObject, INDEXED_PROPERTIES, pivotObjects, readProvenance, searchObjects, type SearchPosition, type SearchText, type StoredObject } from '../../db/objects.ts';
import type { CoreContext } from '../../ground/context.ts';
import { DomainError } from '../../ground/errors.ts';
import { readPageToken, signPageToken } from '../../ground/page-token.ts';
import { assertScope } from '../../ground/scopes.ts';
import { toBase64, toHex } from '../../ground/encoding.ts';
import { sha256 } from '../../ground/sha256.ts';
import { checkInput } from '../../ground/validation.ts';
import {
  KEY_SCHEMAS,
  LINKS,
  linksOf,
  METADATA_VERSION,
  OBJECT_TYPES,
  PROPERTY_INFO,
  TYPE_INFO,
  type ObjectType,
  type PropertyInfo,
} from '../../oms/object-types.ts';
import type { WriteSource } from '../../oms/store.ts';
import { columnMatch, columnPhrase, hasSearchTerms } from '../../research/fts-query.ts';

/**
 * The OMS reads: metadata, search, pivot, get and provenance. Each is one
 * function both doors call, declared in ./oms-read-operations.ts, validating with the schema beside
 * it; every read needs the `oms:read` scope and sees only the caller's organization.
 */

/** An object as every read answers it. */
export type ObjectView = StoredObject & { type: ObjectType };

/** Rows of the registry's types only: every writer validates the type against OBJECT_TYPES. */
const asView = (object: StoredObject) => object as ObjectView;

const ObjectTypeField = z.enum(OBJECT_TYPES).describe('The object type: company, person, source or brief.');
const KeyField = z
  .string()
  .min(1)
  .max(2048)
  .describe('The public key: a company domain (acme.com), a lower-cased email, a source URL, or a brief id. Normalized as on import.');
const PageSize = z.int().min(1).max(100).default(25).describe('Objects per page, 1 to 100 (default 25).');
const PageToken = z.string().min(1).max(1024).describe('The nextPageToken of the previous page, with the same request otherwise.');

// ---------------------------------------------------------------------------------------------
// metadata

export interface Metadata {
  version: number;
  objectTypes: {
    type: ObjectType;
    displayName: string;
    key: string;
    properties: { name: string; type: string; description: string; orderable: boolean }[];
    links: { name: string; targetType: ObjectType; cardinality: 'many' }[];
  }[];
}

function propertiesOf(type: ObjectType): [string, PropertyInfo][] {
  return Object.entries(PROPERTY_INFO[type]);
}

/** GET /api/v1/oms/metadata and oms-metadata: the types, keys, properties and links, from the registry that validates writes. */
export function getMetadata(ctx: CoreContext): Metadata {
  assertScope(ctx, 'oms:read');
  return {
    version: METADATA_VERSION,
    objectTypes: OBJECT_TYPES.map((type) => ({
      type,
      ...TYPE_INFO[type],
      properties: propertiesOf(type).map(([name, info]) => ({ name, type: info.type, description: info.description, orderable: Object.hasOwn(INDEXED_PROPERTIES, name) })),
      // The store does not limit how many objects one link reaches, either way.
      links: linksOf(type).map((view) => ({ name: view.name, targetType: view.targetType, cardinality: 'many' as const })),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// get

export const GetObjectInput = z.strictObject({ type: ObjectTypeField, key: KeyField });

/** The normalized key of `type` (as import normalizes it); 400 naming the key's rule otherwise. */
function normalizeKey(type: ObjectType, key: string): string {
  const result = checkInput(KEY_SCHEMAS[type], key, 'key', 'key');
  if (result.success) return result.data;
  throw new DomainError('invalid_input', `Invalid key of a ${type}: ${result.details.map((d) => d.message).join('; ')}.`, { details: result.details });
}

function notFound(type: string, key: string): DomainError {
  return new DomainError('not_found', `No ${type} with key ${key} in your organization; search for it with POST /api/v1/oms/objects/search.`);
}

/** POST /api/v1/oms/objects/get and oms-get. */
export async function getOmsObject(ctx: CoreContext, input: z.output<typeof GetObjectInput>): Promise<ObjectView> {
  assertScope(ctx, 'oms:read');
  const key = normalizeKey(input.type, input.key);
  const object = await getObject(ctx.db, ctx.principal.organization.id, input.type, key);
  if (!object) throw notFound(input.type, key);
  return asView(object);
}

// ---------------------------------------------------------------------------------------------
// search

const FILTER_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in'] as const;
const Scalar = z.union([z.string().max(2048), z.number(), z.boolean()]);
const ORDER_COLUMNS = ['key', 'updatedAt', 'createdAt'] as const;
/** At most this many words of a query (the longest kept, see fts-query.ts). */
const MAX_QUERY_LENGTH = 500;

export const SearchInput = z.strictObject({
  type: ObjectTypeField,
  query: z
    .string()
    .trim()
    .min(1)
    .max(MAX_QUERY_LENGTH)
    .optional()
    .describe(
      "Words to find in the type's text properties (all of them): sources are searched in their indexed title and content " +
        '(word stems: "price" finds "pricing"); other types by substring in name, domain, description, email, title, topic or markdown.',
    ),
  filters: z
    .array(
      z.strictObject({
        property: z.string().min(1).max(100).describe('A property of the type (see metadata).'),
        op: z.enum(FILTER_OPS).describe('eq, neq (also matches objects without the property), gt, gte, lt, lte, contains (substring, any case) or in.'),
        value: z.union([Scalar, z.array(Scalar).min(1).max(100)]).describe('A string, number or boolean; for in, a list of 1 to 100 of them.'),
      }),
    )
    .max(10)
    .default([])
    .describe('Up to 10 conditions, all of which must hold.'),
  orderBy: z
    .strictObject({
      property: z.string().min(1).max(100).describe('key, updatedAt, createdAt, or a property of the type that metadata marks orderable (an indexed one: name, domain, publishedAt).'),
      direction: z.enum(['asc', 'desc']).default('asc'),
    })
    .default({ property: 'key', direction: 'asc' })
    .describe('The order of the results (default: key ascending); ties are ordered by key.'),
  pageSize: PageSize,
  pageToken: PageToken.optional(),
});
export type SearchInput = z.input<typeof SearchInput>;

export interface ObjectPage {
  objects: ObjectView[];
  nextPageToken: string | null;
}

function invalid(path: string, message: string): DomainError {
  return new DomainError('invalid_input', `Invalid request body: ${message}.`, { details: [{ path, message }] });
}

function checkProperty(type: ObjectType, property: string, path: string): void {
  if (!Object.hasOwn(PROPERTY_INFO[type], property)) {
    const allowed = Object.keys(PROPERTY_INFO[type]).join(', ');
    throw invalid(path, `${path} '${property}' is not a property of a ${type}; use one of: ${allowed}`);
  }
}

/** A name for the page-token list of this exact search, so a token is refused by any other search. */
async function searchListName(type: string, identity: unknown): Promise<string> {
  return `oms-search:${type}:${toHex((await sha256(JSON.stringify(identity))).subarray(0, 16))}`;
}

const SearchPositionToken = z.tuple([z.union([z.string(), z.number()]), z.string()]);

/**
 * POST /api/v1/oms/objects/search and oms-search: the type's objects that match the query and
 * every filter, in the requested order, a page at a time.
 */
export async function searchOmsObjects(ctx: CoreContext, input: z.output<typeof SearchInput>): Promise<ObjectPage> {
  assertScope(ctx, 'oms:read');
  const { type } = input;
  input.filters.forEach((filter, i) => {
    checkProperty(type, filter.property, `filters.${i}.property`);
    const many = Array.isArray(filter.value);
    if ((filter.op === 'in') !== many) {
      throw invalid(`filters.${i}.value`, `filters.${i}.value must be ${many ? `a single value for ${filter.op}` : 'a list of values for in'}`);
    }
  });
  const orderable = orderableBy(type);
  if (!orderable.includes(input.orderBy.property)) {
    throw invalid('orderBy.property', `orderBy.property '${input.orderBy.property}' cannot order a ${type}; use one of: ${orderable.join(', ')}`);
  }
  const organizationId = ctx.principal.organization.id;
  const text = input.query === undefined ? undefined : searchText(organizationId, type, input.query);
  const scope = { organizationId, list: await searchListName(type, [input.query ?? null, input.filters, input.orderBy]) };
  const after = input.pageToken ? await readPageToken(ctx.env, input.pageToken, scope, SearchPositionToken, 'pageToken') : undefined;
  const { rows, resumeAfter } = await searchObjects(ctx.db, {
    organizationId,
    type,
    text,
    filters: input.filters,
    orderBy: input.orderBy.property,
    direction: input.orderBy.direction,
    after,
    limit: input.pageSize + 1,
  });
  const page = rows.slice(0, input.pageSize);
  const last = page.at(-1);
  return {
    objects: page.map((row) => asView(row.object)),
    nextPageToken: await nextSearchToken(ctx, scope, rows.length > input.pageSize && last ? [last.sortValue, last.object.key] : resumeAfter),
  };
}

/** The orders a search of `type` takes: key, the timestamps, and the type's properties that have an index. */
function orderableBy(type: ObjectType): string[] {
  return [...ORDER_COLUMNS, ...Object.keys(PROPERTY_INFO[type]).filter((name) => Object.hasOwn(INDEXED_PROPERTIES, name))];
}

async function nextSearchToken(ctx: CoreContext, scope: { organizationId: string; list: string }, position: SearchPosition | null): Promise<string | null> {
  return position ? signPageToken(ctx.env, scope, position) : null;
}

/** How the query text is looked for: sources in the FTS5 passage index, other types by substring in their searchable properties. */
function searchText(organizationId: string, type: ObjectType, query: string): SearchText {
  const words = query.split(/\s+/).filter(Boolean);
  if (type === 'source') {
    if (!hasSearchTerms(words)) throw invalid('query', 'query has no letters or digits to search for');
    const match = `${columnPhrase('organization_id', organizationId.replace(/_/g, ''))} AND ${columnMatch('{title text}', words, 'AND')}`;
    return { kind: 'passages', match };
  }
  const properties = propertiesOf(type)
    .filter(([, info]) => info.searchable)
    .map(([name]) => name);
  return { kind: 'words', words: [...new Set(words.map((w) => w.toLowerCase()))].slice(0, 16), properties };
}

// ---------------------------------------------------------------------------------------------
// pivot

export const PivotInput = z.strictObject({
  type: ObjectTypeField,
  key: KeyField,
  link: z
    .string()
    .min(1)
    .max(100)
    .describe(
      `The link to follow, either way: ${LINKS.map((l) => `${l.from}.${l.name} (to ${l.to}; back: ${l.to}.${l.inverse})`).join(', ')}.`,
    ),
  pageSize: PageSize,
  pageToken: PageToken.optional(),
});
export type PivotInput = z.input<typeof PivotInput>;

const PivotPosition = z.tuple([z.string()]);

/** POST /api/v1/oms/objects/pivot and oms-pivot: the objects a link reaches from one object, in key order. */
export async function pivotOmsObjects(ctx: CoreContext, input: z.output<typeof PivotInput>): Promise<ObjectPage> {
  assertScope(ctx, 'oms:read');
  const view = linksOf(input.type).find((l) => l.name === input.link);
  if (!view) {
    const allowed = linksOf(input.type).map((l) => l.name).join(', ');
    throw invalid('link', `link '${input.link}' is not a link of a ${input.type}; use one of: ${allowed}`);
  }
  const key = normalizeKey(input.type, input.key);
  const organizationId = ctx.principal.organization.id;
  const identity = await sha256(key);
  const scope = { organizationId, list: `oms-pivot:${input.type}:${view.name}:${toBase64(identity.subarray(0, 16))}` };
  const after = input.pageToken ? (await readPageToken(ctx.env, input.pageToken, scope, PivotPosition, 'pageToken'))[0] : undefined;
  const { origin, objects } = await pivotObjects(ctx.db, {
    organizationId,
    link: view.link.name,
    forward: view.forward,
    type: input.type,
    key,
    targetType: view.targetType,
    after,
    limit: input.pageSize + 1,
  });
  if (!origin) throw notFound(input.type, key);
  const page = objects.slice(0, input.pageSize);
  const last = page.at(-1);
  return { objects: page.map(asView), nextPageToken: objects.length > input.pageSize && last ? await signPageToken(ctx.env, scope, [last.key]) : null };
}

// ---------------------------------------------------------------------------------------------
// provenance

export const ProvenanceInput = GetObjectInput;

interface SourceView {
  kind: WriteSource['kind'];
  id: string;
  url?: string;
}

export interface Provenance {
  properties: { name: string; value: unknown; source: SourceView; updatedAt: string }[];
  relationships: { link: string; targetType: ObjectType; targetKey: string; source: SourceView; createdAt: string }[];
  history: { at: string; property: string; from: unknown; to: unknown; source: SourceView }[];
}

function parsed(json: string | null): unknown {
  return json === null ? null : JSON.parse(json);
}

/**
 * POST /api/v1/oms/objects/provenance and oms-provenance: where each current property came from,
 * the object's links both ways (inverse names for links that point at it), and its latest changes.
 * Each list is bounded (db/objects.ts PROVENANCE_LIMITS: 200 properties by name, the newest 100
 * links, the newest 100 history entries).
 */
export async function getOmsProvenance(ctx: CoreContext, input: z.output<typeof ProvenanceInput>): Promise<Provenance> {
  assertScope(ctx, 'oms:read');
  const key = normalizeKey(input.type, input.key);
  const stored = await readProvenance(ctx.db, ctx.principal.organization.id, input.type, key);
  if (!stored.object) throw notFound(input.type, key);
  const properties = stored.object.properties;
  return {
    properties: stored.properties.map((p) => ({
      name: p.name,
      value: properties[p.name] ?? null,
      source: { kind: p.kind as SourceView['kind'], id: p.id, ...(p.url ? { url: p.url } : {}) },
      updatedAt: p.updatedAt,
    })),
    relationships: stored.relationships.map((r) => ({
      link: r.forward ? r.link : (LINKS.find((l) => l.name === r.link)?.inverse ?? r.link),
      targetType: r.type as ObjectType,
      targetKey: r.key,
      source: { kind: r.kind as SourceView['kind'], id: r.id },
      createdAt: r.createdAt,
    })),
    history: stored.history.map((h) => ({ at: h.at, property: h.property, from: parsed(h.from), to: parsed(h.to), source: { kind: h.kind as SourceView['kind'], id: h.id } })),
  };
}
