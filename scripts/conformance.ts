/**
 * `npm run test:conformance [-- --spec-version 2026-07-28 --spec-version 2025-11-25] [-- --scenario <name>]`:
 * the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
 * against Recon's MCP server, offline, on loopback.
 *
 * The real Worker runs under wrangler's local runtime (unstable_startWorker on 127.0.0.1, a fresh
 * seeded state: the demo organizations and keys, per-key rate limits raised as the benchmarks do).
 * The suite cannot send a header of its own, and every call to /api/mcp needs a key, so it talks to
 * a proxy on 127.0.0.1 that adds `Authorization: Bearer <acme's demo key>` to each request without
 * one and passes everything else through unchanged, both ways.
 *
 * For each spec version the suite runs its server scenarios (`--suite all` by default: active,
 * pending and draft; `--suite active` for the released ones only); the script prints, per version
 * and scenario, the checks that passed and failed, then every failure with its message, and exits 1
 * if any check failed that `conformance/expected-failures.yml` does not list (the suite reads that
 * file itself with --expected-failures). Results are kept under .conformance/ (gitignored).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { unstable_startWorker } from 'wrangler';
import { benchConfig } from './bench/setup.ts';
import { PROJECT_ROOT } from './lib/wrangler.ts';
import { ACME_DEMO_KEY, seedLocalDatabase } from './seed.ts';

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const { values: options } = parseArgs({
  options: {
    'spec-version': { type: 'string', multiple: true, default: ['2026-07-28', '2025-11-25'] },
    scenario: { type: 'string' },
    suite: { type: 'string', default: 'all' },
  },
});
const VERSIONS = options['spec-version'];
if (VERSIONS.some((version) => !/^\d{4}-\d{2}-\d{2}$/.test(version))) {
  console.error('Usage: npm run test:conformance [-- --spec-version 2026-07-28 --spec-version 2025-11-25 --suite all|active|pending|draft --scenario <name>]');
  process.exit(2);
}
const EXPECTED_FAILURES = path.join(PROJECT_ROOT, 'conformance', 'expected-failures.yml');
const RESULTS = path.join(PROJECT_ROOT, '.conformance');
const SUITE = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'conformance');

/** Hop-by-hop headers a proxy does not pass on (RFC 9110, 7.6.1), and the ones fetch sets itself. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host', 'content-length']);

/** A loopback proxy to `origin` that adds the key to requests without an Authorization header. */
async function keyProxy(origin: string, key: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void forward(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`proxy: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || NOT_FORWARDED.has(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${key}`);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const answer = await fetch(`${origin}${request.url ?? '/'}`, {
      method: request.method,
      headers,
      body: hasBody ? (Readable.toWeb(request) as ReadableStream<Uint8Array>) : undefined,
      duplex: 'half',
      redirect: 'manual',
    } as RequestInit);
    const sent: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!NOT_FORWARDED.has(name) && name !== 'content-encoding') sent[name] = value;
    });
    response.writeHead(answer.status, sent);
    // Streamed as it comes (an SSE answer is written event by event).
    if (answer.body) {
      const reader = answer.body.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) response.write(next.value);
    }
    response.end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs the suite once; resolves with its exit code. */
function runSuite(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(SUITE, args, { stdio: ['ignore', 'inherit', 'inherit'], cwd: PROJECT_ROOT });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** The suite's server scenarios tagged [extension] whose names start with `prefix`, from `conformance list --server`. */
async function extensionScenarios(prefix: string): Promise<string[]> {
  const listing = await new Promise<string>((resolve, reject) => {
    const child = spawn(SUITE, ['list', '--server'], { stdio: ['ignore', 'pipe', 'inherit'], cwd: PROJECT_ROOT });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', () => resolve(text));
  });
  return [...listing.matchAll(/^\s*-\s+(\S+)\s+\[extension\]/gm)].map((match) => match[1]!).filter((name) => name.startsWith(prefix));
}

interface Check {
  id?: string;
  name?: string;
  status?: string;
  errorMessage?: string;
  message?: string;
}

/** Every checks.json under `dir`, by scenario directory. */
async function readChecks(dir: string): Promise<Map<string, Check[]>> {
  const found = new Map<string, Check[]>();
  if (!existsSync(dir)) return found;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = path.join(dir, entry.name, 'checks.json');
    if (existsSync(file)) found.set(entry.name, JSON.parse(await readFile(file, 'utf8')) as Check[]);
  }
  return found;
}

async function main(): Promise<number> {
  const tempDir = await mkdtemp(path.join(tmpdir(), 'recon-conformance-'));
  const persistTo = path.join(tempDir, 'state');
  let worker: Awaited<ReturnType<typeof unstable_startWorker>> | undefined;
  let proxy: Awaited<ReturnType<typeof keyProxy>> | undefined;
  try {
    await seedLocalDatabase({ persistTo, quiet: true });
    worker = await unstable_startWorker({
      config: await benchConfig(tempDir),
      dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: persistTo, watch: false, logLevel: 'error' },
    });
    await worker.ready;
    proxy = await keyProxy((await worker.url).origin, ACME_DEMO_KEY);
    const url = `${proxy.url}/api/mcp`;
    console.log(`Recon's MCP server at ${url} (a loopback proxy adding acme's demo key); suite ${path.relative(PROJECT_ROOT, SUITE)}.`);

    let failedOutsideBaseline = false;
    const summary: string[] = [];
    for (const version of VERSIONS) {
      const out = path.join(RESULTS, version);
      await rm(out, { recursive: true, force: true });
      const args = ['server', '--url', url, '--spec-version', version, '--suite', options.suite, '-o', out];
      if (options.scenario) args.push('--scenario', options.scenario);
      if (existsSync(EXPECTED_FAILURES)) args.push('--expected-failures', EXPECTED_FAILURES);
      console.log(`\n== spec ${version} ==`);
      let code = await runSuite(args);
      // The tasks extension's scenarios are tagged [extension], outside every suite: at 2026-07-28
      // each runs on its own with --force (the suite's way of running a scenario it does not list).
      if (version === '2026-07-28' && !options.scenario) {
        for (const scenario of await extensionScenarios('tasks-')) {
          const extra = ['server', '--url', url, '--spec-version', version, '--scenario', scenario, '--force', '-o', out];
          if (existsSync(EXPECTED_FAILURES)) extra.push('--expected-failures', EXPECTED_FAILURES);
          code = Math.max(code, await runSuite(extra));
        }
      }
      if (code !== 0) failedOutsideBaseline = true;
      const checks = await readChecks(out);
      let passed = 0;
      let failed = 0;
      for (const [scenario, list] of [...checks].sort()) {
        const ok = list.filter((check) => check.status === 'SUCCESS').length;
        const bad = list.filter((check) => check.status === 'FAILURE').length;
        passed += ok;
        failed += bad;
        summary.push(`${version}  ${scenario.replace(/-\d{4}-\d{2}-\d{2}T.*$/, '')}: ${ok} passed, ${bad} failed`);
      }
      summary.push(`${version}  all: ${passed} passed, ${failed} failed (suite exit ${code})`);
    }
    console.log(`\n${summary.join('\n')}`);
    return failedOutsideBaseline ? 1 : 0;
  } finally {
    await proxy?.close();
    await worker?.dispose().catch(() => undefined);
    await rm(tempDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }).catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
