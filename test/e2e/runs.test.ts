/**
 * End to end: the research engine on the demo market, and asynchronous runs, over HTTP against the
 * real Worker (wrangler's local runtime) with the demo knowledge base loaded as `npm run dev` loads it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDevServer, type DevServer } from './dev-server.ts';

const ACME_KEY = 'rk_test_acme_0000000000000000000000000000';

let server: DevServer;

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

function call(urlPath: string, options: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(server.url + urlPath, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: { Authorization: `Bearer ${ACME_KEY}`, 'Content-Type': 'application/json' },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

function citedSources(markdown: string): string[] {
  return [...markdown.matchAll(/^\[\d+\] .*, (https?:\/\/\S+)$/gm)].map((m) => m[1]!);
}

describe('the research engine on the demo market', () => {
  test('research on "Acme Analytics pricing" answers a brief citing at least 3 sources', async () => {
    const response = await call('/api/v1/commands/research', { body: { topic: 'Acme Analytics pricing' } });
    expect(response.status).toBe(200);
    const markdown = await response.text();
    expect(markdown).toContain('## Key findings');
    expect(citedSources(markdown).length).toBeGreaterThanOrEqual(3);
  });

  test('competitors answers a ranked table citing at least 3 sources', async () => {
    const response = await call('/api/v1/commands/competitors', { body: {} });
    expect(response.status).toBe(200);
    const markdown = await response.text();
    expect(markdown).toMatch(/^\| 1 \| Globex \| globex\.com \|/m);
    expect(citedSources(markdown).length).toBeGreaterThanOrEqual(3);
  });
});

describe('asynchronous runs', () => {
  test('gtm-audit: start, poll until completed, read the report', async () => {
    const start = await call('/api/v1/commands/gtm-audit', { body: {} });
    expect(start.status).toBe(202);
    const location = start.headers.get('Location')!;
    let response = await call(location);
    for (let i = 0; i < 100 && response.headers.get('X-Run-Status') === 'running'; i++) {
      expect(await response.text()).toMatch(/^Running gtm-audit for acme\.com: step \d of 6/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      response = await call(location);
    }
    expect(response.headers.get('X-Run-Status')).toBe('completed');
    const markdown = await response.text();
    expect(markdown).toMatch(/^# GTM audit: Acme Analytics/);
    for (const area of ['Positioning', 'Ideal customer profile', 'Pricing', 'Channels', 'Competition', 'Content']) {
      expect(markdown).toMatch(new RegExp(`^\\| ${area} \\| \\d+/100 \\|`, 'm'));
    }
  });

  test('POST /api/v1/audit?wait=true returns the audit inline, and the same run is readable by its id', async () => {
    const started = Date.now();
    const response = await call('/api/v1/audit?wait=true', { body: {} });
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(response.headers.get('X-Run-Status')).toBe('completed');
    const markdown = await response.text();
    expect(markdown).toMatch(/^# Organization audit: Acme Analytics/);
    const later = await call(`/api/v1/audit?id=${response.headers.get('X-Audit-Id')}`);
    expect(await later.text()).toBe(markdown);
    const listed = (await (await call('/api/v1/runs?limit=5')).json()) as { runs: { id: string; status: string }[] };
    expect(listed.runs).toContainEqual(expect.objectContaining({ id: response.headers.get('X-Audit-Id'), status: 'completed' }));
  });
});
