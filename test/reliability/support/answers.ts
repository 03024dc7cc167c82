import { ERROR_STATUS } from '../../../src/ground/errors.ts';
import { call } from '../../helpers/fixtures.ts';

/** One operation of the served OpenAPI document. */
export interface Operation {
  method: string;
  /** The path template, e.g. `/api/v1/runs/{kind}/{id}`. */
  path: string;
  operationId: string;
  parameters: { name: string; in: 'query' | 'path' | 'header'; required?: boolean; schema: Record<string, unknown> }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
  scope?: string;
}

interface Document {
  paths: Record<string, Record<string, Omit<Operation, 'method' | 'path' | 'parameters' | 'scope'> & { parameters?: Operation['parameters']; 'x-required-scope'?: string }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

export interface ServedApi {
  operations: Operation[];
  schemas: Record<string, Record<string, unknown>>;
}

/** Every operation the app serves and documents, read from GET /api/v1/openapi.json. */
export async function servedApi(): Promise<ServedApi> {
  const response = await call('/api/v1/openapi.json');
  if (response.status !== 200) throw new Error(`openapi.json answered ${response.status}`);
  const document = await response.json<Document>();
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      operations.push({ ...op, method: method.toUpperCase(), path, parameters: op.parameters ?? [], scope: op['x-required-scope'] });
    }
  }
  return { operations, schemas: document.components.schemas };
}

export const label = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

const STACK_TRACE = /\n\s+at [^\n]*(:\d+:\d+|\(native\)|<anonymous>)|\b(TypeError|ReferenceError|SyntaxError|RangeError): /;
const ERROR_KEYS = new Set(['error', 'message', 'details', 'requestId']);
const CODES = new Set(Object.keys(ERROR_STATUS));

/** Problems with an error body (`{ error, message, details?, requestId? }` whose code fits the status); empty when it is right. */
export function errorShapeProblems(body: unknown, status?: number): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [`error body is not an object: ${JSON.stringify(body)?.slice(0, 200)}`];
  const problems = [];
  const record = body as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!ERROR_KEYS.has(key)) problems.push(`error body has an undocumented field ${key}`);
  if (typeof record.error !== 'string' || !CODES.has(record.error)) problems.push(`error code ${JSON.stringify(record.error)} is not a documented one`);
  else if (status !== undefined && ERROR_STATUS[record.error as keyof typeof ERROR_STATUS] !== status) problems.push(`error code ${record.error} with status ${status}`);
  if (record.error === 'internal') problems.push('error internal (a bug)');
  if (typeof record.message !== 'string' || record.message.length === 0) problems.push('error message is not a non-empty string');
  if (record.details !== undefined) {
    if (!Array.isArray(record.details)) problems.push('details is not an array');
    else for (const d of record.details as unknown[]) {
      const detail = d as Record<string, unknown>;
      if (typeof detail?.path !== 'string' || typeof detail?.message !== 'string' || Object.keys(detail).length !== 2) problems.push(`detail ${JSON.stringify(d)?.slice(0, 200)} is not { path, message }`);
    }
  }
  if (record.requestId !== undefined && typeof record.requestId !== 'string') problems.push('requestId is not a string');
  return problems;
}

