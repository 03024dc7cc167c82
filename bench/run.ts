/**
 * `npm run bench [-- options]`: Recon's speed against the runtime's own ceiling.
 *
 * Builds the Worker as it is deployed (`wrangler deploy --dry-run --outdir`), serves it with the
 * project's own Miniflare (the one wrangler ships) with every Worker on its own workerd socket
 * (`unsafeDirectSockets`: no proxy and no entry Worker in front), bindings and vars taken from
 * wrangler.toml the way wrangler takes them (`unstable_getMiniflareWorkerOptions`), a real local D1
 * seeded with the demo organizations and the demo market, and real Durable Objects. Then it loads
 * each scenario with autocannon (a child process, loopback only, bounded in time) and reads
 * workerd's CPU time from /proc/<pid>/stat around each run.
 *
 * Measured in the same run, as the ceiling and the baseline:
 *   bare     a bare one-route Worker (bench/workers/bare.js): every ratio is to its req/s
 *   mcp-sdk  an MCP SDK stateless server with two tools (bench/workers/mcp-baseline.ts)
 *
 * Every Recon scenario runs twice (except /healthz, which uses no limiter):
 *   always-allow  the rate-limit bindings always allow (bench/workers/recon-always-allow.ts): what
 *                 the targets are measured with, closest to Cloudflare's binding
 *   simulated     Miniflare's simulation of the binding, limits raised so it never refuses: a
 *                 Durable Object writing SQLite on every call, serialized per key; Cloudflare's
 *                 binding does not work that way
 *
 * Writes bench/results/<date>.json and <date>.md and prints the table. Options:
 *   --duration 10     seconds per scenario (after a 2 s warm-up)
 *   --connections 32  autocannon connections
 *   --only a,b        only these scenarios (names as in the table; bare always runs)
 *   --compare <file>  a previous results JSON: adds its ratios as a "before" column
 *   --keep            keep the temporary directory (builds and local state)
 *   --profile         take a CPU profile of each Recon scenario while it is measured (through
 *                     workerd's inspector; slower, so its req/s are not comparable): prints the
 *                     functions with the most self time, writes bench/results/profiles/*.cpuprofile
 */
import { spawn, execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { hotFunctions, InspectorSession, startProfiling } from './cpu-profile.ts';
import { CLOCK_TICKS_PER_SECOND, cpuSeconds, memoryMiB, workerdPid } from '../scripts/bench/proc.ts';
import { benchConfig } from '../scripts/bench/setup.ts';
import { freePort } from '../scripts/lib/free-port.ts';
import { PROJECT_ROOT } from '../scripts/lib/wrangler.ts';
import { BENCH_DIR, build, compatibilityDate, DIRECT_SOCKET, reconWorker, source } from './serve.ts';
import { ACME_DEMO_KEY, loadDemoKnowledgeBase, seedLocalDatabase } from '../scripts/seed.ts';

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '2' },
    only: { type: 'string' },
    compare: { type: 'string' },
    keep: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});
const DURATION = Number(options.duration);
const CONNECTIONS = Number(options.connections);
const WARMUP = Number(options.warmup);
if (!(DURATION >= 1 && DURATION <= 60) || !(CONNECTIONS >= 1 && CONNECTIONS <= 256) || !(WARMUP >= 0 && WARMUP <= 30)) {
  console.error('Usage: npm run bench [-- --duration 1-60 --connections 1-256 --warmup 0-30 --only healthz,commands --compare bench/results/<file>.json --keep]');
  process.exit(2);
}

const AUTOCANNON = path.join(PROJECT_ROOT, 'node_modules', 'autocannon', 'autocannon.js');

// ---------------------------------------------------------------------------------------------
// Scenarios.

type Target = 'bare' | 'mcp-sdk' | 'recon';
type Limiter = 'always-allow' | 'simulated' | 'none';

interface Scenario {
  name: string;
  target: Target;
  /** Recon scenarios: which limiters to run it with. */
  limiters: Limiter[];
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** What a correct answer contains: checked once before the load, so no scenario measures errors. */
  expect: (text: string) => boolean;
}

