/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';

/**
 * Every SQL statement lives in src/db/, next to the row mapping it needs (docs/storage.md): no file
 * under src/ outside src/db/ calls `prepare(` or holds SQL text in a string or template literal.
 * The Workers pool cannot read the file system; Vite reads the sources in at build time instead.
 */
const SOURCES = import.meta.glob<string>('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });


/**
 * SQL in a literal: uppercase keywords in the shapes only a statement has, the bound parameters of
 * D1 (`= ?1`), and SQLite's JSON functions. English prose ("select sentences", "update the watch")
 * is lower case, and comments are not read at all.
 */
const SQL_PATTERNS: readonly RegExp[] = [
  /\bSELECT\b[\s\S]*?\bFROM\b/,
  /\bSELECT\s+(\$\{|\*|json_|count\()/,
  /\bINSERT\s+(OR\s+[A-Z]+\s+)?INTO\b/,
  /\bUPDATE\s+\w+\s+SET\b/,
  /\bDELETE\s+FROM\b/,
  /\b(CREATE|DROP)\s+(TEMP\s+|VIRTUAL\s+|UNIQUE\s+)?(TABLE|INDEX|TRIGGER|VIEW)\b/,
  /\bALTER\s+TABLE\b/,
  /\bWITH\s+(RECURSIVE\s+)?\w+\s+AS\s+(MATERIALIZED\s+)?\(/,
  /\bON\s+CONFLICT\b/,
  /\bEXISTS\s*\(\s*SELECT\b/,
  /(=|<>|!=|<=|>=|<|>|\bIN|\bLIKE|\bMATCH)\s*\?\d+\b/,
  /\bjson_(extract|each|group_array|quote)\s*\(/,
];

const PREPARE = /\bprepare\s*\(/;

interface Literal {
  /** Offset in the file where the literal's text starts. */
  start: number;
  /** Its text, offset for offset as in the file; in a template, the code of each `${...}` blanked. */
  text: string;
}

/** Where a keyword before `/` means a regular expression follows, not a division. */
const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await']);

/**
 * The code of a TypeScript file with its comments and the text of its literals blanked (offsets and
 * lines kept), and its string and template literals. A lexer just good enough for this rule: it
 * knows strings, templates with nested expressions, comments and regular expression literals (told
 * from division by what precedes them).
 */
export function lex(source: string): { code: string; literals: Literal[] } {
  const code = source.split('');
  const literals: Literal[] = [];
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (code[k] !== '\n') code[k] = ' ';
  };
  // The open templates, innermost last: where each starts, its text parts so far, and the brace
  // depth its current `${` expression closes at.
  const templates: { start: number; parts: [number, number][]; partStart: number; depth: number }[] = [];
  let braceDepth = 0;
  let last = ''; // the last significant character of code
  let lastWord = '';
  let i = 0;

  /** Reads a template's text from `i` up to its closing backtick or its next `${`. */
  const readTemplatePart = () => {
    const template = templates[templates.length - 1]!;
    template.partStart = i;
    while (i < source.length) {
      const c = source[i]!;
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === '`') {
        template.parts.push([template.partStart, i]);
        const text = Array.from({ length: i - template.start }, () => ' ');
        for (const [from, to] of template.parts) {
          for (let k = from; k < to; k++) text[k - template.start] = source[k]!;
          blank(from, to);
        }
        literals.push({ start: template.start, text: text.join('') });
        templates.pop();
        i++;
        last = '`';
        lastWord = '';
        return;
      }
      if (c === '$' && source[i + 1] === '{') {
        template.parts.push([template.partStart, i + 2]);
        i += 2;
        template.depth = braceDepth;
        braceDepth++;
        last = '{';
        lastWord = '';
        return; // code again, up to the } that closes the expression
      }
      i++;
    }
  };

  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last) || REGEX_AFTER_WORD.has(lastWord))) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== '\n') {
        const d = source[j]!;
        if (d === '\\') j++;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        j++;
      }
      i = j + 1;
      last = '/';
      lastWord = '';
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      literals.push({ start: i + 1, text: source.slice(i + 1, j) });
      blank(i + 1, j);
      i = j + 1;
      last = c;
      lastWord = '';
      continue;
    }
    if (c === '`') {
      templates.push({ start: i + 1, parts: [], partStart: i + 1, depth: 0 });
      i++;
      readTemplatePart();
      continue;
    }
    if (c === '}') {
      const template = templates[templates.length - 1];
      if (template && braceDepth - 1 === template.depth) {
        braceDepth--;
        readTemplatePart();
        continue;
      }
    }
    if (c === '{') braceDepth++;
    if (c === '}') braceDepth--;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[A-Za-z_$0-9]/.test(c)) {
      let j = i;
      while (j < source.length && /[A-Za-z_$0-9]/.test(source[j]!)) j++;
      lastWord = source.slice(i, j);
      last = source[j - 1]!;
      i = j;
      continue;
    }
    last = c;
    lastWord = '';
    i++;
  }
  return { code: code.join(''), literals };
}

