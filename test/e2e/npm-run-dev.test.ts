/**
 * `npm run dev` as a user runs it: scripts/dev.ts as a child process on a free port and a fresh
 * state directory. It must say "ready" only once the demo data is in, print no noise, and stop
 * with everything it started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, wranglerEnv } from '../../scripts/lib/wrangler.ts';
import { ACME_DEMO_KEY, GLOBEX_DEMO_KEY } from '../../scripts/seed.ts';

const READY = /^Recon is ready on (http:\/\/localhost:\d+) /m;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

let child: ChildProcess;
let output = '';
let persistTo: string;
let port: number;
let readyUrl: string;

beforeAll(async () => {
  persistTo = await mkdtemp(path.join(tmpdir(), 'recon-dev-'));
  port = await freePort();
  // Its own process group, so the test can see that wrangler and workerd are gone afterwards.
  child = spawn(process.execPath, ['scripts/dev.ts', '--port', String(port), '--persist-to', persistTo], {
    cwd: PROJECT_ROOT,
    env: { ...wranglerEnv(), RECON_VERBOSE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  readyUrl = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = READY.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`npm run dev exited (${code}) before ready:\n${output}`)));
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (persistTo) await rm(persistTo, { recursive: true, force: true });
});

describe('npm run dev', () => {
  it('announces ready with the URL, both demo keys and a first request to try', () => {
    expect(readyUrl).toBe(`http://localhost:${port}`);
    expect(output).toContain(ACME_DEMO_KEY);
    expect(output).toContain(GLOBEX_DEMO_KEY);
    expect(output).toContain(`curl -X POST http://localhost:${port}/api/v1/commands/research`);
    expect(output).toMatch(/demo data loaded into acme: \d+ new, \d+ updated, \d+ unchanged/);
    // "Loading" comes before "ready", which comes last.
    expect(output.indexOf('Loading demo data')).toBeGreaterThan(-1);
    expect(output.indexOf('Loading demo data')).toBeLessThan(output.search(READY));
  });

  it('prints no stack traces, JSON dumps, source-map warnings or per-request lines', () => {
    expect(output).not.toMatch(/^\s+at /m); // a stack frame
    expect(output).not.toMatch(/ENOTFOUND|Request\.cf/);
    expect(output).not.toMatch(/"results"|"success"|"meta"/); // wrangler d1 execute's JSON
    expect(output).not.toMatch(/^\s*[[{]\s*$/m); // a JSON array or object opened on its own line
    expect(output).not.toMatch(/source ?map/i);
    expect(output).not.toMatch(/"event":"request"|\[wrangler:info\]/);
    expect(output.trim().split('\n').length).toBeLessThan(25);
  });

  it('answers research with cited sources right after ready', async () => {
    const response = await fetch(`${readyUrl}/api/v1/commands/research`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ACME_DEMO_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ topic: 'Acme Analytics pricing' }),
    });
    expect(response.status).toBe(200);
    const brief = await response.text();
    expect(brief).toMatch(/_\d{4}-\d{2}-\d{2} · tier lite · [1-9]\d* sources? ·/);
    expect(brief).toMatch(/\[1\]/);
  });

  it('stops on SIGTERM with wrangler and workerd', async () => {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Only to scripts/dev.ts, as a process manager would: it must stop what it started.
    child.kill('SIGTERM');
    expect(await exited).not.toBeNull();
    const deadline = Date.now() + 15_000;
    while (groupAlive(child.pid!) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(groupAlive(child.pid!)).toBe(false);
  });
});
