import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { hostileContentType, hostileJson, hostileString, hostileText, mutationsOf, withDuplicateKey } from '../support/arbitraries.ts';
import { label, restAnswerProblems, servedApi, type Operation } from '../support/answers.ts';
import { noExistingTarget, offline, percentEncode, probedWorld, shown, type HostileRequest } from '../support/probe.ts';
import { fuzzParameters, Tally } from '../support/seed.ts';

/**
 * Suite 1, REST: generated requests to every operation of the served OpenAPI document (a new
 * route is covered as soon as it is documented). Each answer must be a documented one: no 5xx, no
 * HTML, no stack trace, a status the operation documents, on 4xx the JSON error body; and a
 * refused request writes nothing to D1.
 */
const INPUTS_PER_OPERATION = 50;
/** The MCP door has its own suite (mcp-tools.test.ts). */
const ELSEWHERE = new Set(['POST /api/mcp']);

const api = await servedApi();
const operations = api.operations.filter((op) => !ELSEWHERE.has(label(op)));
const tally = new Tally();
const statuses = new Tally();
const suite = probedWorld();

afterAll(() => {
  tally.print('hostile input, REST');
  console.log(`[reliability] hostile input, REST: answers by status ${JSON.stringify(Object.fromEntries(statuses.labels().sort().map((s) => [s, statuses.get(s)])))}`);
});

/** Real values of the world: ids, kinds, keys, tokens and URLs, so generated requests also name things that exist. */
function realValues(): fc.Arbitrary<string> {
  return fc.constantFrom(
    suite.world.run.id,
    suite.world.run.kind,
    'audit',
    ...suite.world.heldSlots,
    suite.world.watchId,
    suite.world.actions.pending,
    suite.world.actions.rejected,
    suite.world.actions.applied,
    suite.world.cursors.runs,
    suite.world.cursors.actions,
    suite.world.cursors.search,
    // A page token altered by one character, and one of another list.
    suite.world.cursors.runs.slice(0, -2) + (suite.world.cursors.runs.endsWith('A') ? 'BB' : 'AA'),
    suite.world.objects.source,
    suite.world.org.id,
    suite.world.org.slug,
    suite.world.webhookSecret,
  );
}

function valueFor(parameter: Operation['parameters'][number]): fc.Arbitrary<string> {
  const schema = parameter.schema as { enum?: string[]; type?: string; minimum?: number; maximum?: number };
  const valid: fc.Arbitrary<string>[] = [realValues()];
  if (schema.enum?.length) valid.push(fc.constantFrom(...schema.enum));
  if (schema.type === 'integer') valid.push(fc.integer({ min: (schema.minimum ?? 0) - 2, max: (schema.maximum ?? 100) + 2 }).map(String));
  return fc.oneof({ weight: 2, arbitrary: fc.oneof(...valid) }, { weight: 2, arbitrary: hostileString }, { weight: 1, arbitrary: fc.constantFrom('%zz', '%00', '%ud800', '%E0%A4%A', '+', '%2F..%2F') });
}

/** The path with its parameters filled in: percent-encoded, or raw (a raw `%zz` is a malformed escape). */
function pathArbitrary(op: Operation): fc.Arbitrary<string> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (!names.length) return fc.constant(op.path);
  const parts = names.map((name) => {
    const parameter = op.parameters.find((p) => p.in === 'path' && p.name === name) ?? { name, in: 'path' as const, schema: {} };
    return fc.tuple(valueFor(parameter), fc.boolean()).map(([value, raw]) => (raw && /^[\w%.~+-]*$/.test(value) ? value : percentEncode(value)));
  });
  return fc.tuple(...parts).map((values) => names.reduce((path, name, i) => path.replace(`{${name}}`, values[i] || '%20'), op.path));
}

function queryArbitrary(op: Operation): fc.Arbitrary<string> {
  const documented = op.parameters.filter((p) => p.in === 'query');
  const pairs = documented.map((p) => fc.option(valueFor(p).map((v) => [p.name, v] as [string, string]), { nil: undefined, freq: 2 }));
  const extra = fc.array(fc.tuple(fc.oneof(hostileString, fc.constantFrom('limit', 'cursor', 'id', '__proto__', 'wait')), hostileString), { maxLength: 2 });
  const raw = fc.constantFrom('', '&', '=', '&&=&', 'limit', 'limit=1&limit=2', 'id=%', 'cursor=%ZZ');
  return fc.tuple(fc.tuple(...pairs), extra, fc.option(raw, { freq: 4 })).map(([given, more, rawPart]) => {
    const params = new URLSearchParams();
    for (const pair of [...given, ...more]) if (pair) params.append(pair[0], pair[1]);
    const text = [params.toString(), rawPart ?? ''].filter(Boolean).join('&');
    return text ? `?${text}` : '';
  });
}

