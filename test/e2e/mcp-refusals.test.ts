/**
 * End to end: what the official TypeScript SDK client (StreamableHTTPClientTransport, no OAuth
 * provider) shows its user when the real Worker refuses a request. The transport puts the
 * response body into the error's message, so the body's JSON-RPC message is what a user reads.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEarlyInWindow } from '../helpers/rate-window.ts';
import { startDevServer, type DevServer } from './dev-server.ts';

/** globex: help needs no finished profile, and no other test here spends its command budget. */
const GLOBEX_KEY = 'rk_test_globex_00000000000000000000000000';

let server: DevServer;

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

function client(key: string): { client: Client; transport: StreamableHTTPClientTransport } {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  return { client: new Client({ name: 'recon-e2e-refusals', version: '1.0.0' }), transport };
}

describe('the SDK client surfaces our refusals', () => {
  it('with a bad key: the error says what to send and where keys come from', async () => {
    const { client: bad, transport } = client(`rk_live_${'0'.repeat(43)}`);
    const error = await bad.connect(transport).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Error);
    const { message, code } = error as Error & { code?: number };
    expect(code).toBe(401);
    expect(message).toContain('Invalid API key');
    expect(message).toContain('Authorization: Bearer rk_...');
    expect(message).toContain("your organization's admin creates keys");
  });

  it('over the limit: the error says when to retry', { timeout: 60_000 }, async () => {
    const { client: agent, transport } = client(GLOBEX_KEY);
    await agent.connect(transport);
    await startEarlyInWindow(15_000);
    // wrangler.toml: 60 command calls a minute per key.
    for (let i = 0; i < 60; i++) expect((await agent.callTool({ name: 'help', arguments: {} })).isError).toBeFalsy();
    const error = await agent.callTool({ name: 'help', arguments: {} }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Error);
    const { message, code } = error as Error & { code?: number };
    expect(code).toBe(429);
    expect(message).toContain('Rate limited: retry in 60 s.');
    expect(message).toContain('"retryAfterSeconds":60');
    // Other calls spend the reads budget and still work: the agent can wait and go on.
    expect((await agent.listTools()).tools.length).toBeGreaterThan(0);
    await agent.close();
  });
});
