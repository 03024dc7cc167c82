import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { DomainError } from '../ground/errors.ts';
import type { AppEnv } from '../env.ts';
import { importObjects } from '../oms/import.ts';
import { errors, json, KEYED } from './openapi-parts.ts';

const NDJSON_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/json-lines', 'text/plain'];

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

export const objects = new OpenAPIHono<AppEnv>();

objects.openapi(
  createRoute({
    method: 'post',
    path: '/import',
    operationId: 'importObjects',
    summary: 'Bulk upsert objects and links from NDJSON',
    description:
      'One object or link per line; bad lines are reported and skipped, repeated keys applied once. ' +
      'Lines: {"type":"source","key":"https://acme.com/pricing","properties":{"title":"...","publishedAt":"2026-05-01","content":"..."}} ' +
      'or {"link":"competitors","from":{"type":"company","key":"acme.com"},"to":{"type":"company","key":"globex.com"}}. ' +
      'Limits: 10 MiB per body and 10,000 non-empty lines (over either: 413, nothing written); 1 MiB per line, 100 properties ' +
      'per object line and 64 KiB per extra company or person property (a line over these fails alone). When several lines name ' +
      'one object or link, only the last valid one is applied; the others are listed in supersededLines.' +
      ' Content-Type: application/x-ndjson (application/jsonl, application/json-lines and text/plain are taken too).',
    'x-required-scope': 'oms:write',
    request: {
      body: {
        required: true,
        content: {
          'application/x-ndjson': {
            schema: z.string().describe('NDJSON: one JSON object per line.'),
            example:
              '{"type":"source","key":"https://acme.com/pricing","properties":{"title":"Pricing","publishedAt":"2026-05-01","content":"Acme costs $49 a seat."}}\n' +
              '{"link":"competitors","from":{"type":"company","key":"acme.com"},"to":{"type":"company","key":"globex.com"}}\n',
          },
        },
      },
    },
    responses: {
      200: json('What was applied', ImportResult.openapi('ImportResult')),
      ...errors(400, ...KEYED, 413),
    },
  }),
  async (c) => {
    const type = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase();
    if (type && !NDJSON_TYPES.includes(type)) {
      throw new DomainError('invalid_input', `Send the import as Content-Type: application/x-ndjson (one JSON object per line), not ${type}.`);
    }
    // Decoded by hand: workerd warns when .text() reads a body whose type is not text/*.
    const body = new TextDecoder().decode(await c.req.arrayBuffer());
    return c.json(await importObjects(c.var.core, body), 200);
  },
);
