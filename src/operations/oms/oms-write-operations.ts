import { MAX_IMPORT_BYTES } from '../../ground/body-limits.ts';
import { z } from '../../ground/schemas/openapi.ts';
import { IMPORT_LIMITS, importObjects } from '../../oms/import.ts';
import { addSources, AddSourcesInput, addSourcesInputFor, MAX_SOURCE_URLS } from './add-sources.ts';
import { defineOperation } from '../definition.ts';
import { RunStartOutput } from '../commands/command-outputs.ts';
import { getSiteReadSettings, putSiteReadSettings, readSite, ReadSiteInput, SiteReadSettingsInput } from './site-reads.ts';
import { DEFAULT_PAGE_BUDGET, MAX_PAGE_BUDGET } from '../../sites/frontier.ts';
import { commandToolAnswer } from '../commands/command-operations.ts';
import { createWebhookSecret, WebhookSecretInput } from './webhook-secret.ts';

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

const ImportResult = z
  .object({
    imported: z.int().describe('Objects and links created.'),
    updated: z.int().describe('Objects whose properties changed.'),
    unchanged: z.int(),
    failed: z.int().describe('Lines skipped whole; see errors.'),
    errors: z.array(z.object({ line: z.int(), error: z.string(), message: z.string() })),
    superseded: z.int().describe('Valid lines not applied because a later valid line names the same object (type and key) or link.'),
    supersededLines: z
      .array(z.object({ line: z.int(), by: z.int().describe('The line applied instead: the last valid one for that object or link.') }))
      .describe('Each superseded line, in line order.'),
  })
  .openapi('ImportResult');