const KEY = { Authorization: `Bearer ${ACME_DEMO_KEY}` };
const JSON_BODY = { 'Content-Type': 'application/json' };
const MCP_HEADERS = { ...JSON_BODY, Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': '2025-11-25' };
const BOTH: Limiter[] = ['always-allow', 'simulated'];

const SCENARIOS: Scenario[] = [
  { name: 'bare /healthz', target: 'bare', limiters: ['none'], method: 'GET', path: '/healthz', expect: (t) => t.includes('"ok"') },
  {
    name: 'mcp-sdk tools/list',
    target: 'mcp-sdk',
    limiters: ['none'],
    method: 'POST',
    path: '/mcp',
    headers: MCP_HEADERS,
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    expect: (t) => t.includes('"echo"') && t.includes('"add"'),
  },
  { name: 'healthz', target: 'recon', limiters: ['none'], method: 'GET', path: '/healthz', expect: (t) => t.includes('"ok"') },
  { name: 'commands', target: 'recon', limiters: BOTH, method: 'GET', path: '/api/v1/commands', headers: KEY, expect: (t) => t.includes('research') },
  {
    name: 'help',
    target: 'recon',
    limiters: BOTH,
    method: 'POST',
    path: '/api/v1/commands/help',
    headers: { ...KEY, ...JSON_BODY },
    body: {},
    expect: (t) => t.includes('research'),
  },
  {
    name: 'research',
    target: 'recon',
    limiters: BOTH,
    method: 'POST',
    path: '/api/v1/commands/research',
    headers: { ...KEY, ...JSON_BODY },
    body: { topic: 'Acme Analytics pricing' },
    expect: (t) => t.includes('[1]'),
  },
  {
    name: 'mcp tools/list',
    target: 'recon',
    limiters: BOTH,
    method: 'POST',
    path: '/api/mcp',
    headers: { ...KEY, ...MCP_HEADERS },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    expect: (t) => t.includes('"gtm-audit"') && t.includes('"inputSchema"'),
  },
  {
    name: 'mcp tools/call help',
    target: 'recon',
    limiters: BOTH,
    method: 'POST',
    path: '/api/mcp',
    headers: { ...KEY, ...MCP_HEADERS },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'help', arguments: {} } },
    expect: (t) => t.includes('research') && !t.includes('"isError":true'),
  },
  {
    name: 'oms get',
    target: 'recon',
    limiters: BOTH,
    method: 'POST',
    path: '/api/v1/oms/objects/get',
    headers: { ...KEY, ...JSON_BODY },
    body: { type: 'company', key: 'acme.com' },
    expect: (t) => t.includes('Acme Analytics'),
  },
  {
    name: 'oms search',
    target: 'recon',
    limiters: BOTH,
    method: 'POST',
    path: '/api/v1/oms/objects/search',
    headers: { ...KEY, ...JSON_BODY },
    body: { type: 'company', query: 'analytics' },
    expect: (t) => t.includes('acme.com'),
  },
];

