/**
 * The MCP baseline: what a user of the MCP SDK would write for a stateless server on Workers, as
 * the SDK documents it: a fresh `McpServer` with two tools (zod input schemas) and the web-standard
 * Streamable HTTP transport per request, JSON responses, the SDK's defaults otherwise. Recon's MCP
 * `tools/list` is compared with this Worker's `tools/list`, measured in the same run.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'baseline', version: '1.0.0' });
  server.registerTool(
    'echo',
    { title: 'Echo', description: 'Echoes a message back.', inputSchema: { message: z.string().max(1000) } },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  server.registerTool(
    'add',
    { title: 'Add', description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  return server;
}

export default {
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== '/mcp') return new Response('Not found', { status: 404 });
    const server = buildServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  },
};