/**
 * import-objects takes the NDJSON as a string. The MCP request body is limited to 256 KiB (413
 * over it), so the tool is for small imports; REST takes the NDJSON itself as the body, up to 10
 * MiB. The same core applies the same per-line and per-object limits to both.
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

const SiteReadSettings = z
  .object({
    pagesPerRead: z.int().describe('Pages a site read requests when its request names none (reads on onboarding and before watches too).'),
    pagesPerReadIsDefault: z.boolean().describe('True when no setting is stored and pagesPerRead is the default.'),
    pagesPerDay: z.int().describe("The deployment's limit of pages fetched per organization per UTC day."),
    pagesFetchedToday: z.int().describe("Pages the organization's site reads fetched today (UTC); a 304 Not Modified is not counted."),
  })
  .openapi('SiteReadSettings');

const WebhookSecret = z
  .object({
    secret: z
      .string()
      .describe('whsec_ followed by base64 of 32 random bytes. Shown only now: store it where your receiver verifies webhook-signature.'),
    createdAt: z.string().describe('When this secret was made; it signs every webhook from now on.'),
  })
  .openapi('WebhookSecret');

/** OMS writes: the NDJSON import, sources added by URL, and the webhook signing secret (scope oms:write). */
export const OMS_WRITE_OPERATIONS = [
  defineOperation({
    id: 'import-objects',
    scope: 'oms:write',
    bucket: 'reads',
    input: ImportObjectsInput,
    output: ImportResult,
    errors: ['invalid_input', 'payload_too_large'],
    effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (ctx, { ndjson }) => importObjects(ctx, ndjson),
    rest: {
      method: 'post',
      path: '/oms/objects/import',
      operationId: 'importObjects',
      // Whole documents, so a larger bound than every other route's.
      maxBodyBytes: MAX_IMPORT_BYTES,
      summary: 'Bulk upsert objects and links from NDJSON',
      description:
        'One object or link per line; bad lines are reported and skipped, repeated keys applied once. ' +
        'Lines: {"type":"source","key":"https://acme.com/pricing","properties":{"title":"...","publishedAt":"2026-05-01","content":"..."}} ' +
        'or {"link":"competitors","from":{"type":"company","key":"acme.com"},"to":{"type":"company","key":"globex.com"}}. ' +
        'Limits: 10 MiB per body and 10,000 non-empty lines (over either: 413, nothing written); 1 MiB per line, 100 properties ' +
        'per object line and 64 KiB per extra company or person property (a line over these fails alone). When several lines name ' +
        'one object or link, only the last valid one is applied; the others are listed in supersededLines.' +
        ' Content-Type: application/x-ndjson (application/jsonl, application/json-lines and text/plain are taken too).',
      input: {
        from: 'text',
        field: 'ndjson',
        contentTypes: ['application/x-ndjson', 'application/jsonl', 'application/json-lines', 'text/plain'],
        wrongType: (type) => `Send the import as Content-Type: application/x-ndjson (one JSON object per line), not ${type}.`,
        schema: z.string().describe('NDJSON: one JSON object per line.'),
        example:
          '{"type":"source","key":"https://acme.com/pricing","properties":{"title":"Pricing","publishedAt":"2026-05-01","content":"Acme costs $49 a seat."}}\n' +
          '{"link":"competitors","from":{"type":"company","key":"acme.com"},"to":{"type":"company","key":"globex.com"}}\n',
      },
      answer: { kind: 'json', status: 200, description: 'What was applied' },
    },
    mcp: {
      title: 'Import objects',
      description:
        'Loads companies, people, sources (dated pages whose sentences research and audits quote) and links into your knowledge base, ' +
        'upserting by type and key; a bad line is reported and skipped whole, and of several lines naming one object only the last is applied. ' +
        'Returns the counts (imported, updated, unchanged, failed) and each failed line with its reason. Import sources before research, ' +
        'so briefs have something to cite.',
    },
  }),
  defineOperation({
    id: 'add-sources',
    scope: 'oms:write',
    bucket: 'commands',
    input: AddSourcesInput,
    inputFor: (ctx) => addSourcesInputFor(ctx.env),
    inputName: 'request body',
    output: AddSourcesResult,
    errors: ['invalid_input', 'payload_too_large'],
    effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: (ctx, input) => addSources(ctx, input),
    rest: {
      method: 'post',
      path: '/oms/sources',
      operationId: 'addSources',
      summary: 'Add web pages to the knowledge base as sources, by URL',
      description:
        `Fetches 1 to ${MAX_SOURCE_URLS} pages (4 at a time; each within 10 s, at most 2 MiB and 5 redirects), extracts each page's title and readable text ` +
        '(scripts, styles and navigation left out; headings and paragraphs on their own lines) and imports it as a source object, as the NDJSON import ' +
        'would (provenance import, with the page URL). Only http(s) URLs of public hosts are fetched, and every redirect is checked again: a URL ' +
        'that is not one fails the request with 400 before anything is fetched; a redirect to one fails that URL alone. HTML and plain text only. ' +
        'The answer reports each URL: imported, unchanged or failed with the reason.',
      input: { from: 'body', name: 'AddSourcesRequest', required: true, example: { urls: ['https://acme.com/pricing', 'https://acme.com/blog/launch'] } },
      answer: { kind: 'json', status: 200, description: 'What happened to each URL' },
    },
    mcp: {
      title: 'Add sources by URL',
      description:
        `Fetches up to ${MAX_SOURCE_URLS} public web pages (HTML or plain text) and adds each to your knowledge base as a source, with its title and ` +
        'readable text, so research, competitors and audits can quote it. Returns { results: [{ url, status, key, title, bytes, error }] }: ' +
        'status imported (new or changed), unchanged, or failed with the reason (timeout, HTTP status, a refused redirect, a content type that ' +
        'is not a page). Only public http(s) addresses are fetched. Use it before research when a company has no sources yet.',
    },
  }),
  defineOperation({
    id: 'read-site',
    scope: 'oms:write',
    bucket: 'commands',
    input: ReadSiteInput,
    inputName: 'request body',
    errors: ['invalid_input', 'rate_limited'],
    effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: (ctx, input) => readSite(ctx, input),
    rest: {
      method: 'post',
      path: '/oms/sites',
      operationId: 'readSite',
      summary: "Read a company's public site into the knowledge base (a site-read run)",
      description:
        'Starts a site-read run: robots.txt first (ReconBot, else *; Disallow, Allow and Crawl-delay honoured), then its sitemaps and the links of the ' +
        `pages read, same site only (the domain and its www.), the pages a GTM team needs first (home, pricing, product, about, customers, news, ...), up to ` +
        `pages (default ${DEFAULT_PAGE_BUDGET}, at most ${MAX_PAGE_BUDGET}). At most 2 requests in flight and at least 1 s (or the Crawl-delay) between them. ` +
        "Each page read becomes a source (provenance site-read, the run id, the URL) and the domain's company is created or named. A later read sends " +
        'conditional requests: 304 costs nothing, a changed page is re-indexed with history, a page gone (404/410) is marked. One read per domain at a ' +
        'time: a second request answers the running read. Poll the run at Location.',
      input: { from: 'body', name: 'ReadSiteRequest', required: true, example: { domain: 'globex.com' } },
      answer: { kind: 'command', mode: 'async' },
    },
    mcp: {
      title: "Read a company's site",
      description:
        "Reads a company's public website (robots.txt honoured, sitemaps and same-site links, the pages a GTM team needs first: pricing, product, about, " +
        `customers, news, careers...) and adds each page to your knowledge base as a source, up to pages (default ${DEFAULT_PAGE_BUDGET}, at most ${MAX_PAGE_BUDGET}). ` +
        'Returns a run id at once; poll it with run-status {"kind": "site-read", "id": ...} for the report (pages new, changed, unchanged, skipped and ' +
        'failed, with reasons). Use it before research or competitors when a company has no sources yet; a re-read finds what changed.',
      startsRun: true,
      answer: commandToolAnswer,
      outputSchema: RunStartOutput,
    },
  }),
  defineOperation({
    id: 'site-read-settings',
    scope: ['oms:read', 'oms:write'],
    bucket: 'reads',
    input: z.strictObject({}),
    output: SiteReadSettings,
    errors: [],
    effects: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (ctx) => getSiteReadSettings(ctx),
    rest: {
      method: 'get',
      path: '/oms/sites/settings',
      operationId: 'getSiteReadSettings',
      summary: "The organization's site-read settings and today's page count",
      input: { from: 'none' },
      answer: { kind: 'json', status: 200, description: 'The settings' },
    },
    mcp: {
      title: 'Site-read settings',
      description:
        "Your organization's site-read settings: pagesPerRead (the pages a read requests when read-site names none; reads on onboarding and before " +
        "watches use it too), and the day's page limit with the pages fetched today (UTC; a 304 is not counted).",
    },
  }),
  defineOperation({
    id: 'set-site-read-settings',
    scope: 'oms:write',
    bucket: 'reads',
    input: SiteReadSettingsInput,
    inputName: 'request body',
    output: SiteReadSettings,
    errors: ['invalid_input'],
    effects: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (ctx, input) => putSiteReadSettings(ctx, input),
    rest: {
      method: 'put',
      path: '/oms/sites/settings',
      operationId: 'putSiteReadSettings',
      summary: "Set the organization's page budget per site read",
      description: `Replaces the settings: pagesPerRead, 1 to ${MAX_PAGE_BUDGET}, or null for the default (${DEFAULT_PAGE_BUDGET}).`,
      input: { from: 'body', name: 'SiteReadSettingsRequest', required: true, example: { pagesPerRead: 200 } },
      answer: { kind: 'json', status: 200, description: 'The settings now' },
    },
    mcp: {
      title: 'Set site-read settings',
      description: `Sets the pages a site read requests when read-site names none (and for reads on onboarding and before watches): pagesPerRead, 1 to ${MAX_PAGE_BUDGET}, or null for the default (${DEFAULT_PAGE_BUDGET}).`,
    },
  }),
  defineOperation({
    id: 'create-webhook-secret',
    scope: 'oms:write',
    bucket: 'reads',
    input: WebhookSecretInput,
    inputName: 'request body',
    output: WebhookSecret,
    errors: ['invalid_input', 'payload_too_large'],
    effects: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: (ctx) => createWebhookSecret(ctx),
    rest: {
      method: 'post',
      path: '/oms/webhooks/secret',
      operationId: 'createWebhookSecret',
      summary: "Create or rotate the organization's webhook signing secret",
      description:
        'Watch webhooks are signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature: v1, HMAC-SHA256 with this secret). ' +
        'Creates the secret, or replaces the current one, which stops signing at once (retries of earlier deliveries are signed with the new one). ' +
        'The answer is the only time the secret is shown; no endpoint reads it back. Send no body, or {}.',
      input: { from: 'body', name: 'WebhookSecretRequest', example: {} },
      answer: {
        kind: 'json',
        status: 201,
        description: 'The new secret',
        headers: { 'Cache-Control': { value: 'no-store', description: 'no-store: the secret must not be cached.' } },
      },
    },
  }),
];
