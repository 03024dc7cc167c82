/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import wranglerToml from '../../wrangler.toml?raw';

/**
 * Each engine in one home, in what .dependency-cruiser.cjs cannot see: a Durable Object class is
 * declared in the folder of the engine it runs, and the politeness rule's numbers are declared in
 * src/sites/politeness.ts only. Comments are not read.
 */
const SOURCES = import.meta.glob<string>('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
const CODE = Object.entries(SOURCES).map(([path, source]) => ({ path, code: source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1') }));

/** The engine folder each Durable Object class of wrangler.toml belongs in. */
const HOMES: Record<string, string> = { RunObject: '/src/runs/', WatchObject: '/src/watches/', SiteHostGate: '/src/sites/' };

const declaredIn = (pattern: RegExp) => CODE.flatMap(({ path, code }) => [...code.matchAll(pattern)].map((m) => ({ name: m[1]!, path })));

describe('each engine in one home', () => {
  it('declares every Durable Object class of wrangler.toml in its engine folder', () => {
    const classNames = [...wranglerToml.matchAll(/^class_name\s*=\s*"(\w+)"/gm)].map((m) => m[1]!);
    expect(classNames.sort()).toEqual(Object.keys(HOMES).sort());
    const classes = declaredIn(/\bexport\s+class\s+(\w+)\s+extends\s+(?:Agent|DurableObject)\b/g);
    expect(classes.map((c) => c.name).sort()).toEqual(classNames.sort());
    for (const { name, path } of classes) expect(path.startsWith(HOMES[name]!), `${name} in ${path}`).toBe(true);
  });

  it('has no src/durable-objects/ folder', () => {
    expect(CODE.filter(({ path }) => path.startsWith('/src/durable-objects/')).map(({ path }) => path)).toEqual([]);
  });

  it("declares the politeness rule's numbers and its gap in src/sites/politeness.ts only", () => {
    const names = ['SITE_REQUESTS_IN_FLIGHT', 'MAX_CRAWL_DELAY_SECONDS', 'MAX_PUSHBACK_MS', 'DEFAULT_PUSHBACK_MS', 'MAX_PUSHBACK_RETRIES', 'PUSHBACK_IN_A_ROW', 'gapMs', 'honouredCrawlDelay', 'pushbackMs'];
    const declared = declaredIn(new RegExp(`\\b(?:const|function)\\s+(${names.join('|')})\\b`, 'g'));
    expect(declared.map((d) => d.name).sort()).toEqual([...names].sort());
    expect(declared.filter(({ path }) => path !== '/src/sites/politeness.ts')).toEqual([]);
  });
});
