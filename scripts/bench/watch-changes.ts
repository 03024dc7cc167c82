/**
 * The first phase of `npm run bench:watches` (issue 32, "What changed"): how often a watch reports a
 * change its company's site did not make, and what comparing a changed page costs. Run alone with
 * `node scripts/bench/watch-changes.ts [-- options]`, or `npm run bench:watches -- --changes-only`.
 *
 * A loopback company site (`bench-changes.example`, scripts/lib/site-server.ts) of `--pages` pages
 * (40: a home page and pages of the research bench's corpus, one plain sentence per paragraph, and on
 * each page one price sentence, "The Plan N plan costs $X per month."), all in one sitemap. Every
 * request renders the page again with noise a real site has: a quoted testimonial and its attribution
 * (one of five, at random), "Last updated <date> at <time> UTC" (a random date of the last 30 days), "N
 * people are viewing this page" (growing), a visible request id and a CSRF token in a hidden input, a
 * copyright year range whose end moves, and a script with a cache-busting query. So no page is ever
 * answered 304, and every page's text differs from one read to the next: every execution compares
 * every page sentence by sentence.
 *
 * The real Worker runs under wrangler's local runtime (unstable_startWorker on 127.0.0.1, a fresh
 * seeded state, per-key rate limits raised as the other benches do) with SITE_ORIGIN_OVERRIDES naming
 * the site, SITE_READ_MIN_DELAY_MS=0 and a day's page limit out of reach. One organization (its page
 * budget per read set above the site's size) creates a watch with POST /api/v1/oms/watches (the
 * company by its domain, lite, every 1d, a cap far above what the bench spends) and the bench waits
 * for its first execution (its own alarm: the first site read, the baseline). Then:
 *
 *   unchanged   `--executions` (10) executions with POST /api/v1/oms/watches/run?id= on the site as it
 *               is: every change they report (findings.changeCounts.total) is a false positive, also
 *               per page re-read (pages x executions) and per execution; each is printed verbatim.
 *   changed     the price of `--changed` pages (all) raised through the site's control (setPage: from
 *               then on each of those pages is served as rendered then, its noise included), then one
 *               execution, which must report exactly those price changes (kind pricing, action
 *               changed, before and after), nothing else.
 *   still       the site's noise frozen (every page the same bytes each request), then two executions:
 *               the second is answered 304 for every page, and compares nothing.
 *
 * Each execution's Worker CPU is workerd's (the Worker's runtime process, user + system from /proc,
 * found as the process the first execution cost the most) around the run-now call: the site read,
 * the comparison, the research and the brief, everything the process did meanwhile. CPU per changed
 * page is (changed execution - median unchanged execution) / changed pages: what a page whose price
 * changed costs beyond one whose only noise moved (both are re-read, stored and compared: the site
 * read stores a changed page anyway). (median unchanged - still) / pages is what re-reading,
 * storing and comparing a page whose text changed costs beyond a 304. Each also as a multiple of a
 * GET /healthz measured in the same run (CPU per request differs across machines: docs/speed.md).
 *
 * The diff alone, in Node: comparePages (src/watches/page-changes/compare.ts) over the same pages'
 * texts as the Worker would extract them, the baseline with one render of the noise and the reading
 * with another (and the prices changed), `--diff-runs` (300) times, against splitSentences
 * (src/research/text.ts) of the same pages in the same loop: median and p95 per page compared.
 *
 * Loopback only: nothing leaves the machine. Options: --pages 40  --executions 10  --changed (all
 * pages)  --diff-runs 300  --keep. Figures are printed, never asserted; a false positive or a missed
 * price change is printed verbatim and makes the exit code 1.
 */
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { unstable_startWorker } from 'wrangler';
import { startSite, type RunningSite, type SiteLog, type SitePage, type SiteSpec } from '../lib/site-server.ts';
import { FEED_PATHS } from '../../src/sites/feed-paths.ts';
import { comparePages, type ReadingItem } from '../../src/watches/page-changes/compare.ts';
import { splitSentences } from '../../src/research/text.ts';
import { compileIgnore } from '../../src/ground/ignore-patterns.ts';
import type { PageBaselineRow } from '../../src/db/watch-page-baseline.ts';
import type { Change } from '../../src/ground/schemas/changes.ts';
import type { ExecutionRecord } from '../../src/ground/schemas/watch.ts';
import { seedLocalDatabase } from '../seed.ts';
import { createRng, generateSources } from './corpus.ts';
import { cpuSeconds, workerdPids } from './proc.ts';
import { benchConfig, BenchResources, createKey } from './setup.ts';
import { median, percentile } from './stats.ts';

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