const only = options.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !SCENARIOS.some((s) => s.name === name));
if (unknown?.length) {
  console.error(`Unknown scenario(s) ${unknown.join(', ')}; scenarios: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Building and serving.

let tempDir: string | undefined;
let miniflare: Miniflare | undefined;
let workerErrors = 0;

async function cleanup(): Promise<void> {
  const mf = miniflare;
  miniflare = undefined;
  if (mf) await mf.dispose().catch((error: unknown) => console.error('miniflare.dispose failed:', error));
  if (tempDir && !options.keep) rmSync(tempDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  else if (tempDir) console.log(`Kept ${tempDir} (--keep).`);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping.`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Load.

interface AutocannonResult {
  requests: { total: number };
  latency: { p50: number; p99: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

function autocannon(url: string, scenario: Scenario, seconds: number): Promise<AutocannonResult> {
  const args = [AUTOCANNON, '--json', '-c', String(CONNECTIONS), '-d', String(seconds), '-m', scenario.method];
  for (const [name, value] of Object.entries(scenario.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (scenario.body !== undefined) args.push('-b', JSON.stringify(scenario.body));
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${stderr.slice(-500)}`));
      try {
        resolve(JSON.parse(stdout) as AutocannonResult);
      } catch {
        reject(new Error(`autocannon printed no JSON: ${stdout.slice(0, 300)} ${stderr.slice(-300)}`));
      }
    });
  });
}

interface Row {
  scenario: string;
  target: Target;
  limiter: Limiter;
  requests: number;
  seconds: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  cpuUsPerRequest: number;
  load1: number;
  /** req/s over the bare Worker's (the mean of its runs at the start and the end). */
  ratio?: number;
  /** The bare Worker's CPU per request over this one's: the same ratio by CPU, less swayed by load. */
  cpuRatio?: number;
}

async function measure(url: string, scenario: Scenario, limiter: Limiter, pid: number, inspector?: string): Promise<Row> {
  const init: RequestInit = {
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: JSON.stringify(scenario.body) }),
  };
  const check = await fetch(url, init);
  const text = await check.text();
  if (check.status !== 200 || !scenario.expect(text)) {
    throw new Error(`${scenario.name} (${limiter}) answered ${check.status} before the load: ${text.slice(0, 400)}`);
  }
  if (WARMUP > 0) await autocannon(url, scenario, WARMUP);
  const session = inspector ? await InspectorSession.open(inspector) : undefined;
  const stopProfiling = session ? await startProfiling(session) : undefined;
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon(url, scenario, DURATION);
  const cpu = cpuSeconds(pid) - cpuBefore;
  if (session && stopProfiling) {
    const profile = await stopProfiling();
    session.close();
    await reportProfile(`${scenario.name} ${limiter}`, profile);
  }
  const requests = result.requests.total;
  return {
    scenario: scenario.name,
    target: scenario.target,
    limiter,
    requests,
    seconds: result.duration,
    reqPerSec: requests / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuUsPerRequest: requests > 0 ? (cpu * 1e6) / requests : Number.NaN,
    load1: os.loadavg()[0]!,
  };
}

/** Prints the hottest functions of a scenario's profile and writes the profile for DevTools. */
async function reportProfile(name: string, profile: Parameters<typeof hotFunctions>[0]): Promise<void> {
  const directory = path.join(BENCH_DIR, 'results', 'profiles');
  await mkdir(directory, { recursive: true });
  const file = path.join(directory, `${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  console.log(`    profile of ${name} (${file}): self time, share of busy time, share with callees`);
  for (const hot of hotFunctions(profile, 20)) {
    console.log(`      ${(hot.share * 100).toFixed(1).padStart(5)}%  ${(hot.totalShare * 100).toFixed(1).padStart(5)}%  ${hot.name} ${hot.where}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Output.

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function table(rows: Row[], before?: Map<string, Row>): string {
  const head = [
    'scenario',
    'limiter',
    'req/s',
    'ratio to bare',
    ...(before ? ['ratio before'] : []),
    'p50 ms',
    'p99 ms',
    'errors',
    'CPU µs/req',
    ...(before ? ['CPU µs/req before'] : []),
    'CPU ratio',
    'load (1 min)',
  ];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const row of rows) {
    const previous = before?.get(`${row.scenario}|${row.limiter}`);
    lines.push(
      `| ${[
        row.scenario,
        row.limiter,
        fixed(row.reqPerSec, 0),
        fixed(row.ratio ?? Number.NaN, 3),
        ...(before ? [previous ? fixed(previous.ratio ?? Number.NaN, 3) : '-'] : []),
        fixed(row.p50Ms, 0),
        fixed(row.p99Ms, 0),
        String(row.errors),
        fixed(row.cpuUsPerRequest, 0),
        ...(before ? [previous ? fixed(previous.cpuUsPerRequest, 0) : '-'] : []),
        fixed(row.cpuRatio ?? Number.NaN, 3),
        fixed(row.load1, 2),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

async function resultFile(date: string, ext: string): Promise<string> {
  const dir = path.join(BENCH_DIR, 'results');
  await mkdir(dir, { recursive: true });
  for (let n = 1; ; n++) {
    const file = path.join(dir, `${date}${n === 1 ? '' : `-${n}`}`);
    if (!existsSync(`${file}.json`)) return `${file}.${ext}`;
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

async function main(): Promise<void> {
  const ticks = await promisify(execFile)('getconf', ['CLK_TCK']).then((r) => Number(r.stdout.trim()), () => CLOCK_TICKS_PER_SECOND);
  if (ticks !== CLOCK_TICKS_PER_SECOND) throw new Error(`CLK_TCK is ${ticks}, not ${CLOCK_TICKS_PER_SECOND}`);
  const before = options.compare
    ? new Map((JSON.parse(readFileSync(options.compare, 'utf8')) as { rows: Row[] }).rows.map((row) => [`${row.scenario}|${row.limiter}`, row]))
    : undefined;

  tempDir = await mkdtemp(path.join(os.tmpdir(), 'recon-bench-'));
  const state = path.join(tempDir, 'state');
  console.log('Building (wrangler deploy --dry-run) and seeding the local D1...');
  const config = await benchConfig(tempDir); // wrangler.toml with the limits raised: the simulation never refuses
  const [reconEntry, allowEntry, mcpEntry] = await Promise.all([
    build(path.join(tempDir, 'recon'), ['--config', config]),
    build(path.join(tempDir, 'recon-always-allow'), ['--config', config, path.join(BENCH_DIR, 'workers', 'recon-always-allow.ts')]),
    build(path.join(tempDir, 'mcp-sdk'), ['--config', path.join(BENCH_DIR, 'workers', 'mcp-baseline.wrangler.toml')]),
  ]);
  await seedLocalDatabase({ persistTo: state, quiet: true });

  const direct = DIRECT_SOCKET;
  const recon = (name: string, scriptPath: string) => reconWorker(config, name, scriptPath);
  const workerOptions = { compatibilityDate: compatibilityDate(config) };
  const inspectorPort = options.profile ? await freePort() : undefined;
  miniflare = new Miniflare(
    convertV4MiniflareOptions({
      resourcePersistencePath: path.join(state, 'v3'),
      ...(inspectorPort === undefined ? {} : { inspectorPort }),
      // The Workers' console output (Recon's access log) is produced as in production, then dropped
      // here: printing thousands of lines a second would take CPU from the Worker being measured.
      // Errors are counted and the first few shown.
      handleStructuredLogs: ({ level, message }: { level: string; message: string }) => {
        if (level !== 'error') return;
        if (++workerErrors <= 5) console.error(`worker error: ${message.slice(0, 500)}`);
      },
      workers: [
        { name: 'bare', ...source(path.join(BENCH_DIR, 'workers', 'bare.js')), compatibilityDate: workerOptions.compatibilityDate, unsafeDirectSockets: direct },
        {
          name: 'mcp-sdk',
          ...source(mcpEntry),
          compatibilityDate: workerOptions.compatibilityDate,
          compatibilityFlags: ['nodejs_compat'],
          unsafeDirectSockets: direct,
        },
        recon('recon', reconEntry),
        recon('recon-always-allow', allowEntry),
      ],
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  await miniflare.ready;
  const base = {
    bare: (await miniflare.unsafeGetDirectURL('bare')).origin,
    'mcp-sdk': (await miniflare.unsafeGetDirectURL('mcp-sdk')).origin,
    simulated: (await miniflare.unsafeGetDirectURL('recon')).origin,
    'always-allow': (await miniflare.unsafeGetDirectURL('recon-always-allow')).origin,
  };
  const pid = workerdPid();
  const loaded = await loadDemoKnowledgeBase(base['always-allow']);
  console.log(`Demo market loaded into acme (${loaded.imported} new, ${loaded.unchanged} unchanged). workerd pid ${pid}.`);
  console.log(`${DURATION} s per scenario after a ${WARMUP} s warm-up, ${CONNECTIONS} connections; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs.\n`);

  const started = new Date();
  const loadStart = os.loadavg();
  const rows: Row[] = [];
  const run = async (scenario: Scenario, limiter: Limiter) => {
    const origin = scenario.target === 'recon' ? base[limiter === 'none' ? 'simulated' : limiter] : base[scenario.target];
    const worker = limiter === 'always-allow' ? 'recon-always-allow' : 'recon';
    const inspector = options.profile && scenario.target === 'recon' ? `ws://127.0.0.1:${inspectorPort}/core:user:${worker}` : undefined;
    const row = await measure(`${origin}${scenario.path}`, scenario, limiter, pid, inspector);
    rows.push(row);
    console.log(`  ${scenario.name.padEnd(22)} ${limiter.padEnd(13)} ${fixed(row.reqPerSec, 0).padStart(6)} req/s  p50 ${fixed(row.p50Ms, 0)} ms  p99 ${fixed(row.p99Ms, 0)} ms  ${fixed(row.cpuUsPerRequest, 0)} µs CPU/req  errors ${row.errors}  load ${row.load1.toFixed(2)}`);
  };
  const bare = SCENARIOS[0]!;
  await run(bare, 'none');
  for (const scenario of SCENARIOS.slice(1)) {
    if (only && !only.includes(scenario.name)) continue;
    for (const limiter of scenario.limiters) await run(scenario, limiter);
  }
  await run(bare, 'none');

  const bareRows = rows.filter((row) => row.target === 'bare');
  const ceiling = bareRows.reduce((sum, row) => sum + row.reqPerSec, 0) / bareRows.length;
  const bareCpu = bareRows.reduce((sum, row) => sum + row.cpuUsPerRequest, 0) / bareRows.length;
  for (const row of rows) {
    row.ratio = row.reqPerSec / ceiling;
    row.cpuRatio = bareCpu / row.cpuUsPerRequest;
  }
  const memory = memoryMiB(pid);
  const ordered = [bareRows[0]!, ...rows.filter((row) => row.target !== 'bare'), bareRows[1]!];

  const date = started.toISOString().slice(0, 10);
  const summary = [
    `Recon bench, ${started.toISOString()}: ${DURATION} s per scenario, autocannon -c ${CONNECTIONS}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}).`,
    `Bare Worker: ${bareRows.map((row) => fixed(row.reqPerSec, 0)).join(' and ')} req/s (start and end; ratios are to their mean, ${fixed(ceiling, 0)}).`,
    `Worker errors logged (console.error): ${workerErrors}.`,
    `Load average at start ${loadStart.map((l) => l.toFixed(2)).join(' ')}, at end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}. workerd peak RSS ${fixed(memory.peak, 0)} MiB (now ${fixed(memory.rss, 0)} MiB).`,
    'Limiter: always-allow = the rate-limit bindings always allow (closest to Cloudflare\'s binding; the targets); simulated = Miniflare\'s simulation (a Durable Object writing SQLite per call, serialized per key); none = not used.',
    'CPU µs/req: workerd\'s user + system CPU time over the run (all its threads: the Worker, D1, Durable Objects) divided by the requests answered; CPU ratio: the bare Worker\'s CPU µs/req over the row\'s.',
  ].join('\n');
  const markdown = `${summary}\n\n${table(ordered, before)}\n`;
  const jsonFile = await resultFile(date, 'json');
  await writeFile(
    jsonFile,
    `${JSON.stringify(
      {
        date: started.toISOString(),
        durationSeconds: DURATION,
        connections: CONNECTIONS,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        node: process.version,
        loadAverage: { start: loadStart, end: os.loadavg() },
        bareReqPerSec: ceiling,
        workerdPeakRssMiB: memory.peak,
        rows: ordered,
      },
      null,
      2,
    )}\n`,
  );
  await writeFile(jsonFile.replace(/\.json$/, '.md'), markdown);
  console.log(`\n${markdown}\nWritten: ${path.relative(PROJECT_ROOT, jsonFile)} and .md`);
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
