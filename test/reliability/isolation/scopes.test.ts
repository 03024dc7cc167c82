import { describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../../src/ground/api-key.ts';
import { call, createKey, createOrganization } from '../../helpers/fixtures.ts';
import { mcpRpc } from '../../helpers/mcp-client.ts';
import { label, servedApi } from '../support/answers.ts';

/**
 * Suite 2, scopes: a key with fewer scopes reaches no more through MCP than through REST. Each
 * tool is the same operation as a REST route; for a key of each scope, tools/list lists exactly
 * the tools whose route the key may call, and every other tool is refused when called anyway.
 */
const TOOL_ROUTES: Record<string, string> = {
  research: 'POST /api/v1/commands/research',
  competitors: 'POST /api/v1/commands/competitors',
  'gtm-audit': 'POST /api/v1/commands/gtm-audit',
  audit: 'POST /api/v1/commands/audit',
  help: 'POST /api/v1/commands/help',
  'run-status': 'GET /api/v1/runs/{kind}/{id}',
  'get-profile': 'GET /api/v1/profile',
  'set-profile': 'PUT /api/v1/profile',
  'import-objects': 'POST /api/v1/oms/objects/import',
  'add-sources': 'POST /api/v1/oms/sources',
  'read-site': 'POST /api/v1/oms/sites',
  'site-read-settings': 'GET /api/v1/oms/sites/settings',
  'set-site-read-settings': 'PUT /api/v1/oms/sites/settings',
  'oms-metadata': 'GET /api/v1/oms/metadata',
  'oms-search': 'POST /api/v1/oms/objects/search',
  'oms-pivot': 'POST /api/v1/oms/objects/pivot',
  'oms-get': 'POST /api/v1/oms/objects/get',
  'oms-provenance': 'POST /api/v1/oms/objects/provenance',
  'action-request': 'POST /api/v1/oms/actions',
  'action-list': 'GET /api/v1/oms/actions',
  'watch-create': 'POST /api/v1/oms/watches',
  'watch-list': 'GET /api/v1/oms/watches',
  'watch-get': 'GET /api/v1/oms/watches',
  'watch-executions': 'GET /api/v1/oms/watches/executions',
  'watch-cancel': 'DELETE /api/v1/oms/watches',
  'watch-run': 'POST /api/v1/oms/watches/run',
  changes: 'GET /api/v1/oms/changes',
};

const api = await servedApi();
const scopeOf = new Map(api.operations.map((op) => [label(op), op.scope]));

async function listedTools(key: string): Promise<string[]> {
  const body = await (await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key })).json<{ result: { tools: { name: string }[] } }>();
  return body.result.tools.map((t) => t.name).sort();
}

describe('a key reaches no more through MCP than through REST', () => {
  it('maps every tool to its route', async () => {
    const full = await createOrganization();
    expect(Object.keys(TOOL_ROUTES).sort()).toEqual(await listedTools(full.key));
    for (const route of Object.values(TOOL_ROUTES)) expect(scopeOf.get(route), route).toBeDefined();
  });

  it.each(SCOPES.map((s) => [s]))('a key with only %s', async (scope: Scope) => {
    const org = await createOrganization();
    const { key } = await createKey(org.id, [scope]);
    // Which routes REST lets this key call: every other one answers 403 before reading the body.
    const restAllowed = new Set<string>();
    for (const [tool, route] of Object.entries(TOOL_ROUTES)) {
      const [method, path] = route.split(' ') as [string, string];
      // Query parameters are checked before the scope, so a route that needs `id` gets one.
      const needsId = /watches\/(run|executions)$/.test(path) || (method === 'DELETE' && path.endsWith('/watches'));
      // A site read is polled with commands or oms:write (the scope that starts it); any other run with commands only.
      const target = path.replace('{kind}', 'site-read').replace('{id}', '0'.repeat(64)) + (needsId ? '?id=wch_00000000' : '');
      const response = await call(target, { key, method, rawBody: method === 'GET' ? undefined : '{}' });
      await response.arrayBuffer();
      if (response.status !== 403) restAllowed.add(tool);
      // Operations that take any one of several scopes (the route's first is in scopeOf).
      const alsoAllowed =
        (route === 'GET /api/v1/oms/actions' && scope.startsWith('oms:')) ||
        (route === 'GET /api/v1/runs/{kind}/{id}' && scope === 'oms:write') ||
        (route === 'GET /api/v1/oms/sites/settings' && scope === 'oms:write');
      expect(response.status === 403, `${route} with ${scope}`).toBe(scopeOf.get(route) !== scope && !alsoAllowed);
    }
    // MCP lists only those tools, and refuses the others when they are called anyway.
    const listed = await listedTools(key);
    expect(listed.filter((tool) => !restAllowed.has(tool))).toEqual([]);
    // Every tool the key's route refuses is refused over MCP too, listed or not.
    for (const tool of Object.keys(TOOL_ROUTES).filter((t) => !restAllowed.has(t))) {
      const answer = await (await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } }, { key })).json<{
        error?: { code: number };
        result?: { isError?: boolean; structuredContent?: { error?: string } };
      }>();
      // Refused: a protocol error or a tool error (run-status and import-objects check their
      // arguments before the scope, so `{}` may be refused as invalid_input; either way, nothing runs).
      const refused = answer.error !== undefined || answer.result?.isError === true;
      expect(refused, `${tool} with ${scope}: ${JSON.stringify(answer).slice(0, 300)}`).toBe(true);
    }
  });
});
