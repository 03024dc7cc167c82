/**
 * `npm run bench:sites [-- options]`: how fast a site read goes, and what it costs (issue 23, "Speed
 * and scale").
 *
 * A loopback site of `--pages` pages (2,000: a home page, the pages a GTM team needs, and generated
 * docs, blog, customer and product pages of 600-1,200 characters of text each from the research
 * bench's corpus, every page linking to ten others, all listed in one sitemap; robots.txt with no
 * Crawl-delay) is served by scripts/lib/site-server.ts. The real Worker runs under wrangler's local
 * runtime (unstable_startWorker on 127.0.0.1, a fresh seeded state, per-key rate limits raised as
 * the other benches do) with SITE_ORIGIN_OVERRIDES naming the site and SITE_READ_MIN_DELAY_MS=0 (no
 * politeness delay on loopback; at most 2 requests in flight still holds). For each of `--reads`
 * organizations (so each first read finds nothing stored):
 *
 *   first read  POST /api/v1/oms/sites {domain, pages: --budget (500)}, polled every 250 ms until done
 *   re-read     the same again on the unchanged site: every page request must be conditional and
 *               answered 304 (checked in the site's own request log)
 *
 * and reports per read: pages requested (the site's log: requests other than robots.txt and
 * sitemaps), pages per second (pages / wall time from the POST to the completed status), Worker CPU
 * per page (workerd's user + system CPU from /proc around the read, divided by pages: everything the
 * process did meanwhile, polls included), and workerd's peak resident memory sampled every 20 ms
 * during the read (the whole process: the run's Durable Object shares it with D1, the Worker and
 * the proxy; no figure for the object alone is available locally), and how far it rose above its
 * level at the read's start. Then the medians of each and the
 * ratio re-read / first read. workerd here is the Worker's runtime process (wrangler runs a second
 * one, its proxy, whose CPU is not counted), found as the one a warm-up read of 20 pages by another
 * organization costs the most. CPU is also given as a multiple of one GET /healthz measured in the
 * same run, since CPU per request differs across machines (docs/speed.md).
 *
 * Loopback only: nothing leaves the machine. Options: --pages 2000  --budget 500  --reads 3  --keep
 */
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { unstable_startWorker } from 'wrangler';
import { startSite, type RunningSite, type SiteLog, type SitePage, type SiteSpec } from '../lib/site-server.ts';
import { seedLocalDatabase } from '../seed.ts';
import { generateSources } from './corpus.ts';
import { cpuSeconds, memoryMiB, workerdPids } from './proc.ts';
import { benchConfig, BenchResources, createKey } from './setup.ts';
import { median, percentile } from './stats.ts';

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const { values: options } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    budget: { type: 'string', default: '500' },
    reads: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
  },
});
const SITE_PAGES = Number(options.pages);
const BUDGET = Number(options.budget);
const READS = Number(options.reads);
if (!Number.isInteger(SITE_PAGES) || SITE_PAGES < 20 || SITE_PAGES > 20_000 || !Number.isInteger(BUDGET) || BUDGET < 1 || BUDGET > 500 || !Number.isInteger(READS) || READS < 1 || READS > 20) {
  console.error('Usage: npm run bench:sites [-- --pages 2000 (20-20000) --budget 500 (1-500) --reads 3 (1-20) --keep]');
  process.exit(2);
}
const DOMAIN = 'bench-site.example';
const POLL_MS = 100;
const SAMPLE_MS = 20;
/** A read that takes longer than this is a failure of the bench, not a measurement. */
const READ_TIMEOUT_MS = 15 * 60_000;
const HEALTHZ_CALLS = 500;

const bench = new BenchResources(options.keep);

