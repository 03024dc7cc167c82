/**
 * `npm run bench:watches [-- options]`: how research watches hold up in numbers, in two phases.
 *
 * First, what changed (issue 32; scripts/bench/watch-changes.ts, on a state and Worker of its own):
 * one watch on a loopback company site whose noise moves on every request, executed again and again
 * on the unchanged site, then after a price change: its false-positive rate, whether it reports
 * exactly the prices changed, and the Worker CPU (and the diff's own CPU) per changed page.
 * `--changes-only` stops after it.
 *
 * Then scale (issue 13): on a fresh temporary state directory, seeded as `npm run dev` seeds it, the real Worker (wrangler's
 * unstable_startWorker on 127.0.0.1, per-key rate limits raised as the other benches do) gets the
 * demo market in acme, then `--count` watches created through POST /api/v1/oms/watches,
 * `--concurrency` at a time: lite, every 1d, a cap of 3000 micros, on the demo companies in turn.
 * Each watch's first execution is scheduled at its creation (its `nextRunAt` in the create answer)
 * and fired by its own alarm; with that cap it is the only one (the watch is capped after it). The
 * bench waits until every watch is capped (listing them by status), then reads each watch's
 * execution record and reports:
 *
 * - create throughput (watches per second over the create phase, and the create call's latency),
 * - executions per second (count / span from the first execution's start to the last one's end),
 * - the time from `nextRunAt` (the scheduled time; Agent schedules are kept in whole seconds, so it
 *   is the creation time rounded down to the second) to the execution's start, median and p95; and
 *   the same from the create answer's `createdAt`, which has no rounding.
 *
 * Loopback only: nothing leaves the machine. Options: --count 10000  --concurrency 32  --keep
 * --changes-only, and the first phase's: --pages 40  --executions 10  --changed (all pages)  --diff-runs 300
 */
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { unstable_startWorker } from 'wrangler';
import { PROJECT_ROOT } from '../lib/wrangler.ts';
import { loadDemoKnowledgeBase, seedLocalDatabase } from '../seed.ts';
import { benchConfig, BenchResources } from './setup.ts';
import { ms, summarize } from './stats.ts';
import { benchWatchChanges, WATCH_CHANGES_OPTIONS, WATCH_CHANGES_USAGE, watchChangesSettings } from './watch-changes.ts';

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const { values: options } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '32' },
    keep: { type: 'boolean', default: false },
    'changes-only': { type: 'boolean', default: false },
    ...WATCH_CHANGES_OPTIONS,
  },
});
const COUNT = Number(options.count);
const CONCURRENCY = Number(options.concurrency);
const CHANGES = watchChangesSettings(options);
if (!Number.isInteger(COUNT) || COUNT < 1 || COUNT > 100_000 || !Number.isInteger(CONCURRENCY) || CONCURRENCY < 1 || CONCURRENCY > 256 || !CHANGES) {
  console.error(`Usage: npm run bench:watches [-- --count 10000 (1-100000) --concurrency 32 (1-256) --keep --changes-only ${WATCH_CHANGES_USAGE}]`);
  process.exit(2);
}
const ACME_KEY = 'rk_test_acme_0000000000000000000000000000';
/** How long the bench waits for executions once no more watch is capped between two looks. */
const STALL_MS = 120_000;
const LIST_PAGE = 200;

const bench = new BenchResources(options.keep);

async function api<T>(base: string, pathAndQuery: string, body?: unknown): Promise<{ ms: number; json: T }> {
  const started = performance.now();
  const response = await fetch(`${base}${pathAndQuery}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${ACME_KEY}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (!response.ok) throw new Error(`${pathAndQuery} answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms: elapsed, json: JSON.parse(text) as T };
}

/** Runs `task(i)` for i in [0, n), `concurrency` at a time. */
async function pool(n: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, concurrency) }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

interface Created {
  id: string;
  createdAt: string;
  nextRunAt: string;
}

interface Execution {
  id: string;
  startedAt: string;
  finishedAt: string;
  outcome: string;
  costMicros: number;
}

async function demoCompanies(): Promise<string[]> {
  const lines = (await readFile(path.join(PROJECT_ROOT, 'scripts/seed/knowledge-base/demo.ndjson'), 'utf8')).split('\n');
  const companies = lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as { type?: string; key?: string }).filter((o) => o.type === 'company' && o.key);
  if (companies.length === 0) throw new Error('the demo market has no companies');
  return companies.map((o) => o.key!);
}

