import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Json;
}
interface Response {
  description: string;
  headers?: Record<string, { schema: Json; required?: boolean }>;
  content?: Record<string, { schema: Json }>;
}
interface Operation {
  operationId: string;
  parameters?: (Parameter | typeof BOOKMARK_PARAMETER)[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Response>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; parameters?: Record<string, Parameter & { description?: string }> };
}

/** The request header of read-your-writes, one parameter component every operation names. */
const BOOKMARK_PARAMETER = { $ref: '#/components/parameters/Bookmark' };

/** An operation's parameters but the bookmark header every operation has. */
const ownParameters = (op: Operation) => (op.parameters ?? []).filter((p): p is Parameter => !('$ref' in p));

async function served(): Promise<OpenApiDocument> {
  const response = await call('/api/v1/openapi.json');
  expect(response.status).toBe(200);
  return response.json<OpenApiDocument>();
}

const operation = (document: OpenApiDocument, path: string, method: string) => {
  const found = document.paths[path]?.[method];
  expect(found, `${method} ${path}`).toBeDefined();
  return found!;
};

/** Served routes that the document leaves out on purpose, each with its reason. */
const UNDOCUMENTED = new Map([
  ['get /healthz', 'liveness for operators and load balancers; answers only 200'],
  ['get /api/v1/openapi.json', 'the document itself'],
  ['get /api/v1/docs', 'the HTML reference of the document'],
  ['get /api/mcp', 'only ever 405'],
  ['delete /api/mcp', 'only ever 405'],
  ['get /bot', "the site reader's page for site owners (HTML), not part of the API"],
  ['get /bot.txt', 'the same page as plain text'],
]);

