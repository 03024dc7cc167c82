import { afterAll, describe, expect, it } from 'vitest';
import { deeplyNested, withDuplicateKey } from '../support/arbitraries.ts';
import { label, mcpAnswerProblems, restAnswerProblems, servedApi, type Operation } from '../support/answers.ts';
import { offline, probedWorld, shown, type Answer, type HostileRequest, noExistingTarget } from '../support/probe.ts';
import { Tally } from '../support/seed.ts';

/**
 * Suite 1, the classics: the inputs every parser meets sooner or later, sent to every REST operation
 * that takes a body and to /api/mcp. Same rule as the generated inputs: a documented answer, and a
 * refused request writes nothing.
 */
const api = await servedApi();
const MCP = 'POST /api/mcp';
const withBody = api.operations.filter((op) => op.method === 'POST' || op.method === 'PUT');
const tally = new Tally();
const suite = probedWorld();
afterAll(() => tally.print('hostile input, classics'));

const TEN_MIB = 10 * 1024 * 1024;

function exampleText(op: Operation): string {
  const content = op.requestBody?.content ?? {};
  const type = Object.keys(content)[0];
  const example = type ? (content[type] as { example?: unknown }).example : undefined;
  if (typeof example === 'string') return example.split('\n')[0]!;
  // The watch example names a company that exists: the classics must not start a watch. Page URLs
  // are moved under .invalid: nothing is fetched from the Internet.
  return (JSON.stringify(offline(example ?? {})) ?? '{}').replace(/globex|acme/gi, 'absnt');
}

function contentTypeOf(op: Operation): string {
  return Object.keys(op.requestBody?.content ?? {})[0] ?? 'application/json';
}

/** Sends `body` to `op` and checks the answer; `pathFor` fills path parameters with real ids. */
async function check(op: Operation, classic: string, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
  const target = op.path.replace('{kind}', suite.world.run.kind).replace('{id}', op.path.includes('/actions/') ? suite.world.actions.rejected : suite.world.run.id);
  const isMcp = label(op) === MCP;
  // A valid watch would start an execution that writes while the next requests are measured.
  if (typeof body === 'string' && op.method === 'POST' && op.path === '/api/v1/oms/watches') body = noExistingTarget(body);
  const request: HostileRequest = {
    method: op.method,
    target,
    headers: { 'Content-Type': contentTypeOf(op), ...(isMcp ? { Accept: 'application/json, text/event-stream' } : {}), ...headers },
    body,
  };
  const answer = await suite.probe.send(request);
  tally.add(classic);
  const problems = isMcp ? mcpAnswerProblems(answer.status, answer.contentType, answer.text).problems : restAnswerProblems(op, answer.status, answer.contentType, answer.text);
  const refused = isMcp ? mcpAnswerProblems(answer.status, answer.contentType, answer.text).refused : answer.status >= 400;
  if (refused && answer.changed.length) problems.push(`refused but wrote: ${answer.changed.join('; ')}`);
  expect(problems, `${classic} to ${label(op)}: ${shown(typeof body === 'string' ? body : `<${body.byteLength} bytes>`, 200)}\nanswer ${answer.status}: ${shown(answer.text)}`).toEqual([]);
  return answer;
}

/** The example body with `value` under a field of its own, or as an NDJSON line's property. */
function withField(op: Operation, name: string, rawValue: string): string {
  const text = exampleText(op);
  if (!text.startsWith('{') || text === '{}') return `{"${name}":${rawValue}}`;
  return `{"${name}":${rawValue},${text.slice(1)}`;
}

