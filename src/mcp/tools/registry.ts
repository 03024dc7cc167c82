import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Scope } from '../../ground/api-key.ts';
import type { CoreContext } from '../../ground/context.ts';
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

/** MCP requires an object at the root of an outputSchema: a union (`anyOf`) is a mistake in the registry. */
function outputSchemaOf(tool: ToolDefinition): Tool['outputSchema'] {
  const schema = jsonSchemaOf(tool.output!, 'output');
  if (schema.type !== 'object') throw new Error(`The outputSchema of ${tool.name} must be an object at its root, not ${JSON.stringify(schema.type ?? Object.keys(schema))}`);
  return schema as Tool['outputSchema'];
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return rest;
}
