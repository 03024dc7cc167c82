import { ErrorBody } from '../../ground/schemas/error-body.ts';
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolOperation } from '../../operations/definition.ts';

/**
 * The tools/list entry of a tool, computed once per isolate. `withTasks`: whether the protocol
 * version has tasks (2025-11-25), so `execution.taskSupport` means something to the client.
 */
export function toListedTool(tool: ToolOperation, withTasks: boolean): Tool {
  const { mcp } = tool;
  const output = outputOf(tool);
  return {
    name: tool.id,
    title: mcp.title,
    description: mcp.description,
    // The same zod schema the REST route validates with; the core validates, not the SDK.
    inputSchema: jsonSchemaOf(tool.input, 'input') as Tool['inputSchema'],
    ...(output ? { outputSchema: outputSchemaOf(tool.id, output) } : {}),
    annotations: { title: mcp.title, ...tool.effects },
    ...(mcp.startsRun && withTasks ? { execution: { taskSupport: 'optional' as const } } : {}),
  };
}

/**
 * The schema of a tool's result: its binding's `outputSchema`, else, for a tool that answers the
 * JSON REST sends (no `answer` of its own, or `answersOutput`), the operation's output.
 */
function outputOf({ mcp, output }: ToolOperation): z.ZodType | undefined {
  return mcp.outputSchema ?? (!mcp.answer || mcp.answersOutput ? output : undefined);
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
 * not an object is a mistake in the operation's declaration.
 */
function outputSchemaOf(name: string, output: z.ZodType): Tool['outputSchema'] {
  // Validation, not documentation: the fields are described in the tool's description and the
  // OpenAPI document, and tools/list (the most frequent call) would carry every description twice.
  const { $defs, ...schema } = without(jsonSchemaOf(output, 'output'), ['description']);
  const branches = Array.isArray(schema.anyOf) && schema.type === undefined ? (schema.anyOf as Record<string, unknown>[]) : [schema];
  const notObject = branches.find((branch) => branch.type !== 'object');
  if (notObject) throw new Error(`The outputSchema of ${name} must be an object at its root, not ${JSON.stringify(notObject.type ?? Object.keys(notObject))}`);
  return { type: 'object', ...($defs ? { $defs } : {}), anyOf: [...branches, TOOL_ERROR] } as Tool['outputSchema'];
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return rest;
}
