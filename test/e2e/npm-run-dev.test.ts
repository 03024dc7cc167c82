/**
 * `npm run dev` as a user runs it: scripts/dev.ts as a child process on a free port and a fresh
 * state directory. It must say "ready" only once the demo data is in, print no noise, let `npm run
 * keys` work on its state while it serves, and stop with everything it started.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/free-port.ts';
import { DEV_SESSION_FILE, readDevSession } from '../../scripts/lib/local-d1.ts';
import { PROJECT_ROOT, wranglerEnv } from '../../scripts/lib/wrangler.ts';
import { ACME_DEMO_KEY, GLOBEX_DEMO_KEY } from '../../scripts/seed.ts';

const READY = /^Recon is ready on (http:\/\/localhost:\d+) /m;

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

  it('lets npm run keys create, list and revoke on its state while it serves 30 commands at once', async () => {
    // The server says where it serves, for this user only; the CLI goes through it, never opening
    // the database file beside it (which failed both sides: SQLITE_BUSY and 500s).
    expect(readDevSession(persistTo)).toEqual({ url: readyUrl, pid: child.pid });
    expect((await stat(path.join(persistTo, DEV_SESSION_FILE))).mode & 0o777).toBe(0o600);

    const statuses = Promise.all(
      Array.from({ length: 30 }, async () => {
        const response = await fetch(`${readyUrl}/api/v1/commands/gtm-audit`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${ACME_DEMO_KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ company: 'globex.com' }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const created = await Promise.all(['loadtest-1', 'loadtest-2', 'loadtest-3'].map((org) => keys('create', '--org', org, '--name', 'x')));
    // 202 started, 429 over the organization's 3 running runs: never a 5xx.
    expect((await statuses).filter((status) => status !== 202 && status !== 429)).toEqual([]);

    for (const [i, run] of created.entries()) {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toContain(`Created organization loadtest-${i + 1} (sales profile not finished yet).`);
      const key = /^ {2}(rk_live_\S+)$/m.exec(run.stdout)![1]!;
      const keyId = /Created key (key_\w+) "x"/.exec(run.stdout)![1]!;
      // The key works at once, and the CLI lists and revokes it through the same server.
      expect((await fetch(`${readyUrl}/api/v1/commands`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
      const listed = await keys('list', '--org', `loadtest-${i + 1}`);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`^${keyId} +x +rk_live_\\S+ +commands,oms:read,oms:write,oms:approve +\\S+ +\\S+ +-$`, 'm'));
      expect(await keys('revoke', keyId)).toMatchObject({ code: 0, stdout: `Revoked key ${keyId} of loadtest-${i + 1}. It stops working within 10 seconds.\n` });
    }
    expect(await keys('list', '--org', 'nobody-here')).toMatchObject({ code: 1, stderr: 'No organization with slug "nobody-here".\n' });
    // Nor did the server log a database error meanwhile.
    expect(output).not.toMatch(/SQLITE_BUSY|D1_ERROR|session commit token/);
  });

  it('serves the demo companies\' sites on loopback and says how to read one and change a page', async () => {
    expect(output).toContain(`curl -X POST http://localhost:${port}/api/v1/oms/sites`);
    expect(output).toContain(`-d '{"domain": "globex.com"}'`);
    const origin = /curl -s (http:\/\/127\.0\.0\.1:\d+)\/pricing \| sed/.exec(output)?.[1];
    expect(origin).toBeDefined();
    expect(output).toContain(`curl -X PUT '${origin}/__site/pages?path=/pricing' --data-binary @-`);
    // The site is the demo market's globex.com: its pricing source as a page, robots.txt and sitemap.
    const pricing = await (await fetch(`${origin}/pricing`)).text();
    expect(pricing).toContain('<title>Globex pricing: Team, Professional and Enterprise plans</title>');
    expect(pricing).toContain('<p>The Team plan costs $49 per seat per month and includes a minimum of 10 seats, core dashboards and product analytics.</p>');
    expect(await (await fetch(`${origin}/robots.txt`)).text()).toContain('Sitemap: https://globex.com/sitemap.xml');
    expect(await (await fetch(`${origin}/sitemap.xml`)).text()).toContain('<loc>https://globex.com/compare/globex-vs-acme-analytics</loc>');

    // A site read of globex.com (3 pages, to stay short at the default 1 s between requests) reads that loopback site.
    const start = await fetch(`${readyUrl}/api/v1/oms/sites`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ACME_DEMO_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'globex.com', pages: 3 }),
    });
    expect(start.status).toBe(202);
    const location = start.headers.get('location')!;
    let status = 'running';
    let report = '';
    for (let i = 0; i < 120 && status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const poll = await fetch(`${readyUrl}${location}`, { headers: { Authorization: `Bearer ${ACME_DEMO_KEY}` } });
      report = await poll.text();
      status = poll.headers.get('x-run-status')!;
    }
    expect(status).toBe('completed');
    expect(report).toContain('3 of at most 3 pages requested');
    const log = (await (await fetch(`${origin}/__site/log`)).json()) as { requests: { path: string; userAgent?: string }[] };
    const paths = log.requests.filter((request) => request.userAgent?.startsWith('ReconBot/')).map((request) => request.path);
    expect(paths.slice(0, 2)).toEqual(['/robots.txt', '/sitemap.xml']);
    expect(paths).toContain('/pricing');
  });

  it('stops on SIGTERM with wrangler and workerd', async () => {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Only to scripts/dev.ts, as a process manager would: it must stop what it started.
    child.kill('SIGTERM');
    expect(await exited).not.toBeNull();
    const deadline = Date.now() + 15_000;
    while (groupAlive(child.pid!) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(groupAlive(child.pid!)).toBe(false);
    expect(existsSync(path.join(persistTo, DEV_SESSION_FILE))).toBe(false);
  });
});

/** `npm run keys -- <args>` on the server's state directory; never rejects. */
function keys(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/keys.ts', ...args, '--persist-to', persistTo], { cwd: PROJECT_ROOT, env: wranglerEnv() }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