/** Each place in `source` that calls `prepare(` or holds SQL text, as `line: what`. */
export function sqlOutsideStorage(source: string): string[] {
  const { code, literals } = lex(source);
  const lineOf = (offset: number) => source.slice(0, offset).split('\n').length;
  const found: string[] = [];
  for (const match of code.matchAll(new RegExp(PREPARE, 'g'))) found.push(`${lineOf(match.index)}: prepare(`);
  for (const literal of literals) {
    // The literal's first SQL, once.
    const matches = SQL_PATTERNS.map((pattern) => pattern.exec(literal.text)).filter((match) => match !== null);
    const first = matches.sort((a, b) => a.index - b.index)[0];
    if (first) {
      const at = literal.start + first.index;
      found.push(`${lineOf(at)}: SQL ${JSON.stringify(source.slice(at, at + Math.min(first[0].length, 40)))}`);
    }
  }
  return found.sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
}

describe('SQL lives in src/db/', () => {
  it('reads the sources', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    expect(Object.keys(SOURCES)).toContain('/src/db/objects.ts');
  });

  it('no file outside src/db/ calls prepare( or holds SQL text', () => {
    const offences = Object.entries(SOURCES)
      .filter(([path]) => !path.startsWith('/src/db/'))
      .flatMap(([path, source]) => sqlOutsideStorage(source).map((where) => `${path.slice(1)}:${where}`));
    expect(offences, 'move these statements into src/db/, next to their row mapping, and call them by name').toEqual([]);
  });

  it('every statement in src/db/ is seen by the detector', () => {
    // The rule must be able to fail: the statements of storage itself are all found.
    const found = Object.entries(SOURCES)
      .filter(([path]) => path.startsWith('/src/db/'))
      .flatMap(([, source]) => sqlOutsideStorage(source));
    expect(found.filter((where) => where.includes('prepare(')).length).toBeGreaterThan(50);
  });
});

describe('the detector', () => {
  it('flags prepare( and SQL in strings and templates, with their lines', () => {
    const sample = [
      "const a = db.prepare('SELECT id FROM runs WHERE organization_id = ?1');",
      'const b = `INSERT INTO links (organization_id, link)',
      '           VALUES (?1, ?2)`;',
      "const c = 'UPDATE watches SET status = ?';",
      'const d = "DELETE FROM sessions";',
      'const e = `CREATE INDEX objects_by_name ON objects (name)`;',
      'const f = `WITH hits AS (${inner}) SELECT 1`;',
      "const g = `... ON CONFLICT (organization_id) DO NOTHING`;",
      "const h = `EXISTS (SELECT 1 FROM objects) = ${flag}`;",
      "const i = `organization_id = ?1 AND type = ?2`;",
      "const j = `json_extract(properties, '$.name')`;",
      'const k = `${cond ? `SELECT ${columns} FROM t` : ""}`;',
      'const l = x / 2; const m = `DELETE FROM t`;',
    ].join('\n');
    expect(sqlOutsideStorage(sample)).toEqual([
      '1: prepare(',
      '1: SQL "SELECT id FROM"',
      '2: SQL "INSERT INTO"',
      '4: SQL "UPDATE watches SET"',
      '5: SQL "DELETE FROM"',
      '6: SQL "CREATE INDEX"',
      '7: SQL "WITH hits AS ("',
      '8: SQL "ON CONFLICT"',
      '9: SQL "EXISTS (SELECT"',
      '10: SQL "= ?1"',
      '11: SQL "json_extract("',
      '12: SQL "SELECT ${columns} FROM"',
      '13: SQL "DELETE FROM"',
    ]);
  });

  it('leaves prose, comments and regular expressions alone', () => {
    const sample = [
      '// SELECT id FROM runs: a comment may show SQL',
      '/* INSERT INTO links ... */',
      "const message = 'select sentences from the passages, then update the watch';",
      'const note = `Delete from the list; insert into the page`;',
      'const pattern = /\'"`/g; const after = `plain ${pattern.source} text`;',
      "const ok = 'Prepare your sources (a prepared list)';",
      'const url = `https://example.com/?q=${query}&page=2`;',
    ].join('\n');
    expect(sqlOutsideStorage(sample)).toEqual([]);
  });
});
