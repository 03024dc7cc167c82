import { z } from 'zod';
import { parseInput } from '../../ground/validation.ts';
import { IMPORT_LIMITS, importObjects } from '../../oms/import.ts';
import type { ToolDefinition } from './registry.ts';

/**
 * import-objects takes the NDJSON as a string. The MCP request body is limited to 256 KiB (413
 * over it), so this is for small imports; the same core applies the same per-line and per-object
 * limits as POST /api/v1/oms/objects/import, which takes up to 10 MiB.
 */
export const ImportObjectsInput = z.strictObject({
  ndjson: z
    .string()
    .describe(
      'NDJSON: one JSON object per line (separate lines with \\n). A source: {"type":"source","key":"https://acme.com/pricing",' +
        '"properties":{"title":"Acme pricing","publishedAt":"2026-05-01","content":"Acme costs $49 per seat."}}; a company: ' +
        '{"type":"company","key":"acme.com","properties":{"name":"Acme"}}; a link: {"link":"competitors","from":{"type":"company",' +
        `"key":"acme.com"},"to":{"type":"company","key":"globex.com"}}. The whole request must stay under 256 KiB and ${IMPORT_LIMITS.lines.toLocaleString('en-US')} lines; ` +
        'for more, use POST /api/v1/oms/objects/import (10 MiB).',
    ),
});

/** import-objects: POST /api/v1/oms/objects/import for small loads, over the same core and limits. */
export const objectTools: ToolDefinition[] = [
  {
    name: 'import-objects',
    title: 'Import objects',
    description:
      'Loads companies, people, sources (dated pages whose sentences research and audits quote) and links into your knowledge base, ' +
      'upserting by type and key; a bad line is reported and skipped whole, and of several lines naming one object only the last is applied. ' +
      'Returns the counts (imported, updated, unchanged, failed) and each failed line with its reason. Import sources before research, ' +
      'so briefs have something to cite.',
    input: ImportObjectsInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: 'oms:write',
    bucket: 'reads',
    async call(ctx, args) {
      const { ndjson } = parseInput(ImportObjectsInput, args, 'arguments of import-objects');
      const result = await importObjects(ctx, ndjson);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: { ...result } };
    },
  },
];
