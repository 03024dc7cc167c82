/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json';

/**
 * One MCP server for every revision: src/ is served by the SDK v2 (`@modelcontextprotocol/server`)
 * alone, through one `createMcpHandler` with its stateless 2025 lane, and the revision is read in one
 * place (the factory's `context.era`, src/mcp/server.ts). The SDK v1 stays a development dependency,
 * as the 2025 client of the tests. The Workers pool cannot read the file system; Vite reads the
 * sources in at build time.
 */
const SOURCES = import.meta.glob<string>('/src/**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });

const filesMatching = (pattern: RegExp) =>
  Object.entries(SOURCES)
    .filter(([, text]) => pattern.test(text))
    .map(([file]) => file)
    .sort();

describe('one MCP server', () => {
  it('src/ imports nothing from the SDK v1, which is a development dependency only', () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    expect(filesMatching(/['"]@modelcontextprotocol\/sdk[/'"]/)).toEqual([]);
    expect(Object.keys(packageJson.dependencies)).not.toContain('@modelcontextprotocol/sdk');
    expect(Object.keys(packageJson.devDependencies)).toContain('@modelcontextprotocol/sdk');
  });

  it('serves both eras from one createMcpHandler and its legacy lane, with no transport or router of its own', () => {
    expect(filesMatching(/\bcreateMcpHandler\(/)).toEqual(['/src/mcp/server.ts']);
    expect(SOURCES['/src/mcp/server.ts']).toMatch(/createMcpHandler\(buildServer, \{ legacy: 'stateless'/);
    expect(filesMatching(/\b(isLegacyRequest|legacyStatelessFallback|classifyInboundRequest|new WebStandardStreamableHTTPServerTransport|new PerRequestHTTPServerTransport)\b/)).toEqual([]);
  });

  it('reads the revision in one place: the factory, from the SDK\'s classification', () => {
    expect(filesMatching(/\.era\b/)).toEqual(['/src/mcp/recon-server.ts', '/src/mcp/server.ts']);
    expect(SOURCES['/src/mcp/server.ts']).toContain("const modern = context.era === 'modern';");
  });
});
