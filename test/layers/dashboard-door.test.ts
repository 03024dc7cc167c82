/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';

/**
 * The dashboard owns its door, in what .dependency-cruiser.cjs cannot see: its
 * session's types and the builder of its core context are declared in src/dashboard/ and nowhere
 * else, and pages read the core context from the request (`c.var.core`, set by requireSession)
 * instead of building it. Comments are not read.
 */
const SOURCES = import.meta.glob<string>('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });

/** The code of each file without its comments (block comments, and line comments from `//` at the start of a line or after a space). */
const CODE = Object.entries(SOURCES).map(([path, source]) => ({ path, code: source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1') }));

const DASHBOARD_NAMES = ['SessionView', 'AccountContext', 'DashboardEnv', 'SignedInEnv', 'coreContextFor'];
const DECLARATION = new RegExp(`\\b(?:interface|type|function|class|const|let)\\s+(${DASHBOARD_NAMES.join('|')})\\b`, 'g');

describe("the dashboard's door", () => {
  it('reads the sources', () => {
    expect(CODE.length).toBeGreaterThan(100);
    expect(CODE.map((file) => file.path)).toContain('/src/dashboard/session.ts');
  });

  it("declares the session's types and the core context builder in src/dashboard/ only", () => {
    const declared = CODE.flatMap(({ path, code }) => [...code.matchAll(DECLARATION)].map((m) => `${m[1]} in ${path}`));
    expect(declared.length).toBeGreaterThanOrEqual(4);
    expect(declared.filter((where) => !where.includes(' in /src/dashboard/'))).toEqual([]);
  });

  it('has pages read the core context from the request, never build it', () => {
    const building = CODE.filter(({ path, code }) => path.startsWith('/src/dashboard/pages/') && /\bcoreContextFor\s*\(/.test(code)).map(({ path }) => path);
    expect(building).toEqual([]);
    const reading = CODE.filter(({ path, code }) => path.startsWith('/src/dashboard/pages/') && /\bc\.var\.core\b/.test(code));
    expect(reading.length).toBeGreaterThan(5);
  });
});
