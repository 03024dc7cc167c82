import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { DomainError, ERROR_STATUS } from '../ground/errors.ts';
import type { AppEnv } from '../env.ts';
import type { CommandResult } from '../operations/definition.ts';
import { MAX_BODY_BYTES } from '../ground/body-limits.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { callOperation } from '../operations/call.ts';
import { EVERY_OPERATION_ERRORS, type OperationDefinition, type RestAnswer, type RestBinding } from '../operations/definition.ts';
import type { RunView } from '../operations/runs/runs.ts';
import { commandResponse, runResponse } from './answers.ts';
import { readJsonObject } from './json-body.ts';
import { bookmarkRequestHeader, documentedBody, errors, headers, json, markdown, POLLED, POLLED_HEADERS, STARTED, withBookmarkHeader, type ErrorStatus } from './openapi-parts.ts';

/**
 * The REST door of the operations: each operation with a `rest` binding becomes one route under
 * /api/v1 and one entry of the OpenAPI document, both from its declaration. The handler calls the
 * operation through callOperation, which spends the rate bucket the operation declares before it
 * reads anything, then has the arguments read from where the binding says, within the body limit it
 * declares (413 over it), and calls the core (scope, then arguments, then the work: the order MCP
 * follows too); the handler writes the answer and adds nothing else. The bucket and the limit are
 * the route's own: no table of paths decides them.
 */
export function mountOperations(app: OpenAPIHono<AppEnv>, operations: readonly OperationDefinition[]): void {
  for (const operation of operations) {
    if (!operation.rest) continue;
    const rest = operation.rest;
    app.openAPIRegistry.registerPath(documentedRoute(app, operation, rest));
    const readInput = inputReader(operation, rest);
    const bounded = limitBody(rest.maxBodyBytes ?? MAX_BODY_BYTES);
    const readArguments = async (c: Context<AppEnv>) => {
      await bounded(c, noNext);
      return readInput(c);
    };
    const what = rest.input.from === 'query' || rest.input.from === 'path' ? rest.input.from : 'request body';
    const queryNames = rest.input.from === 'body' && rest.input.query ? Object.keys(rest.input.query.shape) : [];
    app.on(rest.method.toUpperCase(), honoPath(rest.path), async (c) => {
      const query = Object.fromEntries(queryNames.map((name) => [name, c.req.query(name)]));
      const { output } = await callOperation(c.get('core'), operation, () => readArguments(c), what, query);
      return answer(c, rest.answer, output);
    });
  }
}

/** The body limit is applied as a step of reading the arguments, not as middleware: nothing comes after it. */
const noNext = async () => {};

/** `/runs/{kind}/{id}` as Hono writes it: `/runs/:kind/:id`. */
const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

type InputReader = (c: Context<AppEnv>) => Promise<unknown>;

function inputReader(operation: OperationDefinition, rest: RestBinding): InputReader {
  const input = rest.input;
  switch (input.from) {
    case 'body':
      return readJsonObject;
    case 'none':
      return async () => ({});
    case 'path':
      return async (c) => c.req.param();
    case 'query': {
      const numeric = numericFields(operation.input);
      return async (c) => queryObject(c, numeric);
    }
    case 'text':
      return async (c) => {
        const type = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase();
        if (type && !input.contentTypes.includes(type)) {
          throw new DomainError('invalid_input', input.wrongType(type));
        }
        // Decoded by hand: workerd warns when .text() reads a body whose type is not text/*.
        return { [input.field]: new TextDecoder().decode(await c.req.arrayBuffer()) };
      };
  }
}

/**
 * The query string as the arguments object the core validates: a parameter given once is its
 * string, given more than once the list of them; a numeric field's value is read as a number
 * (`Number(value)`, so `limit=abc` is refused as not a number).
 */
function queryObject(c: Context<AppEnv>, numeric: ReadonlySet<string>): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    const read = numeric.has(name) ? values.map(Number) : values;
    query[name] = read.length === 1 ? read[0] : read;
  }
  return query;
}

function numericFields(schema: z.ZodType): Set<string> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: string }> };
  return new Set(
    Object.entries(json.properties ?? {})
      .filter(([, property]) => property.type === 'integer' || property.type === 'number')
      .map(([name]) => name),
  );
}

function answer(c: Context<AppEnv>, how: RestAnswer, output: unknown): Response {
  switch (how.kind) {
    case 'json': {
      const fixed = Object.fromEntries(Object.entries(how.headers ?? {}).map(([name, header]) => [name, header.value]));
      return c.json(output as object, how.status, fixed);
    }
    case 'markdown':
      return c.body(output as string, 200, { 'Content-Type': 'text/markdown; charset=utf-8' });
    case 'command':
      return commandResponse(output as CommandResult);
    case 'run':
      return runResponse(output as RunView);
    case 'audit': {
      const { started, finished } = output as { started: CommandResult; finished?: RunView };
      return finished ? runResponse(finished) : commandResponse(started);
    }
  }
}

/** The OpenAPI declaration of an operation's route, from its binding, schemas and errors. */
function documentedRoute(app: OpenAPIHono<AppEnv>, operation: OperationDefinition, rest: RestBinding): RouteConfig {
  const scope = typeof operation.scope === 'string' ? operation.scope : operation.scope[0]!;
  const statuses = [...new Set([...operation.errors, ...EVERY_OPERATION_ERRORS].map((code) => ERROR_STATUS[code]))].sort() as ErrorStatus[];
  return {
    method: rest.method,
    path: rest.path,
    operationId: rest.operationId,
    summary: rest.summary,
    ...(rest.description ? { description: rest.description } : {}),
    'x-required-scope': scope,
    request: { ...requestOf(app, operation, rest).request, headers: bookmarkRequestHeader(app) },
    responses: withBookmarkHeader({ ...successOf(operation, rest.answer), ...errors(...statuses) }),
  };
}

function requestOf(app: OpenAPIHono<AppEnv>, operation: OperationDefinition, rest: RestBinding): Pick<RouteConfig, 'request'> {
  const input = rest.input;
  switch (input.from) {
    case 'none':
      return {};
    case 'body':
      return {
        request: {
          ...(input.query ? { query: input.query } : {}),
          body: documentedBody(app, input.name, operation.input, { required: input.required, example: input.example }),
        },
      };
    case 'query':
      return { request: { query: operation.input as never } };
    case 'path':
      return { request: { params: operation.input as never } };
    case 'text':
      return {
        request: {
          body: {
            required: true,
            content: { [input.contentTypes[0]!]: { schema: input.schema, ...(input.example === undefined ? {} : { example: input.example }) } },
          },
        },
      };
  }
}

function successOf(operation: OperationDefinition, how: RestAnswer): RouteConfig['responses'] {
  switch (how.kind) {
    case 'json': {
      const schema = operation.output ?? z.unknown();
      if (!how.headers) return { [how.status]: json(how.description, schema) };
      const extra = Object.fromEntries(Object.entries(how.headers).map(([name, header]) => [name, z.string().describe(header.description)]));
      return { [how.status]: { description: how.description, headers: headers(extra), content: { 'application/json': { schema } } } };
    }
    case 'markdown':
      return { 200: markdown(how.description) };
    case 'command':
      return how.mode === 'sync' ? { 200: markdown('The result') } : { 202: STARTED };
    case 'run':
      return { 200: POLLED };
    case 'audit':
      return { 200: markdown('The report, when waited for.', POLLED_HEADERS), 202: STARTED };
  }
}
