import { z } from '../../ground/schemas/openapi.ts';
import { OBJECT_TYPES } from '../../oms/object-types.ts';
import { defineOperation, type Effects } from '../definition.ts';
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
} from './oms-reads.ts';

const ObjectType = z.enum(OBJECT_TYPES);

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
  .object({ kind: z.enum(['import', 'research', 'watch', 'action', 'site-read']), id: z.string(), url: z.string().optional() })
  .openapi('OmsSource');

const Metadata = z
  .object({
    version: z.int(),
    objectTypes: z.array(
      z.object({
        type: ObjectType,
        displayName: z.string(),
        key: z.string().describe('What the key is and how it is normalized.'),
        properties: z.array(
          z.object({ name: z.string(), type: z.string(), description: z.string(), orderable: z.boolean().describe('Whether a search may order by it (orderBy).') }),
        ),
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

const READ_ONLY: Effects = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const MetadataInput = z.strictObject({});

/** The OMS reads: metadata, search, pivot, get and provenance (scope oms:read), at /api/v1/oms and as oms-* tools. */
export const OMS_READ_OPERATIONS = [
  defineOperation({
    id: 'oms-metadata',
    scope: 'oms:read',
    bucket: 'reads',
    input: MetadataInput,
    output: Metadata,
    errors: [],
    effects: READ_ONLY,
    freshness: 'recent',
    run: async (ctx) => getMetadata(ctx),
    rest: {
      method: 'get',
      path: '/oms/metadata',
      operationId: 'getOmsMetadata',
      summary: 'The object types, their keys, properties and links',
      input: { from: 'none' },
      answer: { kind: 'json', status: 200, description: 'The OMS metadata' },
    },
    mcp: {
      title: 'OMS metadata',
      description:
        'Lists the object types of your knowledge base (company, person, source, brief): each one\'s key, its properties (name, type, description) ' +
        'and the links you can follow from it with oms-pivot. Call it first to know what oms-search can filter and order on.',
    },
  }),
  defineOperation({
    id: 'oms-search',
    scope: 'oms:read',
    bucket: 'reads',
    input: SearchInput,
    inputName: 'request body',
    output: ObjectPage,
    errors: ['invalid_input'],
    effects: READ_ONLY,
    freshness: 'recent',
    run: searchOmsObjects,
    rest: {
      method: 'post',
      path: '/oms/objects/search',
      operationId: 'searchOmsObjects',
      summary: 'Search objects of one type by text and property filters',
      description:
        'Pages are keyset-ordered by orderBy then key; a pageToken is only accepted with the same type, query, filters and orderBy. ' +
        'Conditions without an index (query words, contains, neq, other properties) are tested on at most 2,000 objects per page: ' +
        'a page may then be short or empty with a nextPageToken; follow it until it is null to see every match.',
      input: {
        from: 'body',
        name: 'OmsSearch',
        required: true,
        example: { type: 'company', query: 'analytics', filters: [{ property: 'name', op: 'contains', value: 'acme' }], pageSize: 25 },
      },
      answer: { kind: 'json', status: 200, description: 'A page of objects' },
    },
    mcp: {
      pages: { size: 'pageSize', items: 'objects' },
      title: 'Search objects',
      description:
        'Finds objects of one type by words (query) and property filters, e.g. {"type": "company", "query": "analytics"} or ' +
        '{"type": "source", "filters": [{"property": "publishedAt", "op": "gte", "value": "2026-05-01"}], "orderBy": {"property": "publishedAt", "direction": "desc"}}. ' +
        'Returns { objects, nextPageToken }; pass nextPageToken back as pageToken, with the same arguments, for the next page. ' +
        'A page may be short or empty while nextPageToken is not null (each page examines at most 2,000 objects): keep following it until null.',
    },
  }),
  defineOperation({
    id: 'oms-pivot',
    scope: 'oms:read',
    bucket: 'reads',
    input: PivotInput,
    inputName: 'request body',
    output: ObjectPage,
    errors: ['invalid_input', 'not_found'],
    effects: READ_ONLY,
    freshness: 'recent',
    run: pivotOmsObjects,
    rest: {
      method: 'post',
      path: '/oms/objects/pivot',
      operationId: 'pivotOmsObjects',
      summary: 'Follow a link from one object, either way',
      input: { from: 'body', name: 'OmsPivot', required: true, example: { type: 'company', key: 'acme.com', link: 'competitors' } },
      answer: { kind: 'json', status: 200, description: 'A page of linked objects, by key' },
    },
    mcp: {
      pages: { size: 'pageSize', items: 'objects' },
      title: 'Follow a link',
      description:
        'Follows a link from one object, either way: {"type": "company", "key": "acme.com", "link": "competitors"} gives its competitors, ' +
        '"competitorOf" the companies that name it a competitor; "briefs" the briefs about it; from a brief, "cites" its sources. ' +
        'Returns { objects, nextPageToken } in key order.',
    },
  }),
  defineOperation({
    id: 'oms-get',
    scope: 'oms:read',
    bucket: 'reads',
    input: GetObjectInput,
    inputName: 'request body',
    output: OmsObject,
    errors: ['invalid_input', 'not_found'],
    effects: READ_ONLY,
    freshness: 'recent',
    run: getOmsObject,
    rest: {
      method: 'post',
      path: '/oms/objects/get',
      operationId: 'getOmsObject',
      summary: 'One object by type and key',
      input: { from: 'body', name: 'OmsObjectRef', required: true, example: { type: 'company', key: 'acme.com' } },
      answer: { kind: 'json', status: 200, description: 'The object' },
    },
    mcp: {
      title: 'Get object',
      description: 'Reads one object by type and key (a company by its domain, e.g. {"type": "company", "key": "acme.com"}): its properties, createdAt, updatedAt and version.',
    },
  }),
  defineOperation({
    id: 'oms-provenance',
    scope: 'oms:read',
    bucket: 'reads',
    input: ProvenanceInput,
    inputName: 'request body',
    output: Provenance,
    errors: ['invalid_input', 'not_found'],
    effects: READ_ONLY,
    freshness: 'recent',
    run: getOmsProvenance,
    rest: {
      method: 'post',
      path: '/oms/objects/provenance',
      operationId: 'getOmsProvenance',
      summary: "Where an object's properties and links came from, and its history",
      input: { from: 'body', name: 'OmsProvenanceRequest', required: true, example: { type: 'company', key: 'acme.com' } },
      answer: { kind: 'json', status: 200, description: 'The provenance' },
    },
    mcp: {
      title: 'Object provenance',
      description:
        "Says where an object's data came from: each property's source (import, research, watch or action, with its id), its links both ways, " +
        'and its latest changes (history, newest first). Use it to check a fact before quoting it.',
    },
  }),
];