declare global {
  /**
   * compare.ts imports its baseline row type from src/db/watch-page-baseline.ts, whose writer names
   * this Workers global; the Node scripts' project (tsconfig.node.json) has Node's types only, so it
   * is named here from the Workers types' module form.
   */
  type DurableObjectStorage = import('@cloudflare/workers-types/index.ts').DurableObjectStorage;
}

/** This phase's options, for parseArgs (scripts/bench/watches.ts takes them too). */
export const WATCH_CHANGES_OPTIONS = {
  pages: { type: 'string', default: '40' },
  executions: { type: 'string', default: '10' },
  changed: { type: 'string' },
  'diff-runs': { type: 'string', default: '300' },
} as const;

export interface WatchChangesSettings {
  /** Pages of the site (a home page and corpus pages), each with one price. */
  pages: number;
  /** Executions on the unchanged site. */
  executions: number;
  /** Pages whose price changes before the last measured execution. */
  changed: number;
  /** Runs of the diff alone, in Node. */
  diffRuns: number;
}

export const WATCH_CHANGES_USAGE = '--pages 40 (2-480) --executions 10 (1-100) --changed <all pages> (1-pages) --diff-runs 300 (10-100000)';

/** The settings from parsed options, or undefined when one is out of range (print WATCH_CHANGES_USAGE). */
export function watchChangesSettings(values: { pages?: string; executions?: string; changed?: string; 'diff-runs'?: string }): WatchChangesSettings | undefined {
  const pages = Number(values.pages ?? '40');
  const settings = { pages, executions: Number(values.executions ?? '10'), changed: Number(values.changed ?? pages), diffRuns: Number(values['diff-runs'] ?? '300') };
  const within = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;
  const valid = within(settings.pages, 2, 480) && within(settings.executions, 1, 100) && within(settings.changed, 1, settings.pages) && within(settings.diffRuns, 10, 100_000);
  return valid ? settings : undefined;
}

const DOMAIN = 'bench-changes.example';
/** What one execution costs at the lite tier is 3,000 micros: room for every execution of the largest run. */
const COST_CAP_MICROS = 10_000_000;
const FIRST_EXECUTION_TIMEOUT_MS = 5 * 60_000;
const POLL_MS = 250;
const HEALTHZ_CALLS = 500;
const DIFF_WARMUP_RUNS = 20;

/** One page of the site: its text apart from the noise, and its price. */
interface BenchPage {
  path: string;
  title: string;
  sentences: string[];
  plan: number;
  price: number;
}

/** What changes on every request of a page, whatever the page says. */
interface Noise {
  testimonial: readonly [quote: string, by: string];
  updated: Date;
  viewers: number;
  requestId: string;
  csrf: string;
  copyright: readonly [from: number, to: number];
  cacheBust: string;
  /** When it was rendered: the page's Last-Modified. */
  servedAt: Date;
}

const TESTIMONIALS = [
  ['Bench Changes cut the time our team spends on reporting in half.', 'Maria Lopez, VP Sales at Northwind Traders'],
  ['We replaced three tools with Bench Changes in a single quarter.', 'James Chen, Head of Revenue Operations at Contoso'],
  ['Onboarding took one afternoon, and our pipeline reviews are shorter now.', 'Aisha Okafor, Chief Revenue Officer at Fabrikam'],
  ['Our managers finally trust the numbers they see every Monday.', 'Tom Becker, Director of Sales at Litware'],
  ['Bench Changes paid for itself before our first renewal.', 'Sofia Rossi, COO at Adventure Works'],
] as const;

/** The noise of successive requests, from a seeded generator: the viewer count only grows. */
class NoiseSource {
  private readonly rng: () => number;
  private viewers = 120;

  constructor(seed: number) {
    this.rng = createRng(seed);
  }

