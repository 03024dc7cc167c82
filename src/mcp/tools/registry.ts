import { ErrorBody } from '../../ground/schemas/error-body.ts';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Scope } from '../../ground/api-key.ts';
import type { CoreContext } from '../../ground/context.ts';
import type { Confirmation } from '../../operations/definition.ts';
import type { LogLevel } from '../../operations/log-level.ts';
import type { RateBucket } from '../../ground/rate-limit.ts';
import type { RunView } from '../../operations/runs.ts';
import type { SendNotification } from '../run-progress.ts';

/** What the MCP request a tool answers offers it besides its arguments. */
export interface ToolCallExtras {
  /** The level the calling key chose with logging/setLevel; null: it wants no log messages. */
  logLevel: LogLevel | null;
  /** Sends a notification on this request's response (answered as an SSE stream then). */
  sendNotification: SendNotification;
}

/**
 * One MCP tool: a thin adapter over one operation of the registry (src/operations/registry/), made
 * by ./index.ts from the operation's `mcp` binding; listing, scopes, rate buckets and errors follow.
 */
export interface ToolDefinition {
  name: string;
  title: string;
  /** Written for a model: what it does, what it returns, when to use it. */
  description: string;
  /** The same zod schema the REST route validates with; the core validates, not the SDK. */
  input: z.ZodType;
  output?: z.ZodType;
  annotations: NonNullable<Tool['annotations']>;
  /** The key scope needed to see and call it; a list: any one of them (as its REST route allows). */
  scope: Scope | readonly Scope[];
  /** Which rate-limit budget a call spends. */
  bucket: RateBucket;
  call(ctx: CoreContext, args: Record<string, unknown>, extras: ToolCallExtras): Promise<CallToolResult>;
  /** True for tools that may report progress as log messages (then answered as SSE streams). */
  notifies?: boolean;
  /** For asynchronous commands: start as an MCP task (taskSupport optional) and return the run. */
  startTask?(ctx: CoreContext, args: Record<string, unknown>): Promise<RunView>;
  /** Behind the onboarding gate: a client that can answer is asked for the missing profile fields (../questions.ts). */
  asksOnboarding?: boolean;
  /** What a client that can answer confirms before the call runs, from the checked arguments (../questions.ts). */
  confirmation?(ctx: CoreContext, args: Record<string, unknown>): Promise<Confirmation>;
}

/**
 * The tools/list entry of a tool, computed once per isolate. `withTasks`: whether the protocol
 * version has tasks (2025-11-25), so `execution.taskSupport` means something to the client.
 */
export function toListedTool(tool: ToolDefinition, withTasks: boolean): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input, 'input') as Tool['inputSchema'],
    ...(tool.output ? { outputSchema: outputSchemaOf(tool) } : {}),
    annotations: { title: tool.title, ...tool.annotations },
    ...(tool.startTask && withTasks ? { execution: { taskSupport: 'optional' as const } } : {}),
  };
}

/**
 * The structured content of a tool error (`isError`): the REST error body, without its descriptions
 * and its list of codes (each tool's schema repeats it, and tools/list is the most frequent call;
 * the codes are in the error's text and docs/api.md).
 */
const TOOL_ERROR = without(jsonSchemaOf(ErrorBody, 'output'), ['description', 'enum']);

/** `schema` without the keywords named, at every depth (a property of that name stays: its key is a name, not a keyword). */
function without(schema: unknown, keywords: readonly string[]): Record<string, unknown> {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => !keywords.includes(key))
        .map(([key, value]) => [key, key === 'properties' || key === '$defs' ? byName(value) : strip(value)]),
    );
  };
  const byName = (names: unknown): unknown =>
    typeof names === 'object' && names !== null ? Object.fromEntries(Object.entries(names).map(([name, value]) => [name, strip(value)])) : names;
  return strip(schema) as Record<string, unknown>;
}

/**
 * A tool's outputSchema: its result (each shape of a union: one item or a page) or a tool error,
 * an object at the root as MCP requires. Clients check the structured content of error results
 * against it too (the SDK's client does), so the error body is one of its shapes. A result that is
 * not an object is a mistake in the registry.
 */
function outputSchemaOf(tool: ToolDefinition): Tool['outputSchema'] {
  // Validation, not documentation: the fields are described in the tool's description and the
  // OpenAPI document, and tools/list (the most frequent call) would carry every description twice.
  const { $defs, ...schema } = without(jsonSchemaOf(tool.output!, 'output'), ['description']);
  const branches = Array.isArray(schema.anyOf) && schema.type === undefined ? (schema.anyOf as Record<string, unknown>[]) : [schema];
  const notObject = branches.find((branch) => branch.type !== 'object');
  if (notObject) throw new Error(`The outputSchema of ${tool.name} must be an object at its root, not ${JSON.stringify(notObject.type ?? Object.keys(notObject))}`);
  return { type: 'object', ...($defs ? { $defs } : {}), anyOf: [...branches, TOOL_ERROR] } as Tool['outputSchema'];
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return rest;
}
