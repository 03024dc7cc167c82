import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import { API_OPERATIONS } from '../../src/routes/openapi.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>>;
}

/** Hono's `/api/v1/commands/:command` matches the document's `/api/v1/commands/research`, etc. */
function matches(route: string, documented: string): boolean {
  const pattern = new RegExp('^' + route.replace(/:[^/]+/g, '[^/]+').replace(/\/$/, '') + '$');
  return pattern.test(documented);
}

describe('GET /api/v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document whose request schemas are the zod schemas the routes use', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/openapi.json', { key: org.key });
    expect(response.status).toBe(200);
    const document = await response.json<OpenApiDocument>();
    expect(document.openapi).toBe('3.1.0');
    const research = document.paths['/api/v1/commands/research']?.post?.requestBody?.content['application/json']?.schema;
    expect(research).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['topic'],
      properties: { topic: { type: 'string', minLength: 1, maxLength: 500 }, tier: { enum: ['lite', 'base'], default: 'lite' } },
    });
  });

  it('documents every route the app serves, and serves every documented route', () => {
    const served = app.routes
      .filter((route) => route.method !== 'ALL' && !route.path.endsWith('*'))
      .map((route) => ({ method: route.method.toLowerCase(), path: route.path }));
    expect(served.length).toBeGreaterThan(0);
    for (const route of served) {
      const documented = API_OPERATIONS.some((op) => op.method === route.method && matches(route.path, op.path));
      expect(documented, `${route.method} ${route.path} is served but not in the OpenAPI document`).toBe(true);
    }
    for (const op of API_OPERATIONS) {
      const isServed = served.some((route) => route.method === op.method && matches(route.path, op.path));
      expect(isServed, `${op.method} ${op.path} is documented but not served`).toBe(true);
    }
  });
});
