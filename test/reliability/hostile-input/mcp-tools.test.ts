import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../helpers/fixtures.ts';
import { mcpRpc } from '../../helpers/mcp-client.ts';
import { hostileJson, hostileString, mutationsOf } from '../support/arbitraries.ts';
import { mcpAnswerProblems } from '../support/answers.ts';
import { noExistingTarget, offline, probedWorld, shown } from '../support/probe.ts';
import { fuzzParameters, Tally } from '../support/seed.ts';

/**
 * Suite 1, MCP: generated arguments to every tool that tools/list names (a new tool is covered as
 * soon as it is registered), as plain and as task-augmented calls. Every answer must be one JSON-RPC
 * response with a documented HTTP status, never an internal error; a tool error carries the
 * documented error body; and a refused call writes nothing to D1.
 */
const INPUTS_PER_TOOL = 30;

interface Tool {
  name: string;
  inputSchema: JsonSchema;
}
interface JsonSchema {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minimum?: number;
  minItems?: number;
  default?: unknown;
}

const lister = await createOrganization();
const listed = await (await mcpRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: lister.key })).json<{ result: { tools: Tool[] } }>();
const tools = listed.result.tools;
const tally = new Tally();
const suite = probedWorld();
afterAll(() => tally.print('hostile input, MCP tools'));

/** A plausible value for a schema: its default or first allowed value, a real id for an id, else a small one of its type. */
function templateOf(schema: JsonSchema, name = ''): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, templateOf(value, key)]));
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => templateOf(schema.items ?? {}, name));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      if (name === 'id') return suite.world.run.id;
      if (name === 'key') return suite.world.objects.source;
      if (name === 'cursor' || name === 'pageToken') return suite.world.cursors.runs;
      if (name === 'urls') return 'http://127.0.0.1:9/';
      return 'x';
  }
}

function argumentsArbitrary(tool: Tool): fc.Arbitrary<unknown> {
  const real = fc.constantFrom<unknown>(suite.world.run.id, suite.world.watchId, suite.world.actions.pending, suite.world.cursors.actions, suite.world.cursors.search, suite.world.objects.source, 'gtm-audit', 'company');
  return fc.oneof(
    { weight: 6, arbitrary: mutationsOf(templateOf(tool.inputSchema), fc.oneof(hostileJson, real)) },
    { weight: 1, arbitrary: fc.constant(templateOf(tool.inputSchema)) },
    { weight: 2, arbitrary: hostileJson },
    { weight: 1, arbitrary: fc.constantFrom(undefined, null, [], 'text', 1, {}) },
  );
}

function callArbitrary(tool: Tool) {
  return fc.record({
    id: fc.oneof(fc.integer(), hostileString),
    arguments: argumentsArbitrary(tool),
    task: fc.option(fc.oneof(fc.constant({}), fc.record({ ttl: fc.oneof(fc.integer(), hostileJson) }), hostileJson), { freq: 4, nil: undefined }),
    meta: fc.option(hostileJson, { freq: 6, nil: undefined }),
  });
}

describe('hostile arguments to every MCP tool', () => {
  it('finds tools to test in tools/list', () => {
    expect(tools.length).toBeGreaterThan(15);
  });

  for (const tool of tools) {
    it(`${tool.name}: every answer is a documented one, and a refused call writes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(callArbitrary(tool), async (generated) => {
          let args = generated.arguments;
          if (tool.name === 'add-sources') args = offline(args);
          const params: Record<string, unknown> = { name: tool.name };
          if (args !== undefined) params.arguments = args;
          if (generated.task !== undefined) params.task = generated.task;
          if (generated.meta !== undefined) params._meta = generated.meta;
          let body = JSON.stringify({ jsonrpc: '2.0', id: generated.id, method: 'tools/call', params });
          if (tool.name === 'watch-create') body = noExistingTarget(body);
          const answer = await suite.probe.send({
            method: 'POST',
            target: '/api/mcp',
            headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
            body,
          });
          tally.add(tool.name);
          const verdict = mcpAnswerProblems(answer.status, answer.contentType, answer.text);
          if (verdict.refused && answer.changed.length) verdict.problems.push(`refused but wrote: ${answer.changed.join('; ')}`);
          expect(verdict.problems, `${shown(body)}\nanswer ${answer.status}: ${shown(answer.text)}`).toEqual([]);
        }),
        fuzzParameters(INPUTS_PER_TOOL),
      );
    });
  }

  it('tried every tool', () => {
    expect(tools.map((t) => t.name).filter((name) => tally.get(name) < INPUTS_PER_TOOL)).toEqual([]);
  });
});
