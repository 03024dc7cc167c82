import { addSources, AddSourcesInput, MAX_SOURCE_URLS } from '../../operations/add-sources.ts';
import type { ToolDefinition } from './registry.ts';

/** add-sources: POST /api/v1/oms/sources over the same operation, schema and limits. */
export const sourceTools: ToolDefinition[] = [
  {
    name: 'add-sources',
    title: 'Add sources by URL',
    description:
      `Fetches up to ${MAX_SOURCE_URLS} public web pages (HTML or plain text) and adds each to your knowledge base as a source, with its title and ` +
      'readable text, so research, competitors and audits can quote it. Returns { results: [{ url, status, key, title, bytes, error }] }: ' +
      'status imported (new or changed), unchanged, or failed with the reason (timeout, HTTP status, a refused redirect, a content type that ' +
      'is not a page). Only public http(s) addresses are fetched. Use it before research when a company has no sources yet.',
    input: AddSourcesInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    scope: 'oms:write',
    // Each call may fetch 20 pages (and their redirects): it spends from the commands budget, as research does.
    bucket: 'commands',
    async call(ctx, args) {
      const result = await addSources(ctx, args);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: { ...result } };
    },
  },
];
