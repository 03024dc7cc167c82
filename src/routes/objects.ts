import { Hono } from 'hono';
import { z } from 'zod';
import { DomainError } from '../core/errors.ts';
import type { AppEnv } from '../env.ts';
import { importObjects } from '../oms/import.ts';
import type { ApiOperation } from './openapi-types.ts';

const NDJSON_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/json-lines', 'text/plain'];

export const objects = new Hono<AppEnv>().post('/import', async (c) => {
  const type = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase();
  if (type && !NDJSON_TYPES.includes(type)) {
    throw new DomainError('invalid_input', `Send the import as Content-Type: application/x-ndjson (one JSON object per line), not ${type}.`);
  }
  // Decoded by hand: workerd warns when .text() reads a body whose type is not text/*.
  const body = new TextDecoder().decode(await c.req.arrayBuffer());
  return c.json(await importObjects(c.var.core, body));
});

const ImportResult = z.object({
  imported: z.int().describe('Objects and links created.'),
  updated: z.int().describe('Objects whose properties changed.'),
  unchanged: z.int(),
  failed: z.int().describe('Lines skipped whole; see errors.'),
  errors: z.array(z.object({ line: z.int(), error: z.string(), message: z.string() })),
  superseded: z.int().describe('Valid lines not applied because a later valid line names the same object (type and key) or link.'),
  supersededLines: z
    .array(z.object({ line: z.int(), by: z.int().describe('The line applied instead: the last valid one for that object or link.') }))
    .describe('Each superseded line, in line order.'),
});

export const objectOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/api/v1/oms/objects/import',
    operationId: 'importObjects',
    summary: 'Bulk upsert objects and links from NDJSON (one per line); bad lines are reported and skipped, repeated keys applied once',
    description:
      'Lines: {"type":"source","key":"https://acme.com/pricing","properties":{"title":"...","publishedAt":"2026-05-01","content":"..."}} ' +
      'or {"link":"competitors","from":{"type":"company","key":"acme.com"},"to":{"type":"company","key":"globex.com"}}. ' +
      'Limits: 10 MiB per body and 10,000 non-empty lines (over either: 413, nothing written); 1 MiB per line, 100 properties ' +
      'per object line and 64 KiB per extra company or person property (a line over these fails alone). When several lines name ' +
      'one object or link, only the last valid one is applied; the others are listed in supersededLines.',
    auth: 'key',
    scope: 'oms:write',
    requestBody: { schema: z.string().describe('NDJSON'), contentType: 'application/x-ndjson' },
    responses: { 200: { description: 'What was applied', contentType: 'application/json', schema: ImportResult } },
  },
];
