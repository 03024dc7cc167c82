import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorBody, toDomainError } from '../ground/errors.ts';

/**
 * The MCP door's one place that turns a core error into a tool result: the same code and message
 * as the REST body, readable by a model, with the JSON body as structured content. Unexpected
 * errors are logged and answered as `internal`, never with their detail.
 */
export function toToolResult(error: unknown, requestId: string): CallToolResult {
  const domainError = toDomainError(error, requestId);
  const body = errorBody(domainError, requestId);
  const lines = [`Error ${body.error}: ${body.message}`];
  // Each detail's message already names its field (src/ground/validation.ts).
  for (const detail of body.details ?? []) lines.push(`- ${detail.message}`);
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { ...body }, isError: true };
}