function bodyArbitrary(op: Operation): fc.Arbitrary<{ text: string; contentType: string } | undefined> {
  const content = op.requestBody?.content ?? {};
  const [documentedType] = Object.keys(content);
  const example = documentedType ? (content[documentedType] as { example?: unknown }).example : undefined;
  if (!documentedType && op.method === 'GET') return fc.constant(undefined);
  const type = documentedType ?? 'application/json';
  const pool = fc.oneof(hostileJson, realValues());
  const json: fc.Arbitrary<string> =
    type === 'application/x-ndjson'
      ? fc
          .array(fc.oneof(mutationsOf(typeof example === 'string' ? JSON.parse(example.split('\n')[0]!) : {}, pool).map((v) => JSON.stringify(v) ?? ''), hostileText), {
            minLength: 1,
            maxLength: 6,
          })
          .map((lines) => lines.join('\n'))
      : fc.oneof(
          { weight: 5, arbitrary: mutationsOf(example ?? {}, pool).map((v) => JSON.stringify(v) ?? '') },
          { weight: 2, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? '') },
          { weight: 1, arbitrary: fc.tuple(mutationsOf(example ?? {}, pool), fc.constantFrom('__proto__', 'constructor', 'topic', 'type', 'key', 'action', 'target'), hostileJson).map(([v, k, dup]) => withDuplicateKey(JSON.stringify(v) ?? '{}', k, dup)) },
          { weight: 1, arbitrary: hostileText },
        );
  return fc.oneof(
    { weight: 8, arbitrary: json.map((text) => ({ text, contentType: type })) },
    { weight: 2, arbitrary: fc.tuple(json, hostileContentType).map(([text, contentType]) => ({ text, contentType })) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

function requestArbitrary(op: Operation): fc.Arbitrary<HostileRequest> {
  const extraHeaders = fc.record(
    { 'X-Request-Id': hostileString, Accept: fc.constantFrom('application/json', 'text/html', '*/*', ''), 'Content-Encoding': fc.constantFrom('gzip', 'br', 'identity') },
    { requiredKeys: [] },
  );
  return fc.tuple(pathArbitrary(op), queryArbitrary(op), bodyArbitrary(op), extraHeaders).map(([path, query, body, headers]) => {
    let text = body?.text;
    if (text !== undefined && op.path === '/api/v1/oms/sources') text = JSON.stringify(offline(JSON.parse(text.startsWith('{') || text.startsWith('[') ? safeParse(text) : '""')));
    if (text !== undefined && op.path === '/api/v1/oms/watches' && op.method === 'POST') text = noExistingTarget(text);
    return {
      method: op.method,
      target: path + query,
      headers: { ...(body ? { 'Content-Type': body.contentType } : {}), ...(headers as Record<string, string>) },
      body: text,
    };
  });
}

/** Body text for the sources route, re-serialized (a generated URL is moved offline); unparseable text as a JSON string. */
function safeParse(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
}

describe('hostile input to every REST operation', () => {
  it('finds operations to test in the served OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  for (const op of operations) {
    it(`${label(op)}: every answer is a documented one, and a refused request writes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op), async (request) => {
          const answer = await suite.probe.send(request);
          tally.add(label(op));
          statuses.add(String(answer.status));
          const problems = restAnswerProblems(op, answer.status, answer.contentType, answer.text);
          if (answer.status >= 400 && answer.changed.length) problems.push(`refused with ${answer.status} but wrote: ${answer.changed.join('; ')}`);
          expect(problems, `${request.method} ${shown(request.target)} ${shown(JSON.stringify(request.headers))}\nbody: ${shown(request.body)}\nanswer ${answer.status}: ${shown(answer.text)}`).toEqual([]);
        }),
        fuzzParameters(INPUTS_PER_OPERATION),
      );
    });
  }

  it('tried every operation', () => {
    const missing = operations.map(label).filter((name) => tally.get(name) < INPUTS_PER_OPERATION);
    expect(missing).toEqual([]);
  });
});
