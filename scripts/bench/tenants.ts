/**
 * `npm run bench:tenants [-- options]`: does one organization's large audit hold up the others?
 *
 * Starts the real Worker with wrangler's local runtime (unstable_startWorker) on a temporary,
 * seeded state directory, from a temporary copy of wrangler.toml whose per-key rate limits are
 * raised (as bench:research does). Organization A gets a large synthetic knowledge base (corpus.ts,
 * through the import endpoint), organization B a small one. Then it times B's `research` calls
 * (tier lite, one at a time) and GET /healthz, interleaved, in two phases on the same server:
 *   alone:  nothing else runs;
 *   loaded: A keeps `--runs` gtm-audits of all six areas going at once (each restarted as soon as it
 *           ends), on team.com, whose alias "team" is one of the corpus's most common words, so
 *           every area matches thousands of passages: the expensive case.
 * A also tries one more start every second, over the per-organization cap, and counts the 429s.
 * Prints median / p95 / max of B's latencies per phase, the ratio loaded/alone, A's audit durations
 * and how loaded the machine was (load average). Removes the worker and temp directory at the end.
 *
 * Options: --size 20000 (A's sources)  --calls 100  --warmup 10  --runs 3  --keep
 */
import { loadavg, cpus, tmpdir } from 'node:os';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { unstable_startWorker } from 'wrangler';
import { seedLocalDatabase } from '../seed.ts';
import { benchConfig, BenchResources, createKey } from './setup.ts';
import { generateTopics, ndjsonBatches } from './corpus.ts';
import { ms, summarize, type Summary } from './stats.ts';

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const { values: options } = parseArgs({
  options: {
    size: { type: 'string', default: '20000' },
    calls: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
  },
});
const SIZE = Number(options.size);
const CALLS = Number(options.calls);
const WARMUP = Number(options.warmup);
const RUNS = Number(options.runs);
if (!(SIZE >= 1000) || !(CALLS >= 20) || !(WARMUP >= 0) || !(RUNS >= 1)) {
  console.error('Usage: npm run bench:tenants [-- --size 20000 --calls 100 --warmup 10 --runs 3 --keep]');
  process.exit(2);
}
const BATCH_BYTES = 4 * 1024 * 1024;
/** How often A polls its runs (a client honouring Retry-After would wait 2 s). */
const POLL_MS = 500;

const bench = new BenchResources(options.keep);



const post = (key: string, body: string, contentType = 'application/json'): RequestInit => ({
  method: 'POST',
  headers: { Authorization: `Bearer ${key}`, 'Content-Type': contentType },
  body,
});

async function expectOk(response: Response, what: string): Promise<string> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

