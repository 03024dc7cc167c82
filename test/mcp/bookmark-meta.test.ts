import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import { isBookmark, laterBookmark } from '../../src/ground/db-session.ts';
import { BOOKMARK_META_KEY } from '../../src/mcp/bookmark.ts';
import { createOrganization, type TestOrganization } from '../helpers/fixtures.ts';
import { envWith, executionContext, recordingSessions, type SessionLog } from '../helpers/recording-sessions.ts';

/**
 * Read-your-writes over MCP (src/mcp/bookmark.ts): every result carries the request's D1 bookmark
 * in `_meta["recon/bookmark"]`, and a request that sends it back in its `params._meta` has its
 * session continue from it. The app runs against the real D1 binding with its sessions recorded.
 */

interface Client {
  org: TestOrganization;
  log: SessionLog;
  call(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Response>;
}

async function client(): Promise<Client> {
  const org = await createOrganization();
  const { DB, log } = recordingSessions();
  const recorded = envWith(DB);
  let id = 0;
  return {
    org,
    log,
    async call(name, args, meta) {
      const { ctx, settled } = executionContext();
      const body = { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } };
      const headers = {
        Authorization: `Bearer ${org.key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Protocol-Version': '2025-11-25',
      };
      const response = await app.request('https://recon.test/api/mcp', { method: 'POST', body: JSON.stringify(body), headers }, recorded, ctx);
      await settled();
      return response;
    },
  };
}

interface ToolResult {
  result: { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };
}

describe(`_meta["${BOOKMARK_META_KEY}"]`, () => {
  it("is a valid _meta key (a prefix of one label, then a name) that MCP does not reserve", () => {
    expect(BOOKMARK_META_KEY).toMatch(/^(?:[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\.)*[a-zA-Z](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\/[a-zA-Z0-9](?:[a-zA-Z0-9._-]*[a-zA-Z0-9])?$/);
    const secondLabel = BOOKMARK_META_KEY.split('/')[0]!.split('.')[1] ?? '';
    expect(secondLabel).not.toMatch(/^(?:modelcontextprotocol|mcp)$/);
  });

  it('carries the bookmark of a write, and a read sent with it continues from it and reads the write', async () => {
    const c = await client();
    const key = `mcp-own-${crypto.randomUUID().slice(0, 8)}.example`;
    const ndjson = JSON.stringify({ type: 'company', key, properties: { name: 'Meta Co', domain: key } });
    const written = await c.call('import-objects', { ndjson });
    expect(written.status).toBe(200);
    const writeResult = (await written.json<ToolResult>()).result;
    expect(writeResult.isError).toBeUndefined();
    const bookmark = writeResult._meta?.[BOOKMARK_META_KEY] as string;
    expect(isBookmark(bookmark)).toBe(true);
    expect(bookmark).toBe(c.log.sessions.at(-1)!.getBookmark());

    c.log.starts.length = 0;
    const read = await c.call('oms-get', { type: 'company', key }, { [BOOKMARK_META_KEY]: bookmark });
    const readResult = (await read.json<ToolResult>()).result;
    expect(readResult.structuredContent).toMatchObject({ key, properties: { name: 'Meta Co' } });
    expect(c.log.starts).toEqual([bookmark]);
    const after = readResult._meta?.[BOOKMARK_META_KEY] as string;
    expect(laterBookmark(after, bookmark)).toBe(after);
  });

  it('is on a tool error result too (a refused call may have read or written)', async () => {
    const c = await client();
    const response = await c.call('oms-get', { type: 'company', key: 'nobody-here.example' });
    const { result } = await response.json<ToolResult>();
    expect(result.isError).toBe(true);
    expect(isBookmark(result._meta?.[BOOKMARK_META_KEY] as string)).toBe(true);
  });

  it('refuses a malformed one with a JSON-RPC error (HTTP 400, data.error invalid_input), before the tool runs', async () => {
    const c = await client();
    await c.call('help', {}); // the key is looked up and cached
    c.log.starts.length = 0;
    const response = await c.call('oms-get', { type: 'company', key: 'x.example' }, { [BOOKMARK_META_KEY]: 'x'.repeat(10_000) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 2, error: { data: { error: 'invalid_input', details: [{ path: `params._meta["${BOOKMARK_META_KEY}"]` }] } } });
    expect(c.log.starts).toEqual([]);
  });
});
