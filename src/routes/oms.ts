import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../env.ts';
import {
  getMetadata,
  getOmsObject,
  getOmsProvenance,
  GetObjectInput,
  pivotOmsObjects,
  PivotInput,
  ProvenanceInput,
  searchOmsObjects,
  SearchInput,
} from '../operations/oms-reads.ts';
import { readJsonObject } from './json-body.ts';
import { documentedBody, errors, json, KEYED } from './openapi-parts.ts';

/** The OMS reads under /api/v1/oms: thin adapters over operations/oms-reads.ts (scope oms:read). */
export const oms = new OpenAPIHono<AppEnv>();

const ObjectType = z.enum(['company', 'person', 'source', 'brief']);

const OmsObject = z
  .object({
    type: ObjectType,
    key: z.string().describe('The public key: a company domain, a lower-cased email, a source URL or a brief id.'),
    properties: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.int().describe('Counts changes: 1 when created.'),
  })
  .openapi('OmsObject');

const ObjectPage = z
  .object({ objects: z.array(OmsObject), nextPageToken: z.string().nullable().describe('Send it back as pageToken for the next page; null at the end.') })
  .openapi('OmsObjectPage');

const Source = z
  .object({ kind: z.enum(['import', 'research', 'watch', 'action']), id: z.string(), url: z.string().optional() })
  .openapi('OmsSource');

const Metadata = z
  .object({
    version: z.int(),
    objectTypes: z.array(
      z.object({
        type: ObjectType,
        displayName: z.string(),
        key: z.string().describe('What the key is and how it is normalized.'),
        properties: z.array(z.object({ name: z.string(), type: z.string(), description: z.string() })),
        links: z.array(z.object({ name: z.string(), targetType: ObjectType, cardinality: z.enum(['one', 'many']) })),
      }),
    ),
  })
  .openapi('OmsMetadata');

const Provenance = z
  .object({
    properties: z.array(z.object({ name: z.string(), value: z.unknown(), source: Source, updatedAt: z.string() })).describe('By name, at most 200.'),
    relationships: z
      .array(z.object({ link: z.string(), targetType: ObjectType, targetKey: z.string(), source: Source, createdAt: z.string() }))
      .describe('Links both ways (inverse names for links pointing at the object), newest first, at most 100.'),
    history: z
      .array(z.object({ at: z.string(), property: z.string(), from: z.unknown(), to: z.unknown(), source: Source }))
      .describe('Property changes, newest first, at most 100.'),
  })
  .openapi('OmsProvenance');

oms.openapi(
  createRoute({
    method: 'get',
    path: '/metadata',
    operationId: 'getOmsMetadata',
    summary: 'The object types, their keys, properties and links',
    'x-required-scope': 'oms:read',
    responses: { 200: json('The OMS metadata', Metadata), ...errors(...KEYED) },
  }),
  (c) => c.json(getMetadata(c.var.core), 200),
);

oms.openapi(
  createRoute({
    method: 'post',
    path: '/objects/search',
    operationId: 'searchOmsObjects',
    summary: 'Search objects of one type by text and property filters',
    description:
      'Pages are keyset-ordered by orderBy then key; a pageToken is only accepted with the same type, query, filters and orderBy. ' +
      'Conditions without an index (query words, contains, neq, other properties) are tested on at most 2,000 objects per page: ' +
      'a page may then be short or empty with a nextPageToken; follow it until it is null to see every match.',
    'x-required-scope': 'oms:read',
    request: {
      body: documentedBody(oms, 'OmsSearch', SearchInput, {
        required: true,
        example: { type: 'company', query: 'analytics', filters: [{ property: 'name', op: 'contains', value: 'acme' }], pageSize: 25 },
      }),
    },
    responses: { 200: json('A page of objects', ObjectPage), ...errors(400, ...KEYED) },
  }),
  async (c) => c.json(await searchOmsObjects(c.var.core, await readJsonObject(c)), 200),
);

oms.openapi(
  createRoute({
    method: 'post',
    path: '/objects/pivot',
    operationId: 'pivotOmsObjects',
    summary: 'Follow a link from one object, either way',
    'x-required-scope': 'oms:read',
    request: {
      body: documentedBody(oms, 'OmsPivot', PivotInput, { required: true, example: { type: 'company', key: 'acme.com', link: 'competitors' } }),
    },
    responses: { 200: json('A page of linked objects, by key', ObjectPage), ...errors(400, ...KEYED, 404) },
  }),
  async (c) => c.json(await pivotOmsObjects(c.var.core, await readJsonObject(c)), 200),
);

oms.openapi(
  createRoute({
    method: 'post',
    path: '/objects/get',
    operationId: 'getOmsObject',
    summary: 'One object by type and key',
    'x-required-scope': 'oms:read',
    request: { body: documentedBody(oms, 'OmsObjectRef', GetObjectInput, { required: true, example: { type: 'company', key: 'acme.com' } }) },
    responses: { 200: json('The object', OmsObject), ...errors(400, ...KEYED, 404) },
  }),
  async (c) => c.json(await getOmsObject(c.var.core, await readJsonObject(c)), 200),
);

oms.openapi(
  createRoute({
    method: 'post',
    path: '/objects/provenance',
    operationId: 'getOmsProvenance',
    summary: "Where an object's properties and links came from, and its history",
    'x-required-scope': 'oms:read',
    request: { body: documentedBody(oms, 'OmsProvenanceRequest', ProvenanceInput, { required: true, example: { type: 'company', key: 'acme.com' } }) },
    responses: { 200: json('The provenance', Provenance), ...errors(400, ...KEYED, 404) },
  }),
  async (c) => c.json(await getOmsProvenance(c.var.core, await readJsonObject(c)), 200),
);
