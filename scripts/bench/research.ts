/**
 * `npm run bench:research [-- options]`: how fast `research` answers as the knowledge base grows.
 *
 * Starts the real Worker with wrangler's local runtime (unstable_startWorker) on a temporary,
 * seeded state directory, from a temporary copy of wrangler.toml whose rate limits are raised (the
 * real ones, 60 commands a minute per key, would throttle the benchmark). For each size it creates
 * an organization of its own (keys CLI + PUT /api/v1/profile), loads a deterministic synthetic
 * corpus (corpus.ts) through POST /api/v1/oms/objects/import, then times `research` (tier lite)
 * and, as the baseline on the same server in the same run, GET /healthz: one call at a time, the
 * two interleaved so both see the same machine.
 * Prints load rates and a table of median / p95 latencies; removes the worker and the temp
 * directory at the end, on error and on Ctrl-C.
 *
 * Options: --sizes 1000,10000,100000  --calls 200  --warmup 20  --batch-mb 4  --limiter
 * simulated|always-allow (Miniflare's rate-limit simulation, the default, or none)  --keep (leave the
 * state directory, e.g. to query its D1 file directly).
 */
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { unstable_startWorker } from 'wrangler';
import { seedLocalDatabase } from '../seed.ts';
import { benchConfig, createKey, RAISED_LIMIT } from './setup.ts';
import { generateTopics, ndjsonBatches } from './corpus.ts';
import { ms, summarize, type Summary } from './stats.ts';

// Offline machines: skip miniflare's fetch of the `Request.cf` placeholder (a DNS error and a stack trace).
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

/** Issue 16: research p95 under 15 ms at 100k sources. */
const TARGET_P95_MS = 15;
const loadAverage = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    calls: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    'batch-mb': { type: 'string', default: '4' },
    keep: { type: 'boolean', default: false },
    limiter: { type: 'string', default: 'simulated' },
  },
});
const SIZES = options.sizes.split(',').map((s) => Number(s.trim()));
const CALLS = Number(options.calls);
const WARMUP = Number(options.warmup);
const BATCH_BYTES = Math.floor(Number(options['batch-mb']) * 1024 * 1024);
if (!['simulated', 'always-allow'].includes(options.limiter) || SIZES.some((n) => !Number.isInteger(n) || n < 1) || !(CALLS >= 20) || !(WARMUP >= 0) || !(BATCH_BYTES > 0 && BATCH_BYTES <= 10 * 1024 * 1024)) {
  console.error('Usage: npm run bench:research [-- --sizes 1000,10000,100000 --calls 200 --warmup 20 --batch-mb 4 --limiter simulated|always-allow --keep]');
  process.exit(2);
}

