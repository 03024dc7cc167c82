import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../env.ts';
import { addSources, AddSourcesInput, MAX_SOURCE_URLS } from '../operations/add-sources.ts';
import { readJsonObject } from './json-body.ts';
import { documentedBody, errors, json, KEYED } from './openapi-parts.ts';

/** POST /api/v1/oms/sources: a thin adapter over operations/add-sources.ts (scope oms:write). */
export const sources = new OpenAPIHono<AppEnv>();

const AddedSource = z
  .object({
    url: z.string().describe('The URL as it was sent.'),
    status: z
      .enum(['imported', 'unchanged', 'failed'])
      .describe('imported: the source was created, or its title or content changed; unchanged: it was already stored as read; failed: see error.'),
    key: z.string().optional().describe('The source key: the canonical URL the page was read from, after redirects.'),
    title: z.string().optional(),
    bytes: z.int().optional().describe('Body bytes read.'),
    truncated: z.literal(true).optional().describe('The text was over 200,000 characters and was cut at a line break.'),
    error: z.string().optional().describe('Why it failed: a timeout, a refused redirect, an HTTP status, a content type that is not HTML or plain text, ...'),
  })
  .openapi('AddedSource');

const AddSourcesResult = z.object({ results: z.array(AddedSource).describe('One per URL, in the order sent.') }).openapi('AddSourcesResult');

sources.openapi(
  createRoute({
    method: 'post',
    path: '/',
    operationId: 'addSources',
    summary: 'Add web pages to the knowledge base as sources, by URL',
    description:
      `Fetches 1 to ${MAX_SOURCE_URLS} pages (4 at a time; each within 10 s, at most 2 MiB and 5 redirects), extracts each page's title and readable text ` +
      '(scripts, styles and navigation left out; headings and paragraphs on their own lines) and imports it as a source object, as the NDJSON import ' +
      'would (provenance import, with the page URL). Only http(s) URLs of public hosts are fetched, and every redirect is checked again: a URL ' +
      'that is not one fails the request with 400 before anything is fetched; a redirect to one fails that URL alone. HTML and plain text only. ' +
      'The answer reports each URL: imported, unchanged or failed with the reason.',
    'x-required-scope': 'oms:write',
    request: {
      body: documentedBody(sources, 'AddSourcesRequest', AddSourcesInput, {
        required: true,
        example: { urls: ['https://acme.com/pricing', 'https://acme.com/blog/launch'] },
      }),
    },
    responses: { 200: json('What happened to each URL', AddSourcesResult), ...errors(400, ...KEYED, 413) },
  }),
  async (c) => c.json(await addSources(c.var.core, await readJsonObject(c)), 200),
);
