import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import app from '../../src/app.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { mcpRpc } from '../helpers/mcp-client.ts';
import { isBookmark } from '../../src/ground/db-session.ts';

/**
 * Every header of representative responses, pinned whole: REST reads, a REST error, a response a
 * handler builds itself (markdown), preflights, the not-found answer, the MCP door's answers (its
 * own JSON, a refusal, a 405), the OAuth metadata and /healthz. The middleware that sets them was
 * made cheaper per request (issue 16); these expectations were recorded before that and must not move.
 */

/** Header name (lower case) to value; a generated request id reads `<uuid>`, a D1 bookmark `<bookmark>`. */
function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    headers[name] = name === 'x-request-id' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value) ? '<uuid>' : value;
    if (name === 'x-recon-bookmark' && isBookmark(value)) headers[name] = '<bookmark>';
  }
  return headers;
}

const SECURE = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const EXPOSED = 'X-Request-Id,X-Run-Id,X-Audit-Id,X-Run-Status,Retry-After,Location,WWW-Authenticate,X-Recon-Bookmark';
/** What a REST answer past the key check carries: the request's D1 bookmark (src/middleware/bookmark-header.ts). */
const BOOKMARK = { 'x-recon-bookmark': '<bookmark>' };
const API_CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
const JSON_TYPE = { 'content-type': 'application/json' };
const MARKDOWN_TYPE = { 'content-type': 'text/markdown; charset=utf-8' };