describe('GET /api/v1/openapi.json', () => {
  it('is served without a key, as OpenAPI 3.1 whose request schemas are the zod schemas the core validates with', async () => {
    const document = await served();
    expect(document.openapi).toBe('3.1.0');
    const research = operation(document, '/api/v1/commands/research', 'post').requestBody?.content['application/json']?.schema;
    expect(research).toEqual({ $ref: '#/components/schemas/ResearchInput' });
    expect(document.components.schemas.ResearchInput).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['topic'],
      properties: { topic: { type: 'string', minLength: 1, maxLength: 500 }, tier: { enum: ['lite', 'base'], default: 'lite' } },
    });
  });

  it('documents every route the app serves, and serves every documented route', async () => {
    const document = await served();
    const toHono = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
    const documented = new Set(Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${toHono(path)}`)));
    const routes = new Set(
      app.routes
        // The dashboard's HTML pages (src/dashboard/) are for people in a browser, not part of the REST API.
        .filter((route) => route.method !== 'ALL' && !route.path.endsWith('*') && !route.path.startsWith('/dashboard'))
        .map((route) => `${route.method.toLowerCase()} ${route.path}`),
    );
    expect(routes.size).toBeGreaterThan(10);
    for (const route of routes) {
      if (UNDOCUMENTED.has(route)) continue;
      expect(documented.has(route), `${route} is served but not in the OpenAPI document`).toBe(true);
    }
    for (const route of documented) expect(routes.has(route), `${route} is documented but not served`).toBe(true);
    for (const route of UNDOCUMENTED.keys()) {
      expect(routes.has(route), `${route} is no longer served`).toBe(true);
      expect(documented.has(route), `${route} is documented after all`).toBe(false);
    }
  });

  it('declares path and query parameters, with the allowed values', async () => {
    const document = await served();
    const poll = operation(document, '/api/v1/runs/{kind}/{id}', 'get');
    expect(poll.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'kind', in: 'path', required: true, schema: expect.objectContaining({ enum: ['gtm-audit', 'audit', 'site-read'] }) }),
        expect.objectContaining({ name: 'id', in: 'path', required: true }),
      ]),
    );
    const list = operation(document, '/api/v1/runs', 'get');
    const query = Object.fromEntries(ownParameters(list).map((p) => [p.name, p]));
    expect(Object.keys(query).sort()).toEqual(['cursor', 'kind', 'limit', 'status']);
    expect(query.kind).toMatchObject({ in: 'query', required: false, schema: { enum: ['gtm-audit', 'audit', 'site-read'] } });
    expect(query.status).toMatchObject({ in: 'query', required: false, schema: { enum: ['running', 'completed', 'failed', 'cancelled'] } });
    expect(query.limit).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    expect(ownParameters(operation(document, '/api/v1/audit', 'get'))).toEqual([expect.objectContaining({ name: 'id', in: 'query', required: true })]);
    const [wait, ...others] = ownParameters(operation(document, '/api/v1/audit', 'post'));
    expect(others).toEqual([]);
    expect(wait).toMatchObject({ name: 'wait', in: 'query', required: false });
    expect((wait?.schema.enum as string[]).sort()).toEqual(['0', '1', 'false', 'true']);
  });

  it('declares X-Recon-Bookmark on every operation: a request header and a header of each of its responses', async () => {
    const document = await served();
    expect(document.components.parameters?.Bookmark).toMatchObject({ name: 'X-Recon-Bookmark', in: 'header', required: false, schema: { $ref: '#/components/schemas/Bookmark' } });
    expect(document.components.schemas.Bookmark).toMatchObject({ type: 'string', maxLength: 128, pattern: '^[0-9a-f]+(?:-[0-9a-f]+)*$' });
    for (const [path, methods] of Object.entries(document.paths)) {
      if (path === '/api/mcp') continue; // MCP carries the bookmark in _meta (src/mcp/bookmark.ts)
      for (const [method, op] of Object.entries(methods)) {
        expect(op.parameters, `${method} ${path}`).toContainEqual(BOOKMARK_PARAMETER);
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.headers?.['X-Recon-Bookmark'], `${method} ${path} ${status}`).toMatchObject({ required: false, schema: { maxLength: 128 } });
        }
      }
    }
  });

  it('declares the headers of every response: run headers, Retry-After, WWW-Authenticate and X-Request-Id', async () => {
    const document = await served();
    const started = operation(document, '/api/v1/commands/gtm-audit', 'post').responses['202']!;
    expect(Object.keys(started.headers ?? {}).sort()).toEqual(['Location', 'X-Audit-Id', 'X-Recon-Bookmark', 'X-Request-Id', 'X-Run-Id', 'X-Run-Status']);
    expect(started.headers?.['X-Run-Status']?.schema).toMatchObject({ enum: ['running', 'completed', 'failed', 'cancelled'] });
    const polled = operation(document, '/api/v1/runs/{kind}/{id}', 'get').responses['200']!;
    expect(polled.headers?.['Retry-After']).toMatchObject({ required: false });
    expect(polled.content).toHaveProperty(['text/markdown']);
    const timeout = operation(document, '/api/v1/audit', 'post').responses['504']!;
    expect(timeout.headers).toHaveProperty('X-Run-Id');

    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const where = `${method} ${path} ${status}`;
          expect(response.headers?.['X-Request-Id'], where).toBeDefined();
          if (status === '429') expect(response.headers?.['Retry-After'], where).toMatchObject({ required: true });
          if (status === '401') expect(response.headers?.['WWW-Authenticate'], where).toBeDefined();
          if (Number(status) >= 400 && path !== '/api/mcp') {
            expect(response.content?.['application/json']?.schema, where).toEqual({ $ref: '#/components/schemas/Error' });
          }
        }
      }
    }
  });

  it('documents the error statuses each operation can answer', async () => {
    const document = await served();
    const statuses = (path: string, method: string) => Object.keys(operation(document, path, method).responses).sort();
    expect(statuses('/api/v1/commands/research', 'post')).toEqual(['200', '400', '401', '403', '413', '428', '429', '500']);
    expect(statuses('/api/v1/commands/help', 'post')).toEqual(['200', '400', '401', '403', '413', '429', '500']);
    expect(statuses('/api/v1/commands/audit', 'post')).toEqual(['202', '400', '401', '403', '413', '428', '429', '500']);
    expect(statuses('/api/v1/runs/{kind}/{id}', 'delete')).toEqual(['200', '401', '403', '404', '429', '500']);
    expect(statuses('/api/v1/audit', 'post')).toEqual(['200', '202', '400', '401', '403', '413', '428', '429', '500', '504']);
  });
});

describe('GET /api/v1/docs', () => {
  it('serves the interactive reference of the document, without a key', async () => {
    const response = await call('/api/v1/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('/api/v1/openapi.json');
    // Its language, for screen readers (WCAG 3.1.1): the library leaves the root element bare.
    expect(html).toMatch(/^<!doctype html>\s*<html lang="en">/i);
    expect(html.match(/<html\b/gi)).toHaveLength(1);
  });
});

describe('parameters the route validates', () => {
  it('are refused in the documented error shape, worded as the core words arguments', async () => {
    const org = await createOrganization();
    const missing = await call('/api/v1/audit', { key: org.key });
    expect(missing.status).toBe(400);
    const body = await missing.json<{ error: string; message: string; details: unknown[]; requestId: string }>();
    expect(body).toMatchObject({ error: 'invalid_input', details: [{ path: 'id', message: expect.stringContaining('required') }] });
    expect(body.message).toMatch(/^Invalid query: id is required: the audit id from X-Audit-Id/);
    expect(body.requestId).toBe(missing.headers.get('X-Request-Id'));

    const wait = await call('/api/v1/audit?wait=maybe', { key: org.key, body: {} });
    expect(wait.status).toBe(400);
    expect(await wait.json()).toMatchObject({ error: 'invalid_input', details: [{ path: 'wait' }] });
  });
});