/** The bench site: GTM pages first, then generated pages, each linking to ten others; all in the sitemap. */
function benchSite(count: number): SiteSpec {
  const gtm = ['/pricing', '/product', '/about', '/customers', '/blog', '/careers', '/changelog', '/integrations', '/news', '/partners'];
  const generated = [...generateSources(count - 1 - gtm.length, 7)];
  const paths = ['/', ...gtm, ...generated.map((source) => new URL(source.key).pathname)];
  const texts = [
    { title: 'Bench Site: one site of many pages', content: 'Bench Site sells benchmark software to teams who measure things. It has many pages.' },
    ...gtm.map((p) => ({ title: `Bench Site ${p.slice(1)}`, content: `This is the ${p.slice(1)} page of Bench Site. Bench Site lists its ${p.slice(1)} here for go-to-market teams.` })),
    ...generated.map((source) => ({ title: source.properties.title, content: source.properties.content })),
  ];
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const pages: Record<string, SitePage> = {};
  paths.forEach((p, i) => {
    const links = Array.from({ length: 10 }, (_, k) => paths[(i * 7 + k * 131 + 1) % paths.length]!);
    if (i === 0) links.push(...gtm);
    const text = texts[i]!;
    const sentences = (text.content.match(/[^.!?]+[.!?]+/g) ?? [text.content]).map((s) => `<p>${escape(s.trim())}</p>`).join('');
    pages[p] = {
      body: `<!doctype html><html><head><meta charset="utf-8"><title>${escape(text.title)}</title></head><body><nav><a href="/">Home</a></nav><main><h1>${escape(text.title)}</h1>${sentences}</main><footer>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</footer></body></html>`,
    };
  });
  const urls = paths.map((p) => `<url><loc>https://${DOMAIN}${p}</loc></url>`).join('');
  return {
    pages,
    robots: `User-agent: *\nAllow: /\n\nSitemap: https://${DOMAIN}/sitemap.xml\n`,
    sitemaps: { '/sitemap.xml': { xml: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>` } },
  };
}

/** wrangler.toml for the bench with the site-read settings added to [vars]. */
async function withSiteVars(configFile: string, site: RunningSite): Promise<void> {
  const config = await readFile(configFile, 'utf8');
  const vars = [`SITE_ORIGIN_OVERRIDES = "${DOMAIN}=${site.origin}"`, 'SITE_READ_MIN_DELAY_MS = "0"', 'SITE_READ_PAGES_PER_DAY = "1000000"'];
  if (!/^\[vars\]$/m.test(config)) throw new Error('wrangler.toml has no [vars] section');
  await writeFile(configFile, config.replace(/^\[vars\]$/m, `[vars]\n${vars.join('\n')}`));
}

interface Read {
  kind: 'first read' | 're-read';
  pages: number;
  status200: number;
  status304: number;
  conditional: number;
  other: number;
  /** The most requests in flight at once at the site. */
  maxInFlight: number;
  seconds: number;
  cpuSeconds: number;
  /** workerd's resident memory when the read started, and its highest sample during the read. */
  startRssMiB: number;
  peakRssMiB: number;
  report: string;
}

/** `pid`: workerd's runtime, measured; an empty list measures nothing (the warm-up read). */
async function siteRead(base: string, key: string, site: RunningSite, pid: number | [], kind: Read['kind'], budget = BUDGET): Promise<Read> {
  site.resetLog();
  const rss = () => (typeof pid === 'number' ? memoryMiB(pid).rss : Number.NaN);
  const cpu = () => (typeof pid === 'number' ? cpuSeconds(pid) : Number.NaN);
  const startRss = rss();
  let peak = startRss;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), SAMPLE_MS);
  const cpuBefore = cpu();
  const started = performance.now();
  try {
    const start = await fetch(`${base}/api/v1/oms/sites`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: DOMAIN, pages: budget }),
    });
    const answer = await start.text();
    const id = start.headers.get('x-run-id');
    if (start.status !== 202 || !id) throw new Error(`POST /api/v1/oms/sites answered ${start.status}: ${answer.slice(0, 300)}`);
    let status = 'running';
    let report = '';
    while (status === 'running') {
      if (performance.now() - started > READ_TIMEOUT_MS) throw new Error(`run ${id} still running after ${READ_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const poll = await fetch(`${base}/api/v1/runs/site-read/${id}`, { headers: { Authorization: `Bearer ${key}` } });
      report = await poll.text();
      status = poll.headers.get('x-run-status') ?? `HTTP ${poll.status}`;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuSpent = cpu() - cpuBefore;
    if (status !== 'completed') throw new Error(`run ${id} ended ${status}:\n${report.slice(0, 1000)}`);
    return { kind, ...count(site.log()), seconds, cpuSeconds: cpuSpent, startRssMiB: startRss, peakRssMiB: Math.max(peak, rss()), report };
  } finally {
    clearInterval(sampler);
  }
}

/** Page requests in the site's log (robots.txt and sitemaps left out) by what they were answered. */
function count(log: SiteLog): Pick<Read, 'pages' | 'status200' | 'status304' | 'conditional' | 'other' | 'maxInFlight'> {
  if (log.dropped > 0) throw new Error(`the site log dropped ${log.dropped} requests`);
  const pages = log.requests.filter((request) => request.path !== '/robots.txt' && !request.path.startsWith('/sitemap'));
  return {
    pages: pages.length,
    status200: pages.filter((request) => request.status === 200).length,
    status304: pages.filter((request) => request.status === 304).length,
    conditional: pages.filter((request) => request.ifNoneMatch !== undefined || request.ifModifiedSince !== undefined).length,
    other: pages.filter((request) => request.status !== 200 && request.status !== 304).length,
    maxInFlight: log.maxInFlight,
  };
}

/** workerd CPU per GET /healthz (µs), one call at a time: the unit CPU per page is compared with. */
async function healthzCpu(base: string, pid: number): Promise<number> {
  for (let i = 0; i < 50; i++) await (await fetch(`${base}/healthz`)).arrayBuffer();
  const before = cpuSeconds(pid);
  for (let i = 0; i < HEALTHZ_CALLS; i++) await (await fetch(`${base}/healthz`)).arrayBuffer();
  return ((cpuSeconds(pid) - before) / HEALTHZ_CALLS) * 1e6;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

async function main(): Promise<void> {
  console.log(`Recon site-read benchmark: a loopback site of ${SITE_PAGES.toLocaleString('en-US')} pages, budget ${BUDGET}, ${READS} organization(s) x (first read + re-read). ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}.`);
  const site = await startSite(benchSite(SITE_PAGES));
  try {
    const tempDir = (bench.tempDir = await mkdtemp(path.join(tmpdir(), 'recon-sites-')));
    const persistTo = path.join(tempDir, 'state');
    await seedLocalDatabase({ persistTo, quiet: true });
    const warmupKey = await createKey('bench-sites-warmup', persistTo);
    const keys: string[] = [];
    for (let r = 1; r <= READS; r++) keys.push(await createKey(`bench-sites-${r}`, persistTo));
    const config = await benchConfig(tempDir);
    await withSiteVars(config, site);
    const worker = (bench.worker = await unstable_startWorker({
      config,
      dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: persistTo, watch: false, logLevel: 'error' },
    }));
    await worker.ready;
    const base = (await worker.url).origin;
    // wrangler runs two workerd processes, the Worker's runtime and a proxy in front of it: the
    // runtime is the one a warm-up read (another organization, 20 pages) costs the most CPU.
    // (The runtime may start only at the first request, so processes are listed again after it.)
    const before = new Map(workerdPids().map((p) => [p, cpuSeconds(p)]));
    await siteRead(base, warmupKey, site, [], 'first read', Math.min(BUDGET, 20));
    const pids = workerdPids();
    const spent = pids.map((p) => cpuSeconds(p) - (before.get(p) ?? 0));
    const pid = pids[spent.indexOf(Math.max(...spent))]!;
    const healthz = await healthzCpu(base, pid);
    console.log(`  Worker on ${base} (workerd runtime pid ${pid}, of ${pids.length} workerd processes); GET /healthz costs ${fixed(healthz, 0)} µs of its CPU.`);

    const reads: Read[] = [];
    for (const [r, key] of keys.entries()) {
      for (const kind of ['first read', 're-read'] as const) {
        const read = await siteRead(base, key, site, pid, kind);
        reads.push(read);
        console.log(
          `  org ${r + 1} ${kind}: ${read.pages} pages (${read.status200} x 200, ${read.status304} x 304, ${read.other} other, at most ${read.maxInFlight} in flight) in ${fixed(read.seconds, 2)} s; ` +
            `${fixed(read.pages / read.seconds)} pages/s, ${fixed((read.cpuSeconds / read.pages) * 1000, 2)} ms CPU/page, RSS ${fixed(read.startRssMiB, 0)} -> peak ${fixed(read.peakRssMiB, 0)} MiB`,
        );
        if (kind === 'first read' && read.pages !== BUDGET) console.warn(`  note: ${read.pages} pages requested, not the budget of ${BUDGET}:\n${read.report.slice(0, 1200)}`);
        if (kind === 're-read' && (read.status304 !== read.pages || read.conditional !== read.pages)) {
          throw new Error(`the re-read of an unchanged site was not all 304: ${read.status304} of ${read.pages} (${read.conditional} conditional)\n${read.report.slice(0, 1200)}`);
        }
      }
    }

    const of = (kind: Read['kind']) => reads.filter((read) => read.kind === kind);
    const summary = (kind: Read['kind']) => {
      const list = of(kind);
      return {
        pages: median(list.map((read) => read.pages)),
        seconds: median(list.map((read) => read.seconds)),
        secondsP95: percentile(list.map((read) => read.seconds), 95),
        pagesPerSecond: median(list.map((read) => read.pages / read.seconds)),
        cpuMsPerPage: median(list.map((read) => (read.cpuSeconds / read.pages) * 1000)),
        cpuMsPerPageP95: percentile(list.map((read) => (read.cpuSeconds / read.pages) * 1000), 95),
        peakRssMiB: median(list.map((read) => read.peakRssMiB)),
        growthMiB: median(list.map((read) => read.peakRssMiB - read.startRssMiB)),
      };
    };
    const first = summary('first read');
    const again = summary('re-read');
    const healthzMs = healthz / 1000;
    console.log(`\nMedians (and p95, nearest rank) of ${READS} read(s) each (site of ${SITE_PAGES.toLocaleString('en-US')} pages, budget ${BUDGET}, no crawl delay, at most 2 requests in flight)\n`);
    console.log('| read | pages | wall time (s) | p95 | pages/s | Worker CPU per page (ms) | p95 | CPU per page / CPU of GET /healthz | workerd peak RSS (MiB) | RSS growth during the read (MiB) |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [name, s] of [['first read', first], ['re-read (all 304)', again]] as const) {
      console.log(`| ${name} | ${s.pages} | ${fixed(s.seconds, 2)} | ${fixed(s.secondsP95, 2)} | ${fixed(s.pagesPerSecond)} | ${fixed(s.cpuMsPerPage, 2)} | ${fixed(s.cpuMsPerPageP95, 2)} | ${fixed(s.cpuMsPerPage / healthzMs, 0)}x | ${fixed(s.peakRssMiB, 0)} | ${fixed(s.growthMiB, 0)} |`);
    }
    console.log(`| re-read / first read | | ${fixed(again.seconds / first.seconds, 2)} | ${fixed(again.secondsP95 / first.secondsP95, 2)} | ${fixed(again.pagesPerSecond / first.pagesPerSecond, 2)} | ${fixed(again.cpuMsPerPage / first.cpuMsPerPage, 2)} | ${fixed(again.cpuMsPerPageP95 / first.cpuMsPerPageP95, 2)} | | ${fixed(again.peakRssMiB / first.peakRssMiB, 2)} | ${fixed(again.growthMiB / first.growthMiB, 2)} |`);
    console.log(
      `\nCPU is workerd's (user + system, /proc) over the whole read, polls every ${POLL_MS} ms included, divided by pages requested; GET /healthz cost ${fixed(healthz, 0)} µs here. ` +
        `Peak RSS is the whole workerd process (Worker, Durable Objects, local D1), sampled every ${SAMPLE_MS} ms, not the run's object alone; growth is the peak minus the RSS at the read's start (the allocator keeps what it took, so it climbs from read to read). 1-min load average at end: ${loadavg()[0]!.toFixed(2)}.`,
    );
  } finally {
    await site.close();
  }
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  await bench.cleanup();
}
