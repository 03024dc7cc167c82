/**
 * `npm run bench:auth-flood [-- options]`: what a flood of made-up API keys does to a valid key.
 *
 * Starts the real Worker with wrangler's local runtime (unstable_startWorker) on a temporary state
 * directory seeded as `npm run dev` seeds it, then times `GET /api/v1/profile` with the demo acme
 * key, one call at a time: first alone (the baseline), then while a second client sends made-up
 * keys at a fixed rate from the same address. Prints median / p95 of both phases, their ratio, and
 * how the flood was answered (401: looked up; 429: refused before any lookup).
 *
 * Options: --rate 360 (flood requests per second)  --seconds 12 (per phase)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { unstable_startWorker } from 'wrangler';
import { PROJECT_ROOT } from '../lib/wrangler.ts';
import { seedLocalDatabase } from '../seed.ts';
import { ms, summarize } from './stats.ts';

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const { values: options } = parseArgs({
  options: { rate: { type: 'string', default: '360' }, seconds: { type: 'string', default: '12' } },
});
const RATE = Number(options.rate);
const PHASE_MS = Number(options.seconds) * 1000;
const VALID_KEY = 'rk_test_acme_0000000000000000000000000000';
const MAX_IN_FLIGHT = 256;

const sleep = (msValue: number) => new Promise((resolve) => setTimeout(resolve, msValue));

/** Sequential calls with the valid key for `durationMs`; their latencies in ms. */
async function probe(base: string, durationMs: number): Promise<number[]> {
  const samples: number[] = [];
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    const started = performance.now();
    const response = await fetch(`${base}/api/v1/profile`, { headers: { Authorization: `Bearer ${VALID_KEY}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the valid key got ${response.status}`);
    samples.push(performance.now() - started);
    // 20 calls a second at most: well inside the key's 600 reads a minute over both phases.
    await sleep(50);
  }
  return samples;
}

/** Made-up keys at RATE per second until `stop` resolves; counts the answers by status. */
async function flood(base: string, stop: Promise<unknown>): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let running = true;
  void stop.then(() => (running = false));
  let inFlight = 0;
  let sent = 0;
  const started = performance.now();
  const pending = new Set<Promise<void>>();
  while (running) {
    const due = Math.floor(((performance.now() - started) / 1000) * RATE);
    while (sent < due && inFlight < MAX_IN_FLIGHT) {
      const key = `rk_live_${String(sent++).padStart(43, '0')}`;
      inFlight++;
      const request: Promise<void> = fetch(`${base}/api/v1/profile`, { headers: { Authorization: `Bearer ${key}` } })
        .then(async (response) => {
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        })
        .catch(() => {
          statuses.set(0, (statuses.get(0) ?? 0) + 1);
        })
        .finally(() => {
          inFlight--;
          pending.delete(request);
        });
      pending.add(request);
    }
    await sleep(5);
  }
  await Promise.all(pending);
  return statuses;
}

const persistTo = await mkdtemp(path.join(tmpdir(), 'recon-bench-auth-'));
const worker = await (async () => {
  await seedLocalDatabase({ persistTo, quiet: true });
  return unstable_startWorker({
    config: path.join(PROJECT_ROOT, 'wrangler.toml'),
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: persistTo, watch: false, logLevel: 'error' },
  });
})();
try {
  await worker.ready;
  const base = (await worker.url).origin;
  await probe(base, 1_000); // warm-up
  const alone = summarize(await probe(base, PHASE_MS));
  const phaseEnd = sleep(PHASE_MS);
  const [flooded, statuses] = await Promise.all([probe(base, PHASE_MS), flood(base, phaseEnd)]);
  const during = summarize(flooded);
  const answered = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${n} x ${status || 'network error'}`);
  console.log(`Valid key, GET /api/v1/profile, one call at a time; flood of made-up keys at ${RATE}/s for ${PHASE_MS / 1000} s`);
  console.log('| phase | calls | median | p95 |');
  console.log('| --- | ---: | ---: | ---: |');
  console.log(`| alone | ${alone.count} | ${ms(alone.median)} ms | ${ms(alone.p95)} ms |`);
  console.log(`| during the flood | ${during.count} | ${ms(during.median)} ms | ${ms(during.p95)} ms |`);
  console.log(`Ratio during/alone: median ${(during.median / alone.median).toFixed(2)}x, p95 ${(during.p95 / alone.p95).toFixed(2)}x`);
  console.log(`Flood answered: ${answered.join(', ')}`);
} finally {
  await worker.dispose();
  await rm(persistTo, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
