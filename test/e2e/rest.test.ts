/**
 * End to end over HTTP: the real Worker (wrangler's local runtime) on a seeded local D1, called
 * with fetch exactly as a client would, plus the operator keys CLI writing into the same state.
 * One server for the whole file.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/lib/wrangler.ts';
import { startDevServer, type DevServer } from './dev-server.ts';

const ACME_KEY = 'rk_test_acme_0000000000000000000000000000';
const GLOBEX_KEY = 'rk_test_globex_00000000000000000000000000';

let server: DevServer;

beforeAll(async () => {
  server = await startDevServer();
});

afterAll(async () => {
  await server?.stop();
});

function call(urlPath: string, options: { key?: string; method?: string; body?: unknown } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(server.url + urlPath, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

/** Runs the keys CLI against the server's local state; resolves with its stdout (rejects on failure). */
async function keysCli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(PROJECT_ROOT, 'scripts', 'keys.ts'), ...args, '--persist-to', server.persistTo],
    { cwd: PROJECT_ROOT },
  );
  return stdout;
}

describe('REST over HTTP', () => {
  test('GET /healthz answers 200 without a key', async () => {
    const response = await call('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('GET /api/v1/commands with the acme demo key answers the markdown catalog', async () => {
    const response = await call('/api/v1/commands', { key: ACME_KEY });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/markdown/);
    expect(await response.text()).toContain('# Recon commands');
  });

  test('a command for globex (profile not finished) answers 428 onboarding_required', async () => {
    const response = await call('/api/v1/commands/research', { key: GLOBEX_KEY, body: { topic: 'x' } });
    expect(response.status).toBe(428);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ error: 'onboarding_required' });
  });

  test('no key answers 401 unauthorized with WWW-Authenticate', async () => {
    const response = await call('/api/v1/commands');
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
    expect(await response.json()).toMatchObject({ error: 'unauthorized' });
  });

  test('a misspelt argument answers 400 naming the field', async () => {
    const response = await call('/api/v1/commands/research', { key: ACME_KEY, body: { topci: 'x' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; details: { path: string }[] };
    expect(body.error).toBe('invalid_input');
    expect(body.details.map((detail) => detail.path)).toContain('topci');
  });

  test('an unknown command answers 404 JSON', async () => {
    const response = await call('/api/v1/commands/no-such-command', { key: ACME_KEY, body: {} });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});

describe('keys CLI round trip', () => {
  test('create -> the key works -> revoke -> 401 within about 11 seconds', async () => {
    const created = await keysCli('create', '--org', 'e2e-org', '--name', 'ci');
    const key = /\brk_live_[A-Za-z0-9]{43}\b/.exec(created)?.[0];
    const keyId = /\bkey_[0-9a-f]{32}\b/.exec(created)?.[0];
    expect(key, created).toBeDefined();
    expect(keyId, created).toBeDefined();
    expect(created).toMatch(/cannot be shown again/);

    const profile = await call('/api/v1/profile', { key });
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({ complete: false });

    const listed = await keysCli('list', '--org', 'e2e-org');
    expect(listed).toContain(keyId);
    expect(listed).not.toContain(key);

    expect(await keysCli('revoke', keyId!)).toMatch(/Revoked key/);

    // The isolate may keep the key lookup for KEY_CACHE_TTL_MS (10 s).
    const deadline = Date.now() + 11_000;
    let status = 0;
    while (Date.now() < deadline) {
      const response = await call('/api/v1/profile', { key });
      await response.body?.cancel();
      status = response.status;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe(401);
  });
});
