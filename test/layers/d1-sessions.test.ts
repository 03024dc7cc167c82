/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';

/**
 * No D1 statement runs outside a session: the binding (`env.DB`, `this.env.DB`, `c.env.DB`) is
 * touched in src/db/d1-sessions.ts only, where sessions are opened (a request's RequestDb, a Durable
 * Object's ObjectDb); every other file reaches D1 through a session it was handed. Comments are not
 * read. (The runtime side: test/app/no-write-outside-session.test.ts.)
 */
const SOURCES = import.meta.glob<string>('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
const CODE = Object.entries(SOURCES).map(([path, source]) => ({ path, code: source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1') }));

const OPENS_SESSIONS = '/src/db/d1-sessions.ts';

/** A use of the binding: `.DB` as a property (env.DB, this.env.DB, env['DB']), or `{ DB }` taken out of an env. */
const BINDING = /\.\s*DB\b|\[\s*['"]DB['"]\s*\]|\{[^}]*\bDB\b[^}]*\}\s*=\s*[\w.]*env\b/;
const WITH_SESSION = /\bwithSession\s*\(/;

const using = (pattern: RegExp) => CODE.filter(({ path, code }) => path !== OPENS_SESSIONS && pattern.test(code)).map(({ path }) => path);

describe('D1 only through sessions', () => {
  it('touches the binding in src/db/d1-sessions.ts only', () => {
    expect(using(BINDING)).toEqual([]);
    expect(BINDING.test(SOURCES[OPENS_SESSIONS]!)).toBe(true);
  });

  it('opens sessions there only', () => {
    expect(using(WITH_SESSION)).toEqual([]);
    expect(WITH_SESSION.test(SOURCES[OPENS_SESSIONS]!)).toBe(true);
  });

  it('recognises every way the binding could be reached', () => {
    for (const code of ['env.DB.prepare(q)', 'this.env.DB', 'ctx.env . DB', "env['DB']", 'const { DB } = env;', 'const { RUNS, DB } = this.env;']) {
      expect(BINDING.test(code), code).toBe(true);
    }
    for (const code of ['ctx.db.prepare(q)', 'const DB_NAME = 1;', 'env.DEBUG']) expect(BINDING.test(code), code).toBe(false);
  });
});