const label = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
const seconds = (msValue: number) => `${(msValue / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------
// The server and its cleanup.

type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;
let tempDir: string | undefined;
let worker: Worker | undefined;
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    if (worker) await worker.dispose().catch((error: unknown) => console.error('worker.dispose failed:', error));
    worker = undefined;
    if (tempDir && !options.keep) {
      // Retries: workerd may still be closing files in the directory for a moment after dispose.
      await rm(tempDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }).catch((error: unknown) =>
        console.error(`Could not remove ${tempDir}:`, error),
      );
    } else if (tempDir) console.log(`Kept ${tempDir} (--keep).`);
  })();
  return cleaning;
}

// A wrangler child (seed, keys CLI) writing into the temp directory; a signal waits for it, or it
// would recreate the directory after we removed it.
let interrupted = false;
let setupStep: Promise<unknown> | undefined;
async function setup<T>(start: () => Promise<T>): Promise<T> {
  if (interrupted) throw new Error('Interrupted.');
  const work = start();
  setupStep = work;
  try {
    return await work;
  } finally {
    setupStep = undefined;
  }
}

// On Ctrl-C / SIGTERM, exit (after a running setup child, if any): exiting runs miniflare's own
// exit hook (it SIGKILLs workerd), then removeTempDirSync below. An async cleanup could not finish:
// miniflare's SIGINT listener calls process.exit as soon as ours returns. A second signal exits now.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted || !setupStep) {
      console.error(`\n${signal}: stopping; the worker and the temp directory are removed on exit.`);
      process.exit(130);
    }
    interrupted = true;
    console.error(`\n${signal}: stopping after the running wrangler command; the temp directory is removed on exit.`);
    void setupStep.catch(() => undefined).finally(() => process.exit(130));
  });
}

function removeTempDirSync(): void {
  if (!tempDir || options.keep) return;
  try {
    rmSync(tempDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (error) {
    console.error(`Could not remove ${tempDir}:`, error);
  }
}

/** (Re)registers removeTempDirSync as the LAST exit listener, so it runs after miniflare's. */
function removeTempDirOnExit(): void {
  process.removeListener('exit', removeTempDirSync);
  process.on('exit', removeTempDirSync);
}



// ---------------------------------------------------------------------------------------------
// HTTP.

interface Timed {
  status: number;
  text: string;
}

async function call(url: string, init: RequestInit = {}): Promise<Timed> {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text() };
}

function authed(key: string, body: string, contentType = 'application/json'): RequestInit {
  return { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': contentType }, body };
}

async function finishProfile(base: string, key: string, slug: string): Promise<void> {
  const profile = {
    companyName: `Bench ${slug}`,
    domain: `${slug}.example.com`,
    offering: 'Revenue analytics for go-to-market teams: pipeline, forecasting and churn dashboards.',
    icp: { industries: ['Software'], companySizes: ['51-200'], regions: ['Europe'], personas: ['VP Sales'] },
  };
  const { status, text } = await call(`${base}/api/v1/profile`, { ...authed(key, JSON.stringify(profile)), method: 'PUT' });
  if (status !== 200 || !(JSON.parse(text) as { complete?: boolean }).complete) {
    throw new Error(`PUT /api/v1/profile for ${slug} answered ${status}: ${text.slice(0, 300)}`);
  }
}

interface Load {
  sources: number;
  requests: number;
  megabytes: number;
  ms: number;
}

async function load(base: string, key: string, size: number): Promise<Load> {
  const started = performance.now();
  let sources = 0;
  let requests = 0;
  let bytes = 0;
  let nextReport = 0.25;
  for (const batch of ndjsonBatches(size, BATCH_BYTES)) {
    const { status, text } = await call(`${base}/api/v1/oms/objects/import`, authed(key, batch.body, 'application/x-ndjson'));
    const result = status === 200 ? (JSON.parse(text) as { imported: number; failed: number }) : undefined;
    if (!result || result.failed > 0 || result.imported !== batch.sources) {
      throw new Error(`import request ${requests + 1} answered ${status}: ${text.slice(0, 500)}`);
    }
    sources += batch.sources;
    requests++;
    bytes += batch.body.length;
    if (size >= 10_000 && sources / size >= nextReport && sources < size) {
      const elapsed = performance.now() - started;
      console.log(`    ${sources.toLocaleString('en-US')} / ${size.toLocaleString('en-US')} sources, ${seconds(elapsed)}, ${Math.round(sources / (elapsed / 1000))} sources/s`);
      while (sources / size >= nextReport) nextReport += 0.25;
    }
  }
  return { sources, requests, megabytes: bytes / 1024 / 1024, ms: performance.now() - started };
}

/** Times one call; throws on a non-200. */
async function timed(what: string, request: () => Promise<Timed>): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const { status, text } = await request();
  const elapsed = performance.now() - started;
  if (status !== 200) throw new Error(`${what} answered ${status}: ${text.slice(0, 300)}`);
  return { ms: elapsed, text };
}

// ---------------------------------------------------------------------------------------------
// The run.

interface Row {
  size: number;
  load: Load;
  research: Summary;
  healthz: Summary;
  withFindings: number;
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  tempDir = await mkdtemp(path.join(tmpdir(), 'recon-bench-'));
  removeTempDirOnExit();
  const persistTo = path.join(tempDir, 'state');
  console.log(`Recon research benchmark: sizes ${SIZES.map(label).join(', ')}; ${CALLS} research + ${CALLS} /healthz calls per size (after ${WARMUP} warm-up calls each), one at a time, interleaved.`);
  console.log(`Temp state: ${tempDir}`);
  console.log(`NOTE: rate limits raised for the bench (every [[ratelimits]] limit set to ${RAISED_LIMIT} in a temp copy of wrangler.toml).`);
  console.log(`Load average at start: ${loadAverage()} (the timings share the machine with whatever else runs on it).`);

  await setup(() => seedLocalDatabase({ persistTo, quiet: true }));
  const keys = new Map<number, string>();
  for (const size of SIZES) keys.set(size, await setup(() => createKey(`bench-${label(size)}`, persistTo)));
  // always-allow: the rate-limit bindings always allow (bench/workers/recon-always-allow.ts), as in
  // `npm run bench`; simulated: Miniflare's simulation, a Durable Object writing SQLite on every call.
  const config = await benchConfig(tempDir, options.limiter === 'always-allow' ? 'bench/workers/recon-always-allow.ts' : undefined);
  if (interrupted) throw new Error('Interrupted.');

  worker = await unstable_startWorker({
    config,
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: persistTo, watch: false, logLevel: 'error' },
  });
  await worker.ready;
  removeTempDirOnExit();
  const base = (await worker.url).origin;
  console.log(`Worker on ${base} (wrangler unstable_startWorker, local runtime; rate limiter: ${options.limiter}). Setup took ${seconds(performance.now() - runStarted)}.`);

  const topics = generateTopics(CALLS);
  const warmupTopics = generateTopics(WARMUP, 3);
  const rows: Row[] = [];
  for (const size of SIZES) {
    const slug = `bench-${label(size)}`;
    const key = keys.get(size)!;
    console.log(`\n[${label(size)}] organization ${slug}`);
    await finishProfile(base, key, slug);
    const loaded = await load(base, key, size);
    console.log(
      `  loaded ${loaded.sources.toLocaleString('en-US')} sources (${loaded.megabytes.toFixed(1)} MB NDJSON in ${loaded.requests} requests of <= ${(BATCH_BYTES / 1024 / 1024).toFixed(1)} MiB) in ${seconds(loaded.ms)}: ${Math.round(loaded.sources / (loaded.ms / 1000))} sources/s`,
    );

    const research = (topic: string) =>
      call(`${base}/api/v1/commands/research`, authed(key, JSON.stringify({ topic, tier: 'lite' })));
    const healthz = () => call(`${base}/healthz`);
    for (const topic of warmupTopics) {
      await timed('research (warm-up)', () => research(topic));
      await timed('/healthz (warm-up)', healthz);
    }
    // Interleaved, one call at a time: both series see the same machine (other work on it, GC, disk).
    const researchSamples: number[] = [];
    const healthzSamples: number[] = [];
    let withFindings = 0;
    for (const topic of topics) {
      const brief = await timed(`research "${topic}"`, () => research(topic));
      researchSamples.push(brief.ms);
      if (brief.text.includes('## Key findings')) withFindings++;
      healthzSamples.push((await timed('/healthz', healthz)).ms);
    }
    const row: Row = { size, load: loaded, research: summarize(researchSamples), healthz: summarize(healthzSamples), withFindings };
    rows.push(row);
    console.log(
      `  research median ${ms(row.research.median)} ms, p95 ${ms(row.research.p95)} ms, max ${ms(row.research.max)} ms (${withFindings}/${CALLS} briefs with findings); /healthz median ${ms(row.healthz.median)} ms, p95 ${ms(row.healthz.p95)} ms`,
    );
  }

  printReport(rows);
  console.log(`\nWall time of the whole run: ${seconds(performance.now() - runStarted)}. Load average at the end: ${loadAverage()}.`);
}

function printReport(rows: Row[]): void {
  const header = ['size', 'sources', 'load s', 'sources/s', 'research med', 'research p95', 'healthz med', 'healthz p95', 'ratio med', 'ratio p95', `p95 < ${TARGET_P95_MS} ms`];
  const table = rows.map((r) => [
    label(r.size),
    r.load.sources.toLocaleString('en-US'),
    (r.load.ms / 1000).toFixed(1),
    String(Math.round(r.load.sources / (r.load.ms / 1000))),
    ms(r.research.median),
    ms(r.research.p95),
    ms(r.healthz.median),
    ms(r.healthz.p95),
    `${(r.research.median / r.healthz.median).toFixed(1)}x`,
    `${(r.research.p95 / r.healthz.p95).toFixed(1)}x`,
    r.research.p95 < TARGET_P95_MS ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(`\nResearch latency (tier lite, ${CALLS} calls per size; ms, client-side round trip; each call also stores its brief; rate limits raised for the bench)\n`);
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i < 2 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`);
  for (const row of table) console.log(line(row));

  const first = rows[0]!;
  const last = rows.at(-1)!;
  if (rows.length > 1) {
    const linear = last.size / first.size;
    const grow = (a: number, b: number) => `${(b / a).toFixed(1)}x`;
    const net = (r: Row) => Math.max(r.research.p95 - r.healthz.p95, 0.01);
    console.log(
      `\nGrowth ${label(first.size)} -> ${label(last.size)} (${linear}x the sources; linear would be ${linear}x): ` +
        `research p95 ${grow(first.research.p95, last.research.p95)}, median ${grow(first.research.median, last.research.median)}, ` +
        `p95 above the /healthz baseline ${grow(net(first), net(last))}.`,
    );
  }
  const verdict = last.research.p95 < TARGET_P95_MS ? 'meets' : 'MISSES';
  console.log(`Target p95 < ${TARGET_P95_MS} ms at ${label(last.size)} sources: ${verdict} it (p95 ${ms(last.research.p95)} ms).`);
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