function contentTypeOf(response: Response): string {
  return (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Problems with a REST answer: a 5xx, a status the operation does not document, HTML, a stack
 * trace, a 4xx that is not the documented JSON error, a success in an undocumented content type.
 */
/**
 * Refusals that the README's Errors section documents for every authenticated route, in the order
 * they are checked before the route runs: the key (401), the rate limit (429), the body size (413,
 * also for a body sent where the route takes none).
 */
export const EVERY_ROUTE = new Set([401, 413, 429]);

export function restAnswerProblems(op: Operation, status: number, contentType: string, text: string): string[] {
  const problems = [];
  if (status >= 500) problems.push(`status ${status}`);
  if (!(String(status) in op.responses) && !EVERY_ROUTE.has(status)) problems.push(`status ${status} is not documented for ${label(op)} (documented: ${Object.keys(op.responses).join(', ')})`);
  if (contentType === 'text/html' || /^\s*</.test(text)) problems.push('an HTML answer');
  if (STACK_TRACE.test(text)) problems.push('a stack trace in the body');
  if (status >= 400) {
    if (contentType !== 'application/json') problems.push(`error in ${contentType || 'no content type'}`);
    problems.push(...errorShapeProblems(parse(text), status));
  } else {
    const documented = Object.keys(op.responses[String(status)]?.content ?? {});
    if (documented.length && !documented.includes(contentType)) problems.push(`${status} in ${contentType}, documented: ${documented.join(', ')}`);
    if (contentType === 'application/json' && parse(text) === undefined) problems.push('a JSON success that is not JSON');
  }
  return problems;
}

export async function readAnswer(response: Response): Promise<{ status: number; contentType: string; text: string }> {
  return { status: response.status, contentType: contentTypeOf(response), text: await response.text() };
}

/** The JSON-RPC answers /api/mcp documents. */
const MCP_STATUSES = new Set([200, 202, 400, 401, 403, 413, 429]);

export interface McpVerdict {
  problems: string[];
  /** True when the request was refused: an HTTP error, a JSON-RPC error or a tool result with isError. */
  refused: boolean;
  /** The JSON-RPC body, when there is one. */
  body?: Record<string, unknown>;
}

/**
 * Problems with an answer of /api/mcp: a 5xx, an undocumented status, HTML, a stack trace, a body
 * that is not one JSON-RPC response, a JSON-RPC internal error, a tool error whose structured
 * content is not the documented error body.
 */
export function mcpAnswerProblems(status: number, contentType: string, text: string): McpVerdict {
  const problems = [];
  if (status >= 500) problems.push(`status ${status}`);
  if (!MCP_STATUSES.has(status)) problems.push(`status ${status} is not documented for POST /api/mcp`);
  if (contentType === 'text/html' || /^\s*</.test(text)) problems.push('an HTML answer');
  if (STACK_TRACE.test(text)) problems.push('a stack trace in the body');
  if (status === 202) {
    if (text !== '') problems.push('202 with a body');
    return { problems, refused: false };
  }
  let payload = text;
  if (contentType === 'text/event-stream') {
    // A run poll with a log level: log notifications, then the response as the last data line.
    const data = text.split('\n').filter((line) => line.startsWith('data: '));
    payload = data.at(-1)?.slice(6) ?? '';
  } else if (contentType !== 'application/json') problems.push(`answer in ${contentType || 'no content type'}`);
  const body = parse(payload) as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || body.jsonrpc !== '2.0') {
    problems.push(`not one JSON-RPC response: ${JSON.stringify(payload.slice(0, 200))}`);
    return { problems, refused: true };
  }
  const id = body.id;
  if (!(typeof id === 'string' || typeof id === 'number' || id === null)) problems.push(`JSON-RPC id of type ${typeof id}`);
  if (body.error !== undefined) {
    const error = body.error as Record<string, unknown>;
    if (!Number.isInteger(error.code)) problems.push('JSON-RPC error code is not an integer');
    if (error.code === -32603) problems.push(`JSON-RPC internal error: ${JSON.stringify(String(error.message).slice(0, 200))}`);
    if (typeof error.message !== 'string') problems.push('JSON-RPC error message is not a string');
    if (error.data !== undefined && typeof error.data === 'object' && error.data !== null && 'error' in error.data) {
      const { retryAfterSeconds: _r, bucket: _b, ...data } = error.data as Record<string, unknown>;
      problems.push(...errorShapeProblems(data, status === 200 ? undefined : status));
    }
    if (status === 200 && 'result' in body) problems.push('both result and error');
    return { problems, refused: true, body };
  }
  if (status !== 200) problems.push(`HTTP ${status} with a JSON-RPC result`);
  const result = body.result as Record<string, unknown> | undefined;
  if (typeof result !== 'object' || result === null) {
    problems.push('JSON-RPC response without result or error');
    return { problems, refused: true, body };
  }
  if (result.isError === true) {
    problems.push(...errorShapeProblems(result.structuredContent));
    const text = (result.content as { text?: string }[] | undefined)?.[0]?.text ?? '';
    if (!text.startsWith('Error ')) problems.push(`tool error text does not start with "Error <code>:": ${JSON.stringify(text.slice(0, 100))}`);
    return { problems, refused: true, body };
  }
  return { problems, refused: false, body };
}
