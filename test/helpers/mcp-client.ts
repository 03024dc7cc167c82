import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exports } from 'cloudflare:workers';

/** The official SDK client, connected to the Worker under test through its fetch handler. */
export async function connectMcpClient(key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('https://recon.test/api/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
  });
  const client = new Client({ name: 'recon-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** One raw JSON-RPC POST to /api/mcp, for what the SDK client would not send. */
export function mcpRpc(
  body: unknown,
  options: { key?: string; headers?: Record<string, string>; method?: string } = {},
): Promise<Response> {
  const headers = new Headers({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...options.headers });
  if (options.key) headers.set('Authorization', `Bearer ${options.key}`);
  const method = options.method ?? 'POST';
  return exports.default.fetch(
    new Request('https://recon.test/api/mcp', { method, headers, body: method === 'POST' ? JSON.stringify(body) : undefined }),
  );
}