describe('response headers, whole', () => {
  it('/healthz: its content type and request id only', async () => {
    expect(headersOf(await call('/healthz'))).toEqual({ ...JSON_TYPE, 'x-request-id': '<uuid>' });
    expect(headersOf(await call('/healthz', { method: 'HEAD', headers: { 'X-Request-Id': 'probe-1' } }))).toEqual({ ...JSON_TYPE, 'x-request-id': 'probe-1' });
  });

  it('REST reads with a key, from a browser origin: markdown (c.body) and JSON (c.json)', async () => {
    const org = await createOrganization();
    const catalog = await call('/api/v1/commands', { key: org.key, headers: { Origin: 'https://app.example.com', 'X-Request-Id': 'read-1' } });
    expect(catalog.status).toBe(200);
    expect(headersOf(catalog)).toEqual({ ...SECURE, ...API_CORS, ...MARKDOWN_TYPE, ...BOOKMARK, 'x-request-id': 'read-1' });
    const profile = await call('/api/v1/profile', { key: org.key, headers: { Origin: 'https://app.example.com', 'X-Request-Id': 'read-2' } });
    expect(profile.status).toBe(200);
    expect(headersOf(profile)).toEqual({ ...SECURE, ...API_CORS, ...JSON_TYPE, ...BOOKMARK, 'x-request-id': 'read-2' });
  });

  it('a REST refusal (no key)', async () => {
    const response = await call('/api/v1/commands');
    expect(response.status).toBe(401);
    expect(headersOf(response)).toEqual({ ...SECURE, ...API_CORS, ...JSON_TYPE, 'www-authenticate': 'Bearer realm="recon"', 'x-request-id': '<uuid>' });
  });

  it('a markdown answer the handler builds itself (POST help)', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/commands/help', { key: org.key, body: {} });
    expect(response.status).toBe(200);
    expect(headersOf(response)).toEqual({ ...SECURE, ...API_CORS, ...MARKDOWN_TYPE, ...BOOKMARK, 'x-request-id': '<uuid>' });
  });

  it('an unknown API path', async () => {
    const org = await createOrganization();
    const response = await call('/api/v1/no-such-thing', { key: org.key, headers: { 'X-Request-Id': 'nf-1' } });
    expect(response.status).toBe(404);
    expect(headersOf(response)).toEqual({ ...SECURE, ...API_CORS, ...JSON_TYPE, ...BOOKMARK, 'x-request-id': 'nf-1' });
  });

  it('a preflight', async () => {
    const response = await call('/api/v1/commands/research', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST', 'X-Request-Id': 'pre-1' },
    });
    expect(response.status).toBe(204);
    expect(headersOf(response)).toEqual({
      ...SECURE,
      ...API_CORS,
      'access-control-allow-headers': 'Authorization,Content-Type,Accept,Mcp-Protocol-Version,Mcp-Session-Id,X-Recon-Bookmark',
      'access-control-allow-methods': 'GET,HEAD,PUT,POST,DELETE,PATCH,QUERY',
      'access-control-max-age': '600',
      'vary': 'Access-Control-Request-Headers',
      'x-request-id': 'pre-1',
    });
  });

  it('MCP tools/list (its own JSON), a 405 and a refused host', async () => {
    const org = await createOrganization();
    const list = await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: org.key, headers: { 'X-Request-Id': 'mcp-1' } });
    expect(list.status).toBe(200);
    expect(headersOf(list)).toEqual({ ...SECURE, ...API_CORS, ...JSON_TYPE, 'x-request-id': 'mcp-1' });

    const get = await mcpRpc(undefined, { key: org.key, method: 'GET', headers: { 'X-Request-Id': 'mcp-2' } });
    expect(get.status).toBe(405);
    expect(headersOf(get)).toEqual({ ...SECURE, ...API_CORS, ...JSON_TYPE, allow: 'POST', 'x-request-id': 'mcp-2' });

    const refused = await exports.default.fetch(
      new Request('https://elsewhere.example/api/mcp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-Request-Id': 'mcp-3' },
        body: '{}',
      }),
    );
    expect(refused.status).toBe(403);
    expect(headersOf(refused)).toEqual({ ...SECURE, ...API_CORS, ...JSON_TYPE, 'x-request-id': 'mcp-3' });
  });

  it('MCP without a key: the OAuth challenge', async () => {
    const response = await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { headers: { 'X-Request-Id': 'mcp-4', 'CF-Connecting-IP': '198.18.99.1' } });
    expect(response.status).toBe(401);
    expect(headersOf(response)).toEqual({
      ...SECURE,
      ...API_CORS,
      ...JSON_TYPE,
      'www-authenticate': expect.stringMatching(/^Bearer /),
      'x-request-id': 'mcp-4',
    });
  });

  it('the OAuth protected resource metadata (outside /api: its own CORS)', async () => {
    const response = await call('/.well-known/oauth-protected-resource', { headers: { 'X-Request-Id': 'oauth-1' } });
    expect(response.status).toBe(200);
    expect(headersOf(response)).toEqual({
      ...SECURE,
      ...JSON_TYPE,
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-origin': '*',
      'access-control-max-age': '600',
      'cache-control': 'public, max-age=300',
      'x-request-id': 'oauth-1',
    });
  });

  it('with CORS_ORIGINS set: Vary on every answer, the origin echoed only when listed', async () => {
    const listed = { ...env, CORS_ORIGINS: 'https://app.example.com, https://other.example.com' } as Env;
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const org = await createOrganization();
    const ask = (origin: string) =>
      app.request('https://recon.test/api/v1/commands', { headers: { Authorization: `Bearer ${org.key}`, Origin: origin, 'X-Request-Id': 'cors-1' } }, listed, ctx);

    // The first call looks the new key up in D1 (a bookmark); the isolate's cache answers the next ones.
    expect(headersOf(await ask('https://app.example.com'))).toEqual({
      ...SECURE,
      ...MARKDOWN_TYPE,
      ...BOOKMARK,
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-expose-headers': EXPOSED,
      vary: 'Origin',
      'x-request-id': 'cors-1',
    });
    expect(headersOf(await ask('https://elsewhere.example'))).toEqual({
      ...SECURE,
      ...MARKDOWN_TYPE,
      'access-control-expose-headers': EXPOSED,
      vary: 'Origin',
      'x-request-id': 'cors-1',
    });
    const preflight = await app.request(
      'https://recon.test/api/v1/commands/help',
      { method: 'OPTIONS', headers: { Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST', 'X-Request-Id': 'cors-2' } },
      listed,
      ctx,
    );
    expect(preflight.status).toBe(204);
    expect(headersOf(preflight)).toEqual({
      ...SECURE,
      'access-control-allow-headers': 'Authorization,Content-Type,Accept,Mcp-Protocol-Version,Mcp-Session-Id,X-Recon-Bookmark',
      'access-control-allow-methods': 'GET,HEAD,PUT,POST,DELETE,PATCH,QUERY',
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-expose-headers': EXPOSED,
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Headers',
      'x-request-id': 'cors-2',
    });
    const help = await app.request(
      'https://recon.test/api/v1/commands/help',
      { method: 'POST', body: '{}', headers: { Authorization: `Bearer ${org.key}`, 'Content-Type': 'application/json', Origin: 'https://other.example.com' } },
      listed,
      ctx,
    );
    expect(headersOf(help)).toEqual({
      ...SECURE,
      'access-control-allow-origin': 'https://other.example.com',
      'access-control-expose-headers': EXPOSED,
      ...MARKDOWN_TYPE,
      vary: 'Origin',
      'x-request-id': '<uuid>',
    });
  });
});