describe('the classics, to every operation that takes a body', () => {
  it('finds the operations', () => {
    expect(withBody.map(label)).toContain(MCP);
    expect(withBody.length).toBeGreaterThan(15);
  });

  it('JSON nested 100,000 deep (arrays and objects), as the body and as a field', async () => {
    for (const op of withBody) {
      for (const kind of ['array', 'object'] as const) {
        await check(op, 'deep nesting', deeplyNested(100_000, kind));
        await check(op, 'deep nesting', withField(op, 'userContext', deeplyNested(10_000, kind)));
      }
    }
  });

  it('huge and odd numbers: 1e400, 400 digits, -0, 2^64, 1e-400', async () => {
    for (const op of withBody) {
      for (const n of ['1e400', '9'.repeat(400), '-0', '18446744073709551616', '1e-400', '-1e400']) {
        await check(op, 'huge numbers', withField(op, 'limit', n));
        await check(op, 'huge numbers', n);
      }
    }
  });

  it('NUL, lone surrogates and other unpaired escapes in keys and values', async () => {
    for (const op of withBody) {
      for (const s of ['"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"\\udfff\\ud800"', '"\\ud83d"', '"\\uFFFE\\uFEFF"']) {
        await check(op, 'NUL and lone surrogates', withField(op, 'topic', s));
        await check(op, 'NUL and lone surrogates', `{${s}:1}`);
      }
      // Invalid UTF-8 on the wire: a lone continuation byte, an overlong NUL, a truncated sequence.
      await check(op, 'NUL and lone surrogates', new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0xc0, 0x80, 0xe2, 0x82, 0x22, 0x7d]));
    }
  });

  it('__proto__, constructor and prototype keys, at the top and nested', async () => {
    for (const op of withBody) {
      await check(op, 'prototype keys', withField(op, '__proto__', '{"admin":true,"scopes":["oms:approve"]}'));
      await check(op, 'prototype keys', withField(op, 'constructor', '{"prototype":{"polluted":true}}'));
      await check(op, 'prototype keys', '{"params":{"__proto__":{"x":1}},"__proto__":null}');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('duplicate JSON keys: valid first and invalid last, and the reverse', async () => {
    for (const op of withBody) {
      const example = exampleText(op);
      if (!example.startsWith('{')) continue;
      const keys = Object.keys(JSON.parse(example) as object);
      for (const key of keys.length ? keys : ['topic']) {
        await check(op, 'duplicate keys', withDuplicateKey(example, key, { nested: ['bad'] }));
        await check(op, 'duplicate keys', `{${JSON.stringify(key)}:${JSON.stringify({ nested: ['bad'] })},${example.slice(1)}`);
      }
    }
  });

  it('a Content-Length that lies: shorter and longer than the body', async () => {
    for (const op of withBody) {
      const body = exampleText(op);
      await check(op, 'wrong Content-Length', body, { 'Content-Length': '1' });
      await check(op, 'wrong Content-Length', body, { 'Content-Length': String(body.length + 1000) });
      await check(op, 'wrong Content-Length', body, { 'Content-Length': '-1' });
      await check(op, 'wrong Content-Length', body, { 'Content-Length': '99999999999999999999' });
    }
  });

  it('10 MiB bodies: JSON, NDJSON of many lines, one giant line, and one byte past 10 MiB', async () => {
    const big = new Uint8Array(TEN_MIB).fill(0x61);
    const json = new TextEncoder().encode(`{"topic":"${'a'.repeat(TEN_MIB - 14)}"}`);
    const line = '{"type":"company","key":"x.example","properties":{"name":"X"}}\n';
    const manyLines = new TextEncoder().encode(line.repeat(Math.floor(TEN_MIB / line.length)));
    const overTen = new Uint8Array(TEN_MIB + 1).fill(0x0a);
    for (const op of withBody) {
      await check(op, '10 MiB bodies', json);
      await check(op, '10 MiB bodies', big);
      if (op.path === '/api/v1/oms/objects/import') {
        // More than 10,000 lines: 413 and nothing written.
        expect((await check(op, '10 MiB bodies', manyLines)).status).toBe(413);
        expect((await check(op, '10 MiB bodies', overTen)).status).toBe(413);
      } else {
        expect((await check(op, '10 MiB bodies', json)).status).toBe(413);
      }
      // A Content-Length of 10 before 10 MiB: the runtime reads the 10 bytes it declares (a 400 for
      // the cut JSON) or the limit refuses it; either way a documented answer that writes nothing.
      await check(op, '10 MiB bodies', op.path === '/api/v1/oms/objects/import' ? overTen : json, { 'Content-Length': '10' });
    }
  });
});

describe('JSON-RPC ids of every type on /api/mcp', () => {
  const mcp = () => api.operations.find((op) => label(op) === MCP)!;
  const IDS: [string, string | undefined][] = [
    ['string', '"abc"'],
    ['empty string', '""'],
    ['number', '7'],
    ['negative fraction', '-1.5'],
    ['huge number', '1e400'],
    ['400 digits', '9'.repeat(400)],
    ['null', 'null'],
    ['object', '{"a":1}'],
    ['array', '[1]'],
    ['true', 'true'],
    ['false', 'false'],
    ['missing', undefined],
  ];
  const METHODS = [
    ['tools/list', '{}'],
    ['tools/call', '{"name":"help","arguments":{}}'],
    ['ping', '{}'],
    ['no/such/method', '{}'],
    ['initialize', '{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}'],
  ];

  it.each(IDS)('id %s: one documented answer, the id echoed when it is a valid one', async (_type, id) => {
    for (const [method, params] of METHODS) {
      const body = `{"jsonrpc":"2.0",${id === undefined ? '' : `"id":${id},`}"method":"${method}","params":${params}}`;
      const answer = await check(mcp(), 'JSON-RPC ids', body);
      const verdict = mcpAnswerProblems(answer.status, answer.contentType, answer.text);
      if (id === undefined) expect(answer.status, body).toBe(202);
      else if (answer.status === 200) expect(verdict.body?.id, body).toEqual(JSON.parse(id));
      else expect(answer.status, body).toBe(400);
    }
  });
});
