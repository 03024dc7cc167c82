/**
 * The HTTP headers a 2026-07-28 request carries (SEP-2243; `Mcp-Name` for tasks from SEP-2663), for
 * tests that post JSON-RPC themselves, in workerd or in Node.
 */

/** The JSON-RPC body field the `Mcp-Name` header mirrors, by method. */
const NAME_FIELD: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

export function modernHeaders(key: string, method: string, params: Record<string, unknown> = {}): Record<string, string> {
  const nameField = NAME_FIELD[method];
  return {
    Authorization: `Bearer ${key}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...(nameField && typeof params[nameField] === 'string' ? { 'Mcp-Name': params[nameField] as string } : {}),
  };
}
