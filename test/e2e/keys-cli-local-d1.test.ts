/**
 * How `npm run keys` reaches the local database (scripts/lib/local-d1.ts): through the dev server
 * recorded in the state directory's session file when it answers, else `wrangler d1 execute`, and
 * retries of a batch only while the file is locked. A stand-in for wrangler's Local Explorer (the
 * two calls the CLI makes) shows which way a command went; npm-run-dev.test.ts runs the real one.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUSY_RETRY_DELAYS_MS, EXPLORER_API, LocalD1Error, retryWhileBusy, writeDevSession } from '../../scripts/lib/local-d1.ts';
import { PROJECT_ROOT, wranglerEnv } from '../../scripts/lib/wrangler.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let serverUrl: string;
let seen: Seen[] = [];
/** What the stand-in answers to a raw batch. */
let answer: (statements: string[]) => { status: number; body: unknown };

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const send = (status: number, value: unknown) => response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
      if (request.method === 'GET' && request.url === `${EXPLORER_API}/d1/database`) {
        return send(200, { success: true, errors: [], result: [{ name: 'DB', uuid: 'db-uuid', version: 'production' }] });
      }
      if (request.method === 'POST' && request.url === `${EXPLORER_API}/d1/database/db-uuid/raw`) {
        const { status, body: reply } = answer((JSON.parse(body) as { batch: { sql: string }[] }).batch.map((query) => query.sql));
        return send(status, reply);
      }
      send(404, { success: false, errors: [{ code: 10000, message: 'not found' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'recon-keys-'));
  seen = [];
});
afterEach(() => rm(stateDir, { recursive: true, force: true }));

function keys(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/keys.ts', ...args, '--persist-to', stateDir], { cwd: PROJECT_ROOT, env: wranglerEnv() }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** One statement's result as the Local Explorer answers it. */
const rows = (columns: string[], values: (string | number | null)[][]) => ({ success: true, results: { columns, rows: values }, meta: {} });

describe('npm run keys with a dev server recorded in the state directory', () => {
  it('creates through the server: one batch, this server only, the same output', async () => {
    await writeDevSession(stateDir, { url: serverUrl, pid: process.pid });
    answer = (statements) => ({
      status: 200,
      body: { success: true, errors: [], result: [rows([], []), rows([], []), rows(['key_id', 'created_org'], [[/k\.id = '(key_\w+)'/.exec(statements[2]!)![1]!, 1]])] },
    });
    // The state directory holds no database: only the server could have answered.
    const run = await keys('create', '--org', 'loadtest-1', '--name', 'x', '--scopes', 'commands');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Created organization loadtest-1 \(sales profile not finished yet\)\.\nCreated key key_\w+ "x" for loadtest-1 with scopes: commands\.\n\n {2}rk_live_\S+\n\nStore it now: this key cannot be shown again \(only its hash is kept\)\.\n$/,
    );
    const raw = seen.filter((call) => call.method === 'POST');
    expect(raw).toHaveLength(1);
    expect(seen.every((call) => call.headers['x-miniflare-explorer-no-aggregate'] === 'true')).toBe(true);
    const batch = (JSON.parse(raw[0]!.body) as { batch: { sql: string }[] }).batch.map((query) => query.sql);
    expect(batch).toHaveLength(3);
    expect(batch[0]).toMatch(/^INSERT INTO organizations .*'loadtest-1'/s);
    expect(batch[1]).toMatch(/^INSERT INTO api_keys .*'commands'/s);
  });

  it("says what the server's database said, and exits 1", async () => {
    await writeDevSession(stateDir, { url: serverUrl, pid: process.pid });
    answer = () => ({ status: 500, body: { success: false, errors: [{ code: 10001, message: 'D1_ERROR: no such table: organizations' }], result: null } });
    const run = await keys('list', '--org', 'acme');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `the dev server at ${serverUrl} failed: D1_ERROR: no such table: organizations (run \`npm run db:local\` first)\n`,
    );
  });

  it('uses the database file when the recorded server process is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await writeDevSession(stateDir, { url: serverUrl, pid: gone });
    // wrangler on an empty state directory: no tables yet.
    const run = await keys('list', '--org', 'acme');
    expect(seen).toEqual([]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^wrangler d1 execute failed: .*no such table: organizations.* \(run `npm run db:local` first\)\n$/m);
  }, 60_000);
});

describe('retryWhileBusy', () => {
  const busy = () => new LocalD1Error('database is locked: SQLITE_BUSY', 'wrangler d1 execute');

  it('runs the batch again after each locked attempt, waiting longer each time, until it goes through', async () => {
    const waits: number[] = [];
    let attempts = 0;
    const result = await retryWhileBusy(
      async () => {
        attempts++;
        if (attempts < 4) throw busy();
        return 'done';
      },
      [100, 200, 400, 800],
      async (ms) => void waits.push(ms),
    );
    expect(result).toBe('done');
    expect(attempts).toBe(4);
    // Each wait is its delay plus up to half again.
    expect(waits.map((ms, i) => ms / [100, 200, 400][i]!).every((ratio) => ratio >= 1 && ratio <= 1.5)).toBe(true);
    expect(waits).toHaveLength(3);
  });

  it('gives up after the last delay with the last error', async () => {
    let attempts = 0;
    const failing = retryWhileBusy(
      async () => {
        attempts++;
        throw busy();
      },
      BUSY_RETRY_DELAYS_MS,
      async () => {},
    );
    await expect(failing).rejects.toThrow('SQLITE_BUSY');
    expect(attempts).toBe(BUSY_RETRY_DELAYS_MS.length + 1);
  });

  it('never repeats a batch that failed for another reason', async () => {
    let attempts = 0;
    const failing = retryWhileBusy(
      async () => {
        attempts++;
        throw new LocalD1Error('UNIQUE constraint failed: api_keys.id', 'wrangler d1 execute');
      },
      BUSY_RETRY_DELAYS_MS,
      async () => {},
    );
    await expect(failing).rejects.toThrow('UNIQUE');
    expect(attempts).toBe(1);
  });
});