async function prepare(base: string, key: string, slug: string, size: number, seed: number): Promise<void> {
  const profile = {
    companyName: `Bench ${slug}`,
    domain: `${slug}.example.com`,
    offering: 'Revenue analytics for go-to-market teams.',
    icp: { industries: ['Software'], companySizes: ['51-200'], regions: ['Europe'], personas: ['VP Sales'] },
  };
  await expectOk(await fetch(`${base}/api/v1/profile`, { ...post(key, JSON.stringify(profile)), method: 'PUT' }), 'PUT /api/v1/profile');
  const started = performance.now();
  for (const batch of ndjsonBatches(size, BATCH_BYTES, seed)) {
    await expectOk(await fetch(`${base}/api/v1/oms/objects/import`, post(key, batch.body, 'application/x-ndjson')), 'import');
  }
  console.log(`  ${slug}: ${size.toLocaleString('en-US')} sources imported in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** B's calls, one at a time: research and /healthz interleaved. */
async function sample(base: string, key: string, topics: string[]): Promise<{ research: Summary; healthz: Summary }> {
  const research: number[] = [];
  const healthz: number[] = [];
  for (const topic of topics) {
    let started = performance.now();
    await expectOk(await fetch(`${base}/api/v1/commands/research`, post(key, JSON.stringify({ topic, tier: 'lite' }))), 'research');
    research.push(performance.now() - started);
    started = performance.now();
    await expectOk(await fetch(`${base}/healthz`), '/healthz');
    healthz.push(performance.now() - started);
  }
  return { research: summarize(research), healthz: summarize(healthz) };
}

interface AuditLoad {
  stop: () => Promise<void>;
  durations: number[];
  refused: number;
}

/** Keeps RUNS gtm-audits of A going (each restarted when it ends), plus one start over the cap per round. */
function auditLoad(base: string, key: string): AuditLoad {
  let stopping = false;
  const load: AuditLoad = { durations: [], refused: 0, stop: async () => undefined };
  const auth = { headers: { Authorization: `Bearer ${key}` } };
  const one = async () => {
    while (!stopping) {
      const started = performance.now();
      const start = await fetch(`${base}/api/v1/commands/gtm-audit`, post(key, JSON.stringify({ company: 'team.com' })));
      await start.text();
      if (start.status === 429) {
        load.refused++;
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      if (start.status !== 202) throw new Error(`gtm-audit start answered ${start.status}`);
      const id = start.headers.get('X-Run-Id')!;
      for (;;) {
        const poll = await fetch(`${base}/api/v1/runs/gtm-audit/${id}`, auth);
        await poll.text();
        if (poll.headers.get('X-Run-Status') !== 'running') break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      load.durations.push(performance.now() - started);
    }
  };
  const overCap = async () => {
    while (!stopping) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const response = await fetch(`${base}/api/v1/commands/gtm-audit`, post(key, JSON.stringify({ company: 'team.com', focus: ['pricing'] })));
      await response.text();
      if (response.status === 429) load.refused++;
    }
  };
  const loops = [...Array.from({ length: RUNS }, one), overCap()];
  load.stop = async () => {
    stopping = true;
    await Promise.all(loops);
  };
  return load;
}

async function main(): Promise<void> {
  const tempDir = (bench.tempDir = await mkdtemp(path.join(tmpdir(), 'recon-tenants-')));
  const persistTo = path.join(tempDir, 'state');
  console.log(`Recon tenants benchmark: A has ${SIZE.toLocaleString('en-US')} sources and keeps ${RUNS} gtm-audits going; B (1,000 sources) makes ${CALLS} research calls per phase. ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}.`);
  await seedLocalDatabase({ persistTo, quiet: true });
  const keyA = await createKey('bench-a', persistTo);
  const keyB = await createKey('bench-b', persistTo);
  const worker = (bench.worker = await unstable_startWorker({
    config: await benchConfig(tempDir),
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: persistTo, watch: false, logLevel: 'error' },
  }));
  await worker.ready;
  const base = (await worker.url).origin;
  await prepare(base, keyA, 'bench-a', SIZE, 1);
  await prepare(base, keyB, 'bench-b', 1000, 11);

  await sample(base, keyB, generateTopics(WARMUP, 3));
  const topics = generateTopics(CALLS);
  const loadBefore = loadavg()[0]!;
  const alone = await sample(base, keyB, topics);
  const load = auditLoad(base, keyA);
  const loaded = await sample(base, keyB, topics);
  await load.stop();
  const audits = summarize(load.durations);
  const loadAfter = loadavg()[0]!;

  const row = (phase: string, s: { research: Summary; healthz: Summary }) =>
    `| ${phase.padEnd(38)} | ${ms(s.research.median).padStart(8)} | ${ms(s.research.p95).padStart(8)} | ${ms(s.research.max).padStart(8)} | ${ms(s.healthz.median).padStart(8)} | ${ms(s.healthz.p95).padStart(8)} |`;
  console.log(`\nB's latency (ms, client round trip, ${CALLS} calls per phase, one at a time)\n`);
  console.log(`| ${'phase'.padEnd(38)} | research median | research p95 | research max | healthz median | healthz p95 |`);
  console.log(`| ${'-'.repeat(38)} | ---: | ---: | ---: | ---: | ---: |`);
  console.log(row('alone', alone));
  console.log(row(`while A runs ${RUNS} gtm-audits (${(SIZE / 1000).toFixed(0)}k sources)`, loaded));
  console.log(
    `\nRatio loaded/alone: research median ${(loaded.research.median / alone.research.median).toFixed(2)}x, p95 ${(loaded.research.p95 / alone.research.p95).toFixed(2)}x, max ${(loaded.research.max / alone.research.max).toFixed(2)}x.`,
  );
  console.log(`A: ${load.durations.length} gtm-audits (six areas) finished during the loaded phase: median ${ms(audits.median)} ms, p95 ${ms(audits.p95)} ms, max ${ms(audits.max)} ms; ${load.refused} start(s) answered 429 (over the cap of running runs).`);
  console.log(`Machine: ${cpus().length} CPUs, 1-minute load average ${loadBefore.toFixed(2)} before the alone phase, ${loadAfter.toFixed(2)} at the end.`);
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  await bench.cleanup();
}
