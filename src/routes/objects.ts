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
});

export const objectOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/api/v1/oms/objects/import',
    operationId: 'importObjects',
    summary: 'Bulk upsert objects and links from NDJSON (one per line); bad lines are reported and skipped',
    description:
      'Lines: {"type":"source","key":"https://acme.com/pricing","properties":{"title":"...","publishedAt":"2026-05-01","content":"..."}} ' +
      'or {"link":"competitors","from":{"type":"company","key":"acme.com"},"to":{"type":"company","key":"globex.com"}}. Up to 10 MiB.',
    auth: 'key',
    scope: 'oms:write',
    requestBody: { schema: z.string().describe('NDJSON'), contentType: 'application/x-ndjson' },
    responses: { 200: { description: 'What was applied', contentType: 'application/json', schema: ImportResult } },
  },
];
