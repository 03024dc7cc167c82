import { z } from 'zod';
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
} from '../../operations/oms-reads.ts';
import { parseInput } from '../../ground/validation.ts';
import type { ToolDefinition } from './registry.ts';

/** A read's answer: the REST JSON body as text (byte for byte), and the same object as structured content. */
function jsonResult(value: object) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(value) }], structuredContent: { ...value } };
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const MetadataInput = z.strictObject({});

/** The OMS reads: the same operations (and zod schemas) as /api/v1/oms/metadata and /api/v1/oms/objects/{search,pivot,get,provenance}. */
export const omsTools: ToolDefinition[] = [
  {
    name: 'oms-metadata',
    title: 'OMS metadata',
    description:
      'Lists the object types of your knowledge base (company, person, source, brief): each one\'s key, its properties (name, type, description) ' +
      'and the links you can follow from it with oms-pivot. Call it first to know what oms-search can filter and order on.',
    input: MetadataInput,
    annotations: READ_ONLY,
    scope: 'oms:read',
    bucket: 'reads',
    async call(ctx, args) {
      parseInput(MetadataInput, args, 'arguments of oms-metadata');
      return jsonResult(getMetadata(ctx));
    },
  },
  {
    name: 'oms-search',
    title: 'Search objects',
    description:
      'Finds objects of one type by words (query) and property filters, e.g. {"type": "company", "query": "analytics"} or ' +
      '{"type": "source", "filters": [{"property": "publishedAt", "op": "gte", "value": "2026-05-01"}], "orderBy": {"property": "publishedAt", "direction": "desc"}}. ' +
      'Returns { objects, nextPageToken }; pass nextPageToken back as pageToken, with the same arguments, for the next page. ' +
      'A page may be short or empty while nextPageToken is not null (each page examines at most 2,000 objects): keep following it until null.',
    input: SearchInput,
    annotations: READ_ONLY,
    scope: 'oms:read',
    bucket: 'reads',
    async call(ctx, args) {
      return jsonResult(await searchOmsObjects(ctx, args));
    },
  },
  {
    name: 'oms-pivot',
    title: 'Follow a link',
    description:
      'Follows a link from one object, either way: {"type": "company", "key": "acme.com", "link": "competitors"} gives its competitors, ' +
      '"competitorOf" the companies that name it a competitor; "briefs" the briefs about it; from a brief, "cites" its sources. ' +
      'Returns { objects, nextPageToken } in key order.',
    input: PivotInput,
    annotations: READ_ONLY,
    scope: 'oms:read',
    bucket: 'reads',
    async call(ctx, args) {
      return jsonResult(await pivotOmsObjects(ctx, args));
    },
  },
  {
    name: 'oms-get',
    title: 'Get object',
    description: 'Reads one object by type and key (a company by its domain, e.g. {"type": "company", "key": "acme.com"}): its properties, createdAt, updatedAt and version.',
    input: GetObjectInput,
    annotations: READ_ONLY,
    scope: 'oms:read',
    bucket: 'reads',
    async call(ctx, args) {
      return jsonResult(await getOmsObject(ctx, args));
    },
  },
  {
    name: 'oms-provenance',
    title: 'Object provenance',
    description:
      "Says where an object's data came from: each property's source (import, research, watch or action, with its id), its links both ways, " +
      'and its latest changes (history, newest first). Use it to check a fact before quoting it.',
    input: ProvenanceInput,
    annotations: READ_ONLY,
    scope: 'oms:read',
    bucket: 'reads',
    async call(ctx, args) {
      return jsonResult(await getOmsProvenance(ctx, args));
    },
  },
];