  next(): Noise {
    const rng = this.rng;
    const hex = (length: number) => Array.from({ length }, () => Math.floor(rng() * 16).toString(16)).join('');
    const now = Date.now();
    this.viewers += 1 + Math.floor(rng() * 7);
    const year = new Date(now).getUTCFullYear();
    return {
      testimonial: TESTIMONIALS[Math.floor(rng() * TESTIMONIALS.length)]!,
      updated: new Date(now - Math.floor(rng() * 30 * 86_400_000)),
      viewers: this.viewers,
      requestId: `req_${hex(16)}`,
      csrf: hex(32),
      copyright: [2016, rng() < 0.5 ? year - 1 : year],
      cacheBust: `${now.toString(36)}${hex(4)}`,
      servedAt: new Date(now),
    };
  }
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const priceSentence = (page: BenchPage) => `The Plan ${page.plan} plan costs $${page.price} per month.`;
/** The price a changed page moves to. */
const raisedPrice = (price: number) => price + 7;
/** Where the price sentence stands among a page's sentences. */
const PRICE_AT = 2;

/** The page's own lines (heading, sentences with the price among them), as one paragraph each. */
function ownLines(page: BenchPage): string[] {
  const sentences = [...page.sentences];
  sentences.splice(Math.min(PRICE_AT, sentences.length), 0, priceSentence(page));
  return [page.title, ...sentences];
}

/** The lines the noise adds to a page's text. */
function noiseLines(noise: Noise): string[] {
  const date = noise.updated.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return [
    `“${noise.testimonial[0]}”`,
    `— ${noise.testimonial[1]}`,
    `Last updated ${date} at ${noise.updated.toISOString().slice(11, 19)} UTC`,
    `${noise.viewers} people are viewing this page`,
    `Request ID: ${noise.requestId}`,
    `© ${noise.copyright[0]}–${noise.copyright[1]} Bench Changes Inc. All rights reserved.`,
  ];
}

function pageHtml(page: BenchPage, noise: Noise): string {
  const [title, ...sentences] = ownLines(page);
  const [quote, by, updated, viewers, requestId, copyright] = noiseLines(noise).map(escapeHtml);
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title><script src="/static/app.js?v=${noise.cacheBust}"></script></head>` +
    `<body><nav><a href="/">Home</a></nav><main><h1>${escapeHtml(title!)}</h1>${sentences.map((s) => `<p>${escapeHtml(s)}</p>`).join('')}` +
    `<blockquote><p>${quote}</p><footer>${by}</footer></blockquote><p>${updated}</p><p>${viewers}</p>` +
    `<form method="post" action="/contact"><input type="hidden" name="csrf_token" value="${noise.csrf}"></form></main>` +
    `<footer><p>${requestId}</p><p>${copyright}</p></footer></body></html>`
  );
}

/** The page's text as the Worker extracts it (src/oms/html-text.ts: one line per block, blank lines between; nav, script and inputs dropped). */
function pageText(page: BenchPage, noise: Noise): string {
  return [...ownLines(page), ...noiseLines(noise)].join('\n\n');
}

/** A home page and `count - 1` pages of the research corpus, each with a price of its own. */
function benchPages(count: number): BenchPage[] {
  const home = {
    path: '/',
    title: 'Bench Changes: software for teams who measure things',
    sentences: ['Bench Changes sells benchmark software to teams who measure things.', 'Its plans are listed on every page of this site.', 'Each plan is billed monthly.'],
  };
  const corpus = [...generateSources(count - 1, 23)].map((source) => ({
    path: new URL(source.key).pathname,
    title: source.properties.title,
    sentences: (source.properties.content.match(/[^.!?]+[.!?]+/g) ?? [source.properties.content]).map((s) => s.trim()),
  }));
  return [home, ...corpus].map((page, i) => ({ ...page, plan: i + 1, price: 19 + 10 * i }));
}

/**
 * The site: robots.txt and a sitemap of every page, each page rendered on request with `noise()`
 * (generate: a page set with `setPage` is served as set instead).
 */
function changesSite(pages: readonly BenchPage[], noise: () => Noise): SiteSpec {
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const urls = pages.map((page) => `<url><loc>https://${DOMAIN}${page.path}</loc></url>`).join('');
  return {
    pages: {},
    robots: `User-agent: *\nAllow: /\n\nSitemap: https://${DOMAIN}/sitemap.xml\n`,
    sitemaps: { '/sitemap.xml': { xml: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>` } },
    generate: (pathname) => {
      const page = byPath.get(pathname);
      if (!page) return undefined;
      const now = noise();
      return { body: pageHtml(page, now), lastModified: now.servedAt };
    },
  };
}

/** wrangler.toml for the bench with the site-read settings added to [vars]. */
async function withSiteVars(configFile: string, site: RunningSite): Promise<void> {
  const config = await readFile(configFile, 'utf8');
  const vars = [`SITE_ORIGIN_OVERRIDES = "${DOMAIN}=${site.origin}"`, 'SITE_READ_MIN_DELAY_MS = "0"', 'SITE_READ_PAGES_PER_DAY = "1000000"'];
  if (!/^\[vars\]$/m.test(config)) throw new Error('wrangler.toml has no [vars] section');
  await writeFile(configFile, config.replace(/^\[vars\]$/m, `[vars]\n${vars.join('\n')}`));
}

/** Page requests in the site's log (robots.txt, sitemaps and feed paths left out), by status. */
function pageRequests(log: SiteLog): { pages: number; status200: number; status304: number; other: number } {
  if (log.dropped > 0) throw new Error(`the site log dropped ${log.dropped} requests`);
  const pages = log.requests.filter((request) => request.path !== '/robots.txt' && !request.path.startsWith('/sitemap') && !FEED_PATHS.includes(request.path));
  const status200 = pages.filter((request) => request.status === 200).length;
  const status304 = pages.filter((request) => request.status === 304).length;
  return { pages: pages.length, status200, status304, other: pages.length - status200 - status304 };
}

/** workerd CPU per GET /healthz (µs), one call at a time. */
async function healthzCpu(base: string, pid: number): Promise<number> {
  for (let i = 0; i < 50; i++) await (await fetch(`${base}/healthz`)).arrayBuffer();
  const before = cpuSeconds(pid);
  for (let i = 0; i < HEALTHZ_CALLS; i++) await (await fetch(`${base}/healthz`)).arrayBuffer();
  return ((cpuSeconds(pid) - before) / HEALTHZ_CALLS) * 1e6;
}

/** One measured execution: what it reported, what the site answered, and what it cost. */
interface Measured {
  name: string;
  record: ExecutionRecord;
  site: ReturnType<typeof pageRequests>;
  seconds: number;
  cpuMs: number;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const describe = (change: Change) => `${change.kind}/${change.action} "${change.text}" ${change.url}${change.before !== undefined ? ` (${change.before} -> ${change.after}${change.plan ? `, plan "${change.plan}"` : ''})` : ''}`;
/** An execution's change counts (NaN when it has no findings). */
const countsOf = (m: Pick<Measured, 'record'>) => m.record.findings?.changeCounts ?? { total: Number.NaN, byKind: {}, flips: Number.NaN, pagesCompared: Number.NaN };

/** Runs the phase; releases what it holds (the Worker, the temp dir through `bench`, the site) before returning. */
export async function benchWatchChanges(settings: WatchChangesSettings, bench: BenchResources): Promise<{ ok: boolean }> {
  const { pages: PAGES, executions: EXECUTIONS, changed: CHANGED } = settings;
  console.log(
    `Recon watch-changes benchmark: a loopback company site of ${PAGES} pages whose noise moves on every request; ${EXECUTIONS} executions on it unchanged, ` +
      `then the price changed on ${CHANGED} page(s). ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}.`,
  );
  const pages = benchPages(PAGES);
  const source = new NoiseSource(31);
  let frozen: Noise | undefined;
  const site = await startSite(changesSite(pages, () => frozen ?? source.next()));
  let ok = true;
  try {
    const tempDir = (bench.tempDir = await mkdtemp(path.join(tmpdir(), 'recon-watch-changes-')));
    const persistTo = path.join(tempDir, 'state');
    await seedLocalDatabase({ persistTo, quiet: true });
    const key = await createKey('bench-watch-changes', persistTo);
    const config = await benchConfig(tempDir);
    await withSiteVars(config, site);
    const worker = (bench.worker = await unstable_startWorker({
      config,
      dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, persist: persistTo, watch: false, logLevel: 'error' },
    }));
    await worker.ready;
    const base = (await worker.url).origin;
    const api = async <T>(method: string, pathAndQuery: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${base}${pathAndQuery}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${pathAndQuery} answered ${response.status}: ${text.slice(0, 500)}`);
      return JSON.parse(text) as T;
    };

    // Every page in one read: the organization's budget per read above the site's size.
    await api('PUT', '/api/v1/oms/sites/settings', { pagesPerRead: Math.min(500, PAGES + 20) });
    const cpuBefore = new Map(workerdPids().map((p) => [p, cpuSeconds(p)]));
    site.resetLog();
    const firstStarted = performance.now();
    const watch = await api<{ id: string }>('POST', '/api/v1/oms/watches', { target: { type: 'company', key: DOMAIN }, frequency: '1d', tier: 'lite', costCapMicros: COST_CAP_MICROS });
    let first: ExecutionRecord | undefined;
    while (!first) {
      if (performance.now() - firstStarted > FIRST_EXECUTION_TIMEOUT_MS) throw new Error(`watch ${watch.id} did not execute within ${FIRST_EXECUTION_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      first = (await api<{ executions: ExecutionRecord[] }>('GET', `/api/v1/oms/watches/executions?id=${watch.id}&limit=1`)).executions[0];
    }
    const firstSeconds = (performance.now() - firstStarted) / 1000;
    // wrangler runs two workerd processes, the Worker's runtime and a proxy in front of it: the
    // runtime is the one the first execution (a site read of every page, then research) cost the most.
    const pids = workerdPids();
    const spent = pids.map((p) => cpuSeconds(p) - (cpuBefore.get(p) ?? 0));
    const pid = pids[spent.indexOf(Math.max(...spent))]!;
    const firstSite = pageRequests(site.log());
    console.log(
      `  Worker on ${base} (workerd runtime pid ${pid}, of ${pids.length}); watch ${watch.id}: first execution (its alarm) ${first.outcome}, site read ${first.siteRead?.status ?? 'none'}, ` +
        `${firstSite.pages} pages requested (${firstSite.status200} x 200), ${fixed(firstSeconds, 2)} s from the create call, ${fixed(Math.max(...spent) * 1000, 0)} ms of CPU with the creation and the polls`,
    );
    if (first.outcome !== 'succeeded') throw new Error(`the first execution failed: ${JSON.stringify(first).slice(0, 1000)}`);
    if (firstSite.status200 !== PAGES) console.warn(`  note: the first read requested ${firstSite.status200} pages answered 200, not the site's ${PAGES}`);
    const healthz = await healthzCpu(base, pid);
    console.log(`  GET /healthz costs ${fixed(healthz, 0)} µs of workerd's CPU here.`);

    const execute = async (name: string): Promise<Measured> => {
      site.resetLog();
      const before = cpuSeconds(pid);
      const started = performance.now();
      const record = await api<ExecutionRecord>('POST', `/api/v1/oms/watches/run?id=${watch.id}`);
      const measured = { name, record, seconds: (performance.now() - started) / 1000, cpuMs: (cpuSeconds(pid) - before) * 1000, site: pageRequests(site.log()) };
      const counts = countsOf(measured);
      console.log(
        `  ${name}: ${record.outcome}, site read ${record.siteRead?.status ?? 'none'} (${measured.site.status200} x 200, ${measured.site.status304} x 304, ${measured.site.other} other); ` +
          `${counts.pagesCompared} pages compared, ${counts.total} change(s) reported, ${counts.flips} flip(s); ${fixed(measured.seconds, 2)} s, ${fixed(measured.cpuMs, 0)} ms CPU`,
      );
      if (record.outcome !== 'succeeded') throw new Error(`${name} failed: ${JSON.stringify(record).slice(0, 1000)}`);
      if (record.siteRead?.status !== 'completed') console.warn(`  note: ${name}'s site read ended ${record.siteRead?.status ?? 'not at all'}`);
      return measured;
    };

    const unchanged: Measured[] = [];
    for (let i = 1; i <= EXECUTIONS; i++) unchanged.push(await execute(`unchanged ${i}`));

    const changedPages = pages.slice(0, CHANGED);
    const expected = new Map(changedPages.map((page) => [page.path, { before: page.price, after: raisedPrice(page.price) }]));
    for (const page of changedPages) {
      page.price = raisedPrice(page.price);
      site.setPage(page.path, { body: pageHtml(page, source.next()) } satisfies SitePage);
    }
    const changed = await execute(`changed (${CHANGED} price${CHANGED === 1 ? '' : 's'})`);

    frozen = source.next();
    const still = [await execute('still 1 (noise frozen)'), await execute('still 2 (noise frozen)')];
    const quiet = still.at(-1)!;
    if (quiet.site.status304 !== quiet.site.pages) console.warn(`  note: the second still execution was not all 304 (${quiet.site.status304} of ${quiet.site.pages})`);

    // False positives: every change an execution on the unchanged site reported, verbatim.
    const falseOf = (list: readonly Measured[]) => list.flatMap((m) => (m.record.findings?.changes ?? []).map((change) => `${m.name}: ${describe(change)}`));
    const falseTotal = unchanged.reduce((sum, m) => sum + countsOf(m).total, 0);
    const flipsTotal = unchanged.reduce((sum, m) => sum + countsOf(m).flips, 0);
    const stillTotal = still.reduce((sum, m) => sum + countsOf(m).total, 0);
    const reRead = PAGES * EXECUTIONS;
    const answered200 = unchanged.reduce((sum, m) => sum + m.site.status200, 0);

    // The changed execution: exactly the price changes made.
    const found: Change[] = [];
    const other: Change[] = [];
    for (const change of changed.record.findings?.changes ?? []) {
      const want = expected.get(new URL(change.url).pathname);
      const matches =
        want !== undefined && change.kind === 'pricing' && change.action === 'changed' && (change.before ?? '').includes(`$${want.before}`) && (change.after ?? '').includes(`$${want.after}`);
      (matches ? found : other).push(change);
    }
    const changedCounts = countsOf(changed);
    const missing = changedPages.filter((page) => !found.some((change) => new URL(change.url).pathname === page.path)).map((page) => page.path);

    const diff = diffAlone(benchPages(PAGES), CHANGED, settings.diffRuns);

    const healthzMs = healthz / 1000;
    const cpuUnchanged = unchanged.map((m) => m.cpuMs);
    const unchangedMedian = median(cpuUnchanged);
    const perChanged = (changed.cpuMs - unchangedMedian) / CHANGED;
    const perReRead = (unchangedMedian - quiet.cpuMs) / median(unchanged.map((m) => countsOf(m).pagesCompared));
    const times = (ms: number) => `${fixed(ms / healthzMs, 1)}x`;

    console.log(`\nExecutions of one watch on a site of ${PAGES} pages (run now, one at a time; CPU: workerd's runtime around the call)\n`);
    console.log('| execution | site pages 200 / 304 | pages compared | changes reported | flips | wall time (s) | Worker CPU (ms) | / GET /healthz |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    const row = (name: string, m: Measured, cpu = m.cpuMs, seconds = m.seconds) => {
      const c = countsOf(m);
      console.log(`| ${name} | ${m.site.status200} / ${m.site.status304} | ${c.pagesCompared} | ${c.total} | ${c.flips} | ${fixed(seconds, 2)} | ${fixed(cpu, 0)} | ${times(cpu)} |`);
    };
    const middle = [...unchanged].sort((a, b) => a.cpuMs - b.cpuMs)[Math.floor((unchanged.length - 1) / 2)]!;
    console.log(
      `| unchanged site, median of ${EXECUTIONS} (p95 CPU ${fixed(percentile(cpuUnchanged, 95), 0)} ms) | ${middle.site.status200} / ${middle.site.status304} | ${median(unchanged.map((m) => countsOf(m).pagesCompared))} | ${falseTotal} in all | ${flipsTotal} in all | ${fixed(median(unchanged.map((m) => m.seconds)), 2)} | ${fixed(unchangedMedian, 0)} | ${times(unchangedMedian)} |`,
    );
    row(`prices changed on ${CHANGED} page(s)`, changed);
    row('still site (noise frozen, all 304)', quiet);

    console.log(`\n| measure | value |`);
    console.log(`| --- | ---: |`);
    console.log(`| false positives: changes reported by the ${EXECUTIONS} executions on the unchanged site | **${falseTotal}** (${flipsTotal} flip(s) counted, not listed) |`);
    console.log(`| pages re-read (pages x executions; the site answered ${answered200} x 200) | ${reRead} |`);
    console.log(`| false changes per page re-read / per execution | ${fixed(falseTotal / reRead, 4)} / ${fixed(falseTotal / EXECUTIONS, 2)} |`);
    console.log(`| changes reported by the still executions (should be 0) | ${stillTotal} |`);
    console.log(`| price changes found / expected (kind pricing, action changed, before and after right) | ${found.length} / ${CHANGED} (other changes reported: ${changedCounts.total - found.length}) |`);
    const [low, high] = [Math.min(...cpuUnchanged), Math.max(...cpuUnchanged)];
    console.log(`| Worker CPU per changed page: (changed - median unchanged) / ${CHANGED} | ${fixed(perChanged, 2)} ms (${times(perChanged)} GET /healthz) |`);
    console.log(`| the same, within the unchanged executions' spread (${fixed(low, 0)}-${fixed(high, 0)} ms CPU) | ${fixed((changed.cpuMs - high) / CHANGED, 2)} to ${fixed((changed.cpuMs - low) / CHANGED, 2)} ms |`);
    console.log(`| Worker CPU per page whose text changed: (median unchanged - still) / pages compared | ${fixed(perReRead, 2)} ms (${times(perReRead)} GET /healthz) |`);
    console.log(`| GET /healthz | ${fixed(healthz, 0)} µs |`);

    console.log(`\nThe diff alone, in Node ${process.version}: ${settings.diffRuns} runs over ${PAGES} pages (every page's text changed; ${CHANGED} with a price), times per page compared\n`);
    console.log('| what | median (µs per page) | p95 | median / splitSentences | changes it reports |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    const splitMedian = median(diff.split);
    for (const [what, samples, reports] of [
      ['splitSentences of the same pages (the baseline)', diff.split, '-'],
      [`comparePages, ${CHANGED} price(s) changed and the noise moved`, diff.priced, `${diff.pricedReport.total} (${diff.pricedReport.pricing} pricing)`],
      ['comparePages, only the noise moved', diff.noiseOnly, String(diff.noiseReport.total)],
    ] as const) {
      console.log(`| ${what} | ${fixed(median(samples), 1)} | ${fixed(percentile(samples, 95), 1)} | ${fixed(median(samples) / splitMedian, 2)}x | ${reports} |`);
    }

    console.log(
      `\nCPU is workerd's (user + system, /proc) around each POST /api/v1/oms/watches/run: the site read (every page re-read: the noise changes its bytes, so none is 304), ` +
        `the pages compared, the research and the brief. An execution on the unchanged site already re-reads, stores and compares every page (its noise moved), so the CPU per changed page ` +
        `is what a real change adds to that (its change reported and stored in the feed); the page's storing is in both, as the site read does it anyway. ` +
        `"Per page whose text changed" is an unchanged-site execution against one answered 304 throughout: re-reading, storing and comparing a page. 1-min load average at end: ${loadavg()[0]!.toFixed(2)}.`,
    );

    const falsePositives = [...falseOf(unchanged), ...falseOf(still)];
    if (falsePositives.length > 0 || falseTotal > 0 || stillTotal > 0) {
      ok = false;
      console.log(`\nFALSE POSITIVES (changes reported on the unchanged site: ${falseTotal} in the unchanged executions, ${stillTotal} in the still ones), verbatim:`);
      for (const line of falsePositives) console.log(`  ${line}`);
    }
    if (found.length !== CHANGED || other.length > 0 || changedCounts.total !== found.length) {
      ok = false;
      console.log(`\nTHE CHANGED EXECUTION did not report exactly the ${CHANGED} price change(s): ${found.length} found; missing on ${missing.length} page(s)${missing.length ? ` (${missing.slice(0, 20).join(', ')})` : ''}; other changes (${other.length} listed, ${changedCounts.total} counted in all), verbatim:`);
      for (const change of other) console.log(`  ${describe(change)}`);
    }
    if (diff.noiseReport.total > 0 || diff.pricedReport.pricing !== CHANGED || diff.pricedReport.total !== CHANGED) {
      ok = false;
      console.log(`\nTHE DIFF ALONE (Node) reported ${diff.noiseReport.total} change(s) for the noise alone and ${diff.pricedReport.total} (${diff.pricedReport.pricing} pricing) for ${CHANGED} price change(s), verbatim:`);
      for (const change of diff.reported) console.log(`  ${describe(change)}`);
    }
  } finally {
    await site.close();
    await bench.cleanup();
  }
  return { ok };
}

/** Times comparePages per page compared, against splitSentences of the same texts, in one loop. */
function diffAlone(pages: BenchPage[], changed: number, runs: number) {
  const source = new NoiseSource(47);
  const before = pages.map((page) => pageText(page, source.next()));
  const noiseOnly = pages.map((page) => pageText(page, source.next()));
  const priced = pages.map((page, i) => pageText(i < changed ? { ...page, price: raisedPrice(page.price) } : page, source.next()));
  const seenAt = new Date().toISOString();
  const url = (page: BenchPage) => `https://${DOMAIN}${page.path}`;
  const baseline: PageBaselineRow[] = pages.map((page, i) => ({ url: url(page), what: 'page', title: page.title, state: 'live', hash: `before-${i}`, seenAt, sentences: splitSentences(before[i]!), reported: {} }));
  const reading = (texts: readonly string[], tag: string): ReadingItem[] =>
    pages.map((page, i) => ({ url: url(page), what: 'page', title: page.title, state: 'live', hash: `${tag}-${i}`, seenAt, sentences: splitSentences(texts[i]!) }));
  const pricedReading = reading(priced, 'priced');
  const noiseReading = reading(noiseOnly, 'noise');
  // As an execution compares: the watch's own patterns (none here) compiled, sequence after the baseline's.
  const ignore = compileIgnore([]);
  const options = { ...(ignore.ok ? { ignore: ignore.mask } : {}), query: null, sequence: 2 };
  const pricedResult = comparePages(baseline, pricedReading, options);
  const noiseResult = comparePages(baseline, noiseReading, options);

  const split: number[] = [];
  const pricedTimes: number[] = [];
  const noiseTimes: number[] = [];
  let sink = 0;
  for (let run = -DIFF_WARMUP_RUNS; run < runs; run++) {
    const t0 = performance.now();
    for (const text of priced) sink += splitSentences(text).length;
    const t1 = performance.now();
    sink += comparePages(baseline, pricedReading, options).counts.total;
    const t2 = performance.now();
    sink += comparePages(baseline, noiseReading, options).counts.total;
    const t3 = performance.now();
    if (run < 0) continue;
    split.push(((t1 - t0) * 1000) / pages.length);
    pricedTimes.push(((t2 - t1) * 1000) / pages.length);
    noiseTimes.push(((t3 - t2) * 1000) / pages.length);
  }
  if (sink < 0) console.log(sink);
  return {
    split,
    priced: pricedTimes,
    noiseOnly: noiseTimes,
    pricedReport: { total: pricedResult.counts.total, pricing: pricedResult.changes.filter((change) => change.kind === 'pricing' && change.action === 'changed').length },
    noiseReport: { total: noiseResult.counts.total },
    reported: [...noiseResult.changes.map((change) => ({ ...change, text: `[noise only] ${change.text}` })), ...pricedResult.changes.filter((change) => change.kind !== 'pricing' || change.action !== 'changed')],
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { ...WATCH_CHANGES_OPTIONS, keep: { type: 'boolean', default: false } } });
  const settings = watchChangesSettings(values);
  if (!settings) {
    console.error(`Usage: node scripts/bench/watch-changes.ts [-- ${WATCH_CHANGES_USAGE} --keep]`);
    process.exit(2);
  }
  const bench = new BenchResources(values.keep);
  try {
    const { ok } = await benchWatchChanges(settings, bench);
    if (!ok) process.exitCode = 1;
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  } finally {
    await bench.cleanup();
  }
}