/** Counts the capped watches, listing them page by page. */
async function cappedCount(base: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page: { json: { watches: unknown[]; nextCursor: string | null } } = await api(
      base,
      `/api/v1/oms/watches?status=capped&limit=${LIST_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    count += page.json.watches.length;
    cursor = page.json.nextCursor;
  } while (cursor);
  return count;
}

async function main(): Promise<void> {
  console.log(`Recon watches benchmark: ${COUNT.toLocaleString('en-US')} watches, created ${CONCURRENCY} at a time. ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}.`);
  const tempDir = (bench.tempDir = await mkdtemp(path.join(tmpdir(), 'recon-watches-')));
  const persistTo = path.join(tempDir, 'state');
  await seedLocalDatabase({ persistTo, quiet: true });
  const config = await benchConfig(tempDir);
  // Loopback only: with SITE_ORIGIN_OVERRIDES naming one host that is never asked for, only the
  // listed hosts are read, so the watches on the demo companies read no site (their executions
  // research the demo sources) rather than reaching for the companies' real domains.
  const toml = await readFile(config, 'utf8');
  await writeFile(config, toml.replace(/^\[vars\]$/m, '[vars]\nSITE_ORIGIN_OVERRIDES = "no-site.invalid=http://127.0.0.1:9"'));
  const worker = (bench.worker = await unstable_startWorker({
    config,
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: persistTo, watch: false, logLevel: 'error' },
  }));
  await worker.ready;
  const base = (await worker.url).origin;
  await loadDemoKnowledgeBase(base);
  const targets = await demoCompanies();
  console.log(`  the demo market loaded; watches target its ${targets.length} companies in turn`);

  const created: Created[] = new Array(COUNT);
  const createMs: number[] = [];
  const createStart = performance.now();
  let done = 0;
  await pool(COUNT, CONCURRENCY, async (i) => {
    const body = { target: { type: 'company', key: targets[i % targets.length] }, frequency: '1d', tier: 'lite', costCapMicros: 3000 };
    const result = await api<Created>(base, '/api/v1/oms/watches', body);
    if (!result.json.nextRunAt) throw new Error(`watch ${result.json.id} was created without a nextRunAt`);
    created[i] = result.json;
    createMs.push(result.ms);
    if (++done % 1000 === 0) console.log(`  ${done.toLocaleString('en-US')} created (${((performance.now() - createStart) / 1000).toFixed(1)} s)`);
  });
  const createSeconds = (performance.now() - createStart) / 1000;
  console.log(`  ${COUNT.toLocaleString('en-US')} watches created in ${createSeconds.toFixed(1)} s; waiting for their executions...`);

  let capped = 0;
  let lastProgress = Date.now();
  while (capped < COUNT) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const now = await cappedCount(base);
    if (now > capped) lastProgress = Date.now();
    capped = now;
    console.log(`  ${capped.toLocaleString('en-US')} of ${COUNT.toLocaleString('en-US')} executed (${((performance.now() - createStart) / 1000).toFixed(1)} s since the first create)`);
    if (Date.now() - lastProgress > STALL_MS) throw new Error(`no watch executed for ${STALL_MS / 1000} s; ${capped} of ${COUNT} did`);
  }
  const allSeconds = (performance.now() - createStart) / 1000;

  const executions: Execution[] = new Array(COUNT);
  await pool(COUNT, CONCURRENCY, async (i) => {
    const page = await api<{ executions: Execution[] }>(base, `/api/v1/oms/watches/executions?id=${created[i]!.id}&limit=1`);
    const execution = page.json.executions[0];
    if (!execution || execution.outcome !== 'succeeded' || execution.costMicros !== 3000) throw new Error(`watch ${created[i]!.id}: ${JSON.stringify(page.json).slice(0, 300)}`);
    executions[i] = execution;
  });

  const starts = executions.map((e) => Date.parse(e.startedAt));
  const ends = executions.map((e) => Date.parse(e.finishedAt));
  const span = (Math.max(...ends) - Math.min(...starts)) / 1000;
  const fromNextRun = summarize(executions.map((e, i) => Date.parse(e.startedAt) - Date.parse(created[i]!.nextRunAt)));
  const fromCreated = summarize(executions.map((e, i) => Date.parse(e.startedAt) - Date.parse(created[i]!.createdAt)));
  const duration = summarize(executions.map((e) => Date.parse(e.finishedAt) - Date.parse(e.startedAt)));
  const create = summarize(createMs);

  console.log(`\n| measure | value |`);
  console.log(`| --- | ---: |`);
  console.log(`| watches created | ${COUNT.toLocaleString('en-US')} in ${createSeconds.toFixed(1)} s: ${(COUNT / createSeconds).toFixed(1)} /s |`);
  console.log(`| create call latency median / p95 (ms) | ${ms(create.median)} / ${ms(create.p95)} |`);
  console.log(`| executions | ${COUNT.toLocaleString('en-US')} in ${span.toFixed(1)} s (first start to last end): ${(COUNT / span).toFixed(1)} /s |`);
  console.log(`| execution duration median / p95 (ms) | ${ms(duration.median)} / ${ms(duration.p95)} |`);
  console.log(`| nextRunAt -> execution start, median / p95 (ms) | ${ms(fromNextRun.median)} / ${ms(fromNextRun.p95)} |`);
  console.log(`| createdAt -> execution start, median / p95 (ms) | ${ms(fromCreated.median)} / ${ms(fromCreated.p95)} |`);
  console.log(`| first create to last execution | ${allSeconds.toFixed(1)} s |`);
  console.log(`| 1-min load average at end | ${loadavg()[0]!.toFixed(2)} |`);
  console.log(`\nnextRunAt is kept in whole seconds (Agent schedules), so it is the creation time rounded down; createdAt has no rounding. Executions run while creates go on.`);
}

try {
  const changes = await benchWatchChanges(CHANGES, bench);
  if (!changes.ok) process.exitCode = 1;
  if (!options['changes-only']) {
    console.log('');
    await main();
  }
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  await bench.cleanup();
}
