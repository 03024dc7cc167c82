import fc from 'fast-check';

/**
 * Hostile values: what a careless or malicious client sends. Strings with NUL, lone surrogates,
 * control and bidi characters, markup, SQL and FTS5 syntax, prototype keys; numbers past every
 * bound; JSON nested past any sane depth.
 */
export const SPECIAL_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\u202e\u2066rtl',
  '\r\n\t',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  "' OR 1=1 --",
  '"; DROP TABLE objects; --',
  'NEAR(a b)',
  'title:*',
  '"unbalanced',
  '*',
  '^',
  '<script>alert(1)</script>',
  '<html><body>',
  '${7*7}{{7*7}}',
  '../../../etc/passwd',
  '%00%2e%2e%2f',
  'javascript:alert(1)',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:1/',
  'https://user:pass@example.com/',
  'file:///etc/passwd',
  'acme.com',
  'ACME.COM.',
  'https://WWW.Acme.com/pricing',
  'rk_live_' + 'A'.repeat(43),
  '9'.repeat(400),
  '1e309',
  '-0',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '\u00e9\u0301\ufeff\u200b',
  '\ud83d\ude00'.repeat(50),
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const controlChar = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(loneSurrogate, controlChar, fc.string({ maxLength: 3 })), { maxLength: 20 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '\u00e9', '\u0000', ' ', '\ud83d\ude00'), fc.integer({ min: 100, max: 5_000 })).map(([c, n]) => c.repeat(n)) },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  { weight: 1, arbitrary: fc.domain() },
  { weight: 1, arbitrary: fc.emailAddress() },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 0.5, 2.5, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, -(2 ** 63), 2 ** 64, 100_000_001, 99_999_999_999),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const leaf: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Any JSON value, with hostile leaves and keys (including `__proto__` and `constructor`). */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype')), tie('value'), { maxKeys: 5 }),
})).value;

/** JSON text nested `depth` deep, e.g. `[[[...]]]` or `{"a":{"a":...}}`. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Raw body text that is not (quite) JSON. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom('{', '{"a":', '[1,2', '{"a":1}{"b":2}', '\ufeff{}', 'null', '"text"', '1', 'true', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":1e999}', '\u0000', ''),
  fc.integer({ min: 100, max: 20_000 }).chain((depth) => fc.constantFrom(deeplyNested(depth, 'array'), deeplyNested(depth, 'object'))),
  hostileJson.map((v) => (JSON.stringify(v) ?? '').slice(0, 50)),
);

/** A document path into a JSON value: the keys and indexes to reach one of its leaves or branches. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const found: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((item, i) => found.push(...paths(item, [...prefix, i])));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) found.push(...paths(v, [...prefix, k]));
  return found;
}

/** `value` with the node at `path` replaced (or removed, when `replacement` is the REMOVE marker). */
export const REMOVE = Symbol('remove');
function replaced(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    const next = replaced(copy[head as number], rest, replacement);
    if (next === REMOVE) copy.splice(head as number, 1);
    else copy[head as number] = next;
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  const next = replaced(copy[head as string], rest, replacement);
  if (next === REMOVE) delete copy[head as string];
  else Object.defineProperty(copy, head as string, { value: next, enumerable: true, writable: true, configurable: true });
  return copy;
}

/**
 * Near-valid values: a valid `template` with one to three of its nodes replaced by a hostile value,
 * removed, or given an extra field. These reach past the first check into the deeper ones.
 */
export function mutationsOf(template: unknown, pools: fc.Arbitrary<unknown> = hostileJson): fc.Arbitrary<unknown> {
  const all = paths(template);
  const mutation = fc.tuple(
    fc.constantFrom(...all),
    fc.oneof(
      { weight: 4, arbitrary: pools.map((v) => ({ kind: 'replace' as const, v })) },
      { weight: 1, arbitrary: fc.constant({ kind: 'remove' as const, v: REMOVE }) },
      { weight: 2, arbitrary: fc.tuple(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor')), hostileJson).map(([k, v]) => ({ kind: 'extra' as const, k, v })) },
    ),
  );
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((steps) => {
    let value = template;
    for (const [path, step] of steps) {
      if (step.kind === 'extra') {
        const target = path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], value);
        if (typeof target === 'object' && target !== null && !Array.isArray(target)) value = replaced(value, [...path, step.k], step.v);
        else value = replaced(value, path, step.v);
      } else {
        value = replaced(value, path, step.v);
      }
    }
    return value;
  });
}

/** JSON text with a key repeated: the parser keeps the last, so a valid value may hide an invalid one or the reverse. */
export function withDuplicateKey(json: string, key: string, value: unknown): string {
  if (!json.startsWith('{')) return json;
  const extra = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
  return json === '{}' ? `{${extra},${extra}}` : `{${extra},${json.slice(1, -1)},${extra}}`;
}

export const hostileContentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=utf-16',
    'application/x-ndjson',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=----x',
    'application/xml',
    'text/html',
    '',
    '*/*',
    'application/json, text/html',
  ),
  hostileString.map((s) => s.replace(/[\r\n\u0000]/g, '').slice(0, 200)),
);
