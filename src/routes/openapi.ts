import { Hono } from 'hono';
import { z } from 'zod';
import { ERROR_STATUS } from '../core/errors.ts';
import type { AppEnv } from '../env.ts';
import { commandOperations } from './commands.ts';
import { healthOperations } from './health.ts';
import { mcpOperations } from './mcp.ts';
import { objectOperations } from './objects.ts';
import type { ApiOperation } from './openapi-types.ts';
import { profileOperations } from './profile.ts';
import { runOperations } from './runs.ts';

export const openapiOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'openapi',
    summary: 'This OpenAPI 3.1 document',
    auth: 'key',
    responses: { 200: { description: 'The document', contentType: 'application/json' } },
  },
];

/** Every documented operation; a route that is served but missing here fails a test. */
export const API_OPERATIONS: ApiOperation[] = [
  ...healthOperations,
  ...openapiOperations,
  ...commandOperations,
  ...profileOperations,
  ...objectOperations,
  ...runOperations,
  ...mcpOperations,
];

const ErrorResponse = z.object({
  error: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]),
  message: z.string().describe('One sentence a person can act on.'),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  requestId: z.string().optional().describe('The X-Request-Id of the failed request.'),
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid_input: malformed JSON or invalid arguments (details name each field)',
  401: 'unauthorized: missing, invalid or revoked API key',
  403: 'access_denied: the key lacks the scope this operation needs',
  404: 'not_found',
  413: 'payload_too_large: body over 256 KiB (10 MiB for imports)',
  428: 'onboarding_required: finish the sales profile first',
  429: 'rate_limited: see Retry-After',
  500: 'internal',
  504: 'timeout: the audit is still running after AUDIT_WAIT_TIMEOUT_MS; X-Run-Id names it',
};

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

function errorCodesOf(operation: ApiOperation): number[] {
  if (operation.auth === 'public') return [];
  const codes = operation.scope ? [401, 403, 429, 500] : [401, 429, 500];
  if (operation.requestBody) codes.push(400, 413);
  if (operation.path.startsWith('/api/v1/commands/')) codes.push(404, 428);
  if (operation.path.includes('{id}') || operation.path === '/api/v1/audit') codes.push(404);
  if (operation.operationId === 'startAudit') codes.push(428, 504);
  return codes.sort();
}

function operationObject(operation: ApiOperation): JsonSchema {
  const responses: JsonSchema = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] = {
      description: response.description,
      content: {
        [response.contentType ?? 'application/json']: response.schema
          ? { schema: schemaOf(response.schema, 'output') }
          : { schema: { type: 'string' } },
      },
    };
  }
  for (const status of errorCodesOf(operation)) {
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    ...(operation.auth === 'public' ? { security: [] } : {}),
    ...(operation.scope ? { 'x-required-scope': operation.scope } : {}),
    ...(operation.requestBody
      ? {
          requestBody: {
            required: true,
            content: {
              [operation.requestBody.contentType ?? 'application/json']: {
                schema: schemaOf(operation.requestBody.schema, 'input'),
                ...(operation.requestBody.example !== undefined ? { example: operation.requestBody.example } : {}),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the REST API, generated from the same zod schemas the routes use. */
export function buildOpenApiDocument(operations: readonly ApiOperation[] = API_OPERATIONS): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const operation of operations) {
    paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Recon API',
      version: '1.0.0',
      description: 'Research and audit commands for go-to-market teams. Errors are JSON: { error, message, details? }.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: rk_live_...' } },
      schemas: { Error: schemaOf(ErrorResponse, 'output') },
    },
  };
}

let document: JsonSchema | undefined;

export const openapi = new Hono<AppEnv>().get('/', (c) => {
  document ??= buildOpenApiDocument();
  return c.json(document);
});
