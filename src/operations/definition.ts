import type { z } from 'zod';
import type { Scope } from '../ground/api-key.ts';
import type { CoreContext } from '../ground/context.ts';
import type { Freshness } from '../ground/db-session.ts';
import { DomainError, type ErrorCode } from '../ground/errors.ts';
import type { RateBucket } from '../ground/rate-limit.ts';
import { assertScope } from '../ground/scopes.ts';

/**
 * What an operation is, declared once (in the folder of its resource under src/operations/, listed
 * in OPERATIONS, ./index.ts): its id, input and output schemas, scope, rate bucket, the errors it can
 * give, and how each door reaches it (its REST route and body limit, its MCP tool), plus the catalog
 * fields of a command. The REST routes and their OpenAPI document, the MCP tools and their schemas,
 * the rate-limit bucket each call spends and the catalog are derived from these declarations; every
 * door calls an operation through callOperation (./call.ts) and adds no behaviour of its own.
 */

/** What calling it does to the world; MCP tool annotations are these. */
export interface Effects {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Refusals every operation can give (a key, its scope, its rate limit, a bug): not declared per operation. */
export const EVERY_OPERATION_ERRORS = ['unauthorized', 'access_denied', 'rate_limited', 'internal'] as const satisfies ErrorCode[];

/**
 * How the REST door answers the result:
 * - `json`: the result as JSON with `status` (and fixed `headers`, e.g. Cache-Control);
 * - `markdown`: the result, a string, as 200 text/markdown;
 * - `command`: a command's result: 200 markdown, or 202 with the started run's headers;
 * - `run`: a run as polled: 200 markdown with its status headers;
 * - `audit`: the audit shortcut: the run as polled once waited for, else as started.
 */
export type RestAnswer =
  | { kind: 'json'; status: 200 | 201 | 202; description: string; headers?: Record<string, { value: string; description: string }> }
  | { kind: 'markdown'; description: string }
  | { kind: 'command'; mode: 'sync' | 'async' }
  | { kind: 'run' }
  | { kind: 'audit' };

/**
 * The REST door of an operation. `input` says where the arguments come from: the JSON body (read
 * whole; the core validates it), the query string, the path parameters, the raw body as text
 * (`text`, given to the operation as `{ [field]: text }`), or nothing.
 */
export interface RestBinding {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Under /api/v1, in OpenAPI form: `/oms/actions/{id}/approve`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** The largest body the route reads, in bytes (413 over it); default MAX_BODY_BYTES (src/ground/body-limits.ts). */
  maxBodyBytes?: number;
  input:
    | { from: 'body'; name: string; required?: boolean; example?: unknown; query?: z.ZodObject }
    | { from: 'query' }
    | { from: 'path' }
    | { from: 'text'; field: string; contentTypes: readonly string[]; wrongType(type: string): string; schema: z.ZodType; example?: string }
    | { from: 'none' };
  answer: RestAnswer;
}

/** What a tool answers: text for the model and, where the data is structured, the object itself. */
export interface ToolAnswer {
  text: string;
  structured?: Record<string, unknown>;
  /** Resources the result points to (resource_link content after the text), e.g. a finished run's report. */
  links?: { uri: string; name: string; title?: string; mimeType?: string }[];
  /**
   * Where the whole text can be read when it is too long for one call, in words for a model (the
   * brief's or the run's resource): the pointer a cut answer gives (mcp/tools/text-bound.ts);
   * default: the operation's REST route.
   */
  whole?: string;
}

/**
 * What a person confirms before a call does anything, when their MCP client can be asked (the
 * 2026-07-28 revision's input-required results, src/mcp/questions.ts): told by the core, from the
 * checked arguments and the organization's data.
 */
export interface Confirmation {
  /** The question, with every fact the person needs to decide (what is written, what it costs). */
  message: string;
  /** The label of the yes/no field, e.g. "Create this watch". */
  confirm: string;
  /** What the tool answers when the person says no: nothing was written. */
  declined: string;
}

/** The MCP door of an operation: a tool, named by the operation's id. */
export interface McpBinding<O, I = unknown> {
  title: string;
  /** Written for a model: what it does, what it returns, when to use it. */
  description: string;
  /** The tool's text and structured content; default: the JSON of the result, as REST sends it. */
  answer?(output: O, input: I): ToolAnswer;
  /**
   * The result's schema as tools/list declares it (`outputSchema`); default, for a tool without an
   * `answer` of its own, the operation's `output` (the JSON REST sends, also the structured content).
   */
  outputSchema?: z.ZodType;
  /** The `answer`'s structured content is the operation's output (the JSON REST sends): declare its schema. */
  answersOutput?: boolean;
  /**
   * For a tool answering a page: the argument that sets the page's size and the result's list. A
   * page too long for one tool result is asked again with fewer items, so its next-page token goes
   * on from the last item shown (mcp/tools/index.ts).
   */
  pages?: { size: string; items: string };
  /** True for a run poll: progress is also sent as a log message when the key chose a level. */
  reportsRunProgress?: boolean;
  /** True for commands that start a run: the tool may run as an MCP task (2025-11-25). */
  startsRun?: boolean;
  /**
   * True for commands behind the onboarding gate: a 2026-07-28 client that can answer a form is asked
   * for the missing sales-profile fields instead of refused (src/mcp/questions.ts).
   */
  asksOnboarding?: boolean;
  /** What a 2026-07-28 client that can answer must confirm before the call runs (src/mcp/questions.ts). */
  confirm?(ctx: CoreContext, input: I): Promise<Confirmation>;
}

/** What a call says besides its validated arguments. */
export interface CallFacts {
  /** The names of the fields the caller sent (defaults not counted). */
  sent: readonly string[];
  /** Query parameters a REST binding declares beside its body (`query`), as sent; empty over MCP. */
  query: Readonly<Record<string, string | undefined>>;
  /** How the door names the arguments in a refusal: `query`, `arguments of watch-list`, ... */
  what: string;
}

export interface OperationDefinition<S extends z.ZodType = z.ZodType, O = unknown> {
  /**
   * Its name, unique among the operations, in kebab-case: the name of its MCP tool when it has one
   * (`research`, `watch-create`), else what it does (`list-runs`). Doors find operations by it.
   */
  id: string;
  /** The key scope needed; a list: any one of them. */
  scope: Scope | readonly Scope[];
  /** Which of the key's rate-limit budgets a call spends, whichever door it came through (callOperation, ./call.ts, spends it). */
  bucket: RateBucket;
  /** The arguments, validated by the core (never by a door's library), so both doors refuse alike. */
  input: S;
  /** The schema the core validates with when it depends on the deployment (documented: `input`). */
  inputFor?(ctx: CoreContext): z.ZodType;
  /** How the input is named in a refusal ("Invalid watch: ..."); default: the door's own words. */
  inputName?: string;
  /** The result's schema, named for the OpenAPI document. */
  output?: z.ZodType;
  /** The refusals it can give besides EVERY_OPERATION_ERRORS. */
  errors: readonly ErrorCode[];
  effects: Effects;
  /**
   * How fresh the data it reads must be (src/ground/db-session.ts): `recent` for reads that may be
   * a moment old (OMS reads, search, research, listings, the catalog), whose request's D1 session
   * starts at the nearest replica or at the bookmark the client sent; default `latest`: writes and
   * reads that must see a write (a run's status after its start, approvals) start at the primary.
   */
  freshness?: Freshness;
  /** The work itself, given arguments that passed `input`, and what else the call said. */
  run(ctx: CoreContext, input: z.output<S>, call: CallFacts): Promise<O>;
  rest?: RestBinding;
  mcp?: McpBinding<O, z.output<S>>;
  /** Set on a command: what the command catalog says of it (./commands/command-operations.ts, defineCommand). */
  command?: CommandFields;
}

/** An operation that is an MCP tool: the tool is derived from it (src/mcp/tools/). */
export type ToolOperation = OperationDefinition & { mcp: McpBinding<unknown, unknown> };

/** True when the operation has an MCP tool. */
export const isTool = (operation: OperationDefinition): operation is ToolOperation => operation.mcp !== undefined;

export type CommandMode = 'sync' | 'async';

/**
 * What the command catalog (GET /api/v1/commands, the help command) says of a command besides its
 * id (the command's name) and its input (its arguments).
 */
export interface CommandFields {
  title: string;
  mode: CommandMode;
  /** One paragraph for people and models alike: what it does and what it returns. */
  description: string;
  /** A valid body, shown in the catalog and the OpenAPI document. */
  example: Record<string, unknown>;
  /** False only for `help`: every other command waits for a finished sales profile. */
  requiresOnboarding: boolean;
}

/**
 * What a command produced: markdown now (sync) with the same result as data (the command's
 * `output`: a brief's claims, the catalog; an MCP tool's structured content), or a run to poll (async).
 */
export type CommandResult =
  | { mode: 'sync'; markdown: string; data: Record<string, unknown> }
  | { mode: 'async'; run: { id: string; kind: string; status: 'running' }; markdown: string };

/** Declares an operation; the types of `run` and `mcp.answer` follow from `input`. */
export function defineOperation<S extends z.ZodType, O>(definition: OperationDefinition<S, O>): OperationDefinition {
  return definition as unknown as OperationDefinition;
}

/** True when a key with these scopes may call the operation. */
export function scopeAllows(operation: Pick<OperationDefinition, 'scope'>, scopes: readonly string[]): boolean {
  const needed = operation.scope;
  return typeof needed === 'string' ? scopes.includes(needed) : needed.some((scope) => scopes.includes(scope));
}

/** 403 `access_denied` unless the key may call the operation (naming its first scope). */
export function assertOperationScope(ctx: CoreContext, operation: Pick<OperationDefinition, 'scope'>): void {
  if (!scopeAllows(operation, ctx.principal.scopes)) assertScope(ctx, typeof operation.scope === 'string' ? operation.scope : operation.scope[0]!);
}

/**
 * 400 when `id` names one item and other fields came with it (`GET /oms/watches?id=...&status=...`):
 * one item or a filtered page, never both, so a filter is not silently ignored.
 */
export function assertIdAlone({ sent, what }: Pick<CallFacts, 'sent' | 'what'>, noun: string): void {
  const extra = sent.filter((name) => name !== 'id');
  if (sent.includes('id') && extra.length) {
    throw new DomainError('invalid_input', `Invalid ${what}: id names one ${noun}; send it without ${extra.join(', ')}.`, {
      details: extra.map((name) => ({ path: name, message: `${name} cannot be combined with id` })),
    });
  }
}
