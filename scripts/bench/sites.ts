/**
 * `npm run bench:sites [-- options]`: how fast a site read goes, and what it costs (issue 23, "Speed
 * and scale").
 *
 * A loopback site of `--pages` pages (2,000: a home page, the pages a GTM team needs, and generated
 * docs, blog, customer and product pages of 600-1,200 characters of text each from the research
 * bench's corpus, every page linking to ten others, all listed in one sitemap; robots.txt with no
 * Crawl-delay) is served by scripts/lib/site-server.ts, one copy per organization under a domain of
 * its own (so no other organization's shared copy answers it). The real Worker runs under wrangler's
 * local runtime (unstable_startWorker on 127.0.0.1, a fresh seeded state, per-key rate limits raised
 * as the other benches do) with SITE_ORIGIN_OVERRIDES naming the sites and SITE_READ_MIN_DELAY_MS=0
 * (no politeness delay on loopback; at most 2 requests in flight still holds). For each of `--reads`
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
 * A status poll's CPU is measured too (on a finished read, one at a time), and CPU per page is also
 * given without the read's polls. Then, beside the plain pages, each by an organization of its own:
 *
 *   small sites  a one-page site (what any read costs besides its pages, subtracted from the next),
 *                a home page linking `--rendered` pages only a browser sees (an empty
 *                `<div id="root">` and a script writing the text; env.BROWSER renders them, locally
 *                Debian's Chromium: ensureLocalBrowser runs before wrangler starts): rendered pages
 *                per second; one linking `--pdfs` PDFs of three pages: CPU per PDF; one linking an
 *                RSS feed of `--feed-entries` entries (`<link rel="alternate">`): CPU per entry
 *                stored (the feeds step stores at most 30 of a feed).
 *   together     `--together` organizations read one fresh copy of the plain site at once: page
 *                requests to the site between them (the aim: one per page) and each read's wall
 *                time against the lone first reads' median (the aim: within 1.5x).
 *
 * Loopback only: nothing leaves the machine. Options: --pages 2000  --budget 500  --reads 3
 * --rendered 10  --pdfs 20  --feed-entries 200  --together 3  --delay-ms 0  --keep
 * --profile  a V8 CPU profile of organization 1's reads (the Worker's isolate, through wrangler's
 *            inspector proxy): the functions with the most self time, and the `.cpuprofile` in the temp dir
 */
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { unstable_startWorker } from 'wrangler';
import { ensureLocalBrowser } from '../lib/local-browser.ts';
import { startSite, type RunningSite, type SiteLog, type SitePage, type SiteSpec } from '../lib/site-server.ts';
import { multiPagePdf } from '../../test/helpers/pdf-files.ts';
import { FEED_PATHS } from '../../src/sites/feed-paths.ts';
import { seedLocalDatabase } from '../seed.ts';
import { generateSources } from './corpus.ts';
import { cpuSeconds, memoryMiB, workerdPids } from './proc.ts';
import { benchConfig, BenchResources, createKey } from './setup.ts';
import { median, percentile } from './stats.ts';
import { freePort } from '../lib/free-port.ts';
import { hotFunctions, InspectorSession, startProfiling } from '../../bench/cpu-profile.ts';

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const { values: options } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    budget: { type: 'string', default: '500' },
    reads: { type: 'string', default: '3' },
    rendered: { type: 'string', default: '10' },
    pdfs: { type: 'string', default: '20' },
    'feed-entries': { type: 'string', default: '200' },
    together: { type: 'string', default: '3' },
    'delay-ms': { type: 'string', default: '0' },
    keep: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});
const SITE_PAGES = Number(options.pages);
const BUDGET = Number(options.budget);
const READS = Number(options.reads);
const RENDERED = Number(options.rendered);
const PDFS = Number(options.pdfs);
const FEED_ENTRIES = Number(options['feed-entries']);
const TOGETHER = Number(options.together);
/** SITE_READ_MIN_DELAY_MS: 0 measures the Worker's own cost; the production 1,000 (or less) shows reads paced by politeness. */
const DELAY_MS = Number(options['delay-ms']);
const within = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;
if (!within(SITE_PAGES, 20, 20_000) || !within(BUDGET, 1, 500) || !within(READS, 1, 20) || !within(RENDERED, 0, 100) || !within(PDFS, 0, 100) || !within(FEED_ENTRIES, 0, 1_000) || !within(TOGETHER, 0, 10) || !within(DELAY_MS, 0, 60_000)) {
  console.error(
    'Usage: npm run bench:sites [-- --pages 2000 (20-20000) --budget 500 (1-500) --reads 3 (1-20) --rendered 10 (0-100) --pdfs 20 (0-100) --feed-entries 200 (0-1000) --together 3 (0-10) --delay-ms 0 (0-60000) --keep]',
  );
  process.exit(2);
}
/**
 * The plain site, one copy per organization (`bench-site-1.example`, ...): another organization's
 * read of the same site would be answered from its shared copy, and request nothing.
 */
const orgDomain = (r: number) => `bench-site-${r}.example`;
/** The same site under other names: the warm-up read's, and the one read by several organizations at once (each with a gate and shared copy of its own). */
const WARMUP_DOMAIN = 'bench-warmup.example';
const TOGETHER_DOMAIN = 'bench-together.example';
/** Small sites: a home page alone (what any read costs), and a home page linking rendered pages, PDFs or a feed. */
const ONE_DOMAIN = 'bench-one.example';
const RENDERED_DOMAIN = 'bench-rendered.example';
const PDF_DOMAIN = 'bench-pdf.example';
const FEED_DOMAIN = 'bench-feed.example';
/** The budget of a small site's read: more than its pages, so the feeds step still runs. */
const SMALL_BUDGET = 120;
/** Polls are requests to the Worker too: every 250 ms, and their CPU is measured apart (pollCpu). */
const POLL_MS = 250;
const SAMPLE_MS = 20;
/** A read that takes longer than this is a failure of the bench, not a measurement. */
const READ_TIMEOUT_MS = 15 * 60_000;
const HEALTHZ_CALLS = 500;
const POLL_CALLS = 100;

const bench = new BenchResources(options.keep);

/** The bench site under `domain`: GTM pages first, then generated pages, each linking to ten others; all in the sitemap. */
function benchSite(count: number, domain: string): SiteSpec {
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
  const urls = paths.map((p) => `<url><loc>https://${domain}${p}</loc></url>`).join('');
  return {
    pages,
    robots: `User-agent: *\nAllow: /\n\nSitemap: https://${domain}/sitemap.xml\n`,
    sitemaps: { '/sitemap.xml': { xml: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>` } },
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A page of the small sites: `head` in its head, `body` in its main. */
function smallPage(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${head}</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** Sentences of the research corpus, `count` texts of 600-1,200 characters from `seed`. */
function corpusTexts(count: number, seed: number): { title: string; content: string }[] {
  return [...generateSources(count, seed)].map((source) => ({ title: source.properties.title, content: source.properties.content }));
}

/** A site of one home page and nothing else (no sitemap): what the steps of any read cost besides its pages. */
function onePageSite(): SiteSpec {
  return { pages: { '/': { body: smallPage('One page', '<p>Bench One sells one thing. This is its only page.</p>') } }, robots: 'User-agent: *\nAllow: /\n' };
}

/**
 * A home page linking `count` pages only a browser sees (as test/sites/real-web-site.ts /customers):
 * an empty `<div id="root">` and a script that writes the page's text into it.
 */
function renderedSite(count: number): SiteSpec {
  const pages: Record<string, SitePage> = {};
  const texts = corpusTexts(count, 11);
  const links = texts.map((_, i) => `<a href="/app/${i}">App ${i}</a>`).join(' ');
  pages['/'] = { body: smallPage('Bench Rendered', `<p>Bench Rendered sells software whose pages scripts write.</p><nav>${links}</nav>`) };
  texts.forEach((text, i) => {
    const html = `<h1>${escapeHtml(text.title)}</h1><p>${escapeHtml(text.content)}</p>`;
    pages[`/app/${i}`] = {
      body: `<!doctype html><html><head><meta charset="utf-8"><title>App ${i}</title></head><body><div id="root"></div><script>document.getElementById('root').innerHTML = ${JSON.stringify(html).replace(/</g, '\\u003c')};</script></body></html>`,
    };
  });
  return { pages, robots: 'User-agent: *\nAllow: /\n' };
}

/** A home page linking `count` PDFs of three pages each (test/helpers/pdf-files.ts). */
function pdfSite(count: number): SiteSpec {
  const pages: Record<string, SitePage> = {};
  const texts = corpusTexts(count, 13);
  const links = texts.map((_, i) => `<a href="/docs/sheet-${i}.pdf">Sheet ${i}</a>`).join(' ');
  pages['/'] = { body: smallPage('Bench Documents', `<p>Bench Documents publishes its data sheets as PDFs.</p><nav>${links}</nav>`) };
  texts.forEach((text, i) => {
    const sentences = text.content.match(/[^.!?]+[.!?]+/g) ?? [text.content];
    const third = Math.ceil(sentences.length / 3);
    const pdfPages = [0, 1, 2].map((k) => [k === 0 ? text.title : `Page ${k + 1}`, '', ...sentences.slice(k * third, (k + 1) * third).map((line) => line.trim())]);
    pages[`/docs/sheet-${i}.pdf`] = { type: 'application/pdf', body: multiPagePdf(pdfPages) };
  });
  return { pages, robots: 'User-agent: *\nAllow: /\n' };
}

/** A home page linking an RSS feed of `entries` entries (`<link rel="alternate">`). */
function feedSite(entries: number): SiteSpec {
  const texts = corpusTexts(entries, 17);
  const day = Date.UTC(2026, 10, 1);
  const items = texts
    .map((text, i) => `<item><title>${escapeHtml(text.title)}</title><link>https://${FEED_DOMAIN}/news/${i}</link><pubDate>${new Date(day - i * 86_400_000).toUTCString()}</pubDate><description>${escapeHtml(text.content)}</description></item>`)
    .join('');
  return {
    pages: {
      '/': { body: smallPage('Bench Feed', '<p>Bench Feed writes its news in a feed.</p>', '<link rel="alternate" type="application/rss+xml" href="/feed.xml">') },
      '/feed.xml': { type: 'application/rss+xml', body: `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench Feed news</title><link>https://${FEED_DOMAIN}/</link>${items}</channel></rss>` },
    },
    robots: 'User-agent: *\nAllow: /\n',
  };
}

/** wrangler.toml for the bench with the site-read settings added to [vars]. */
async function withSiteVars(configFile: string, sites: ReadonlyMap<string, RunningSite>): Promise<void> {
  const config = await readFile(configFile, 'utf8');
  const overrides = [...sites].map(([domain, site]) => `${domain}=${site.origin}`).join(',');
  const vars = [`SITE_ORIGIN_OVERRIDES = "${overrides}"`, `SITE_READ_MIN_DELAY_MS = "${DELAY_MS}"`, 'SITE_READ_PAGES_PER_DAY = "1000000"'];
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
  /** Status requests the bench sent while the read ran. */
  polls: number;
  /** workerd's resident memory when the read started, and its highest sample during the read. */
  startRssMiB: number;
  peakRssMiB: number;
  report: string;
}

/** How one read is run: its site, budget, and whether the site's log is emptied first (not when reads run together). */
interface ReadSpec {
  kind: Read['kind'];
  site: RunningSite;
  domain: string;
  budget: number;
  resetLog?: boolean;
}

/** `pid`: workerd's runtime, measured; an empty list measures nothing (the warm-up read). */
async function siteRead(base: string, key: string, pid: number | [], spec: ReadSpec): Promise<Read> {
  const { kind, site, domain, budget } = spec;
  if (spec.resetLog ?? true) site.resetLog();
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
      body: JSON.stringify({ domain, pages: budget }),
    });
    const answer = await start.text();
    const id = start.headers.get('x-run-id');
    if (start.status !== 202 || !id) throw new Error(`POST /api/v1/oms/sites answered ${start.status}: ${answer.slice(0, 300)}`);
    let status = 'running';
    let report = '';
    let polls = 0;
    while (status === 'running') {
      if (performance.now() - started > READ_TIMEOUT_MS) throw new Error(`run ${id} still running after ${READ_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const poll = await fetch(`${base}/api/v1/runs/site-read/${id}`, { headers: { Authorization: `Bearer ${key}` } });
      report = await poll.text();
      polls += 1;
      status = poll.headers.get('x-run-status') ?? `HTTP ${poll.status}`;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuSpent = cpu() - cpuBefore;
    if (status !== 'completed') throw new Error(`run ${id} ended ${status}:\n${report.slice(0, 1000)}`);
    lastRun = { id, key };
    return { kind, ...count(site.log()), seconds, cpuSeconds: cpuSpent, polls, startRssMiB: startRss, peakRssMiB: Math.max(peak, rss()), report };
  } finally {
    clearInterval(sampler);
  }
}

/** Starts a CPU profile of the Worker through wrangler's inspector proxy; the returned function stops it. */
async function profileStart(port: number): Promise<() => Promise<Parameters<typeof hotFunctions>[0]>> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const session = await InspectorSession.open(targets[0]!.webSocketDebuggerUrl, 'http://localhost');
  const stop = await startProfiling(session, 200);
  return async () => {
    const profile = await stop();
    session.close();
    return profile;
  };
}

/** Prints the functions with the most self time, and writes the profile for DevTools. */
async function profileReport(name: string, profile: Parameters<typeof hotFunctions>[0]): Promise<void> {
  const file = path.join(tmpdir(), `sites-${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  console.log(`    profile of ${name} (${file}): self ms, share of busy time, share with callees`);
  for (const hot of hotFunctions(profile, 40)) {
    console.log(`      ${hot.selfMs.toFixed(1).padStart(8)} ms ${(hot.share * 100).toFixed(1).padStart(5)}% ${(hot.totalShare * 100).toFixed(1).padStart(5)}%  ${hot.name} ${hot.where}`);
  }
}

/** The latest finished run, whose status the bench asks again to measure a poll. */
let lastRun: { id: string; key: string } | undefined;

/** Feed entries a read stored, as its report says (`1 feed(s) read, 30 entries stored.`). */
function entriesStored(report: string): number {
  return Number(/(\d+) entr(?:y|ies) stored/.exec(report)?.[1] ?? Number.NaN);
}

/** Page requests in the site's log (robots.txt, sitemaps and the feeds step's usual feed paths left out) by what they were answered. */
function count(log: SiteLog): Pick<Read, 'pages' | 'status200' | 'status304' | 'conditional' | 'other' | 'maxInFlight'> {
  if (log.dropped > 0) throw new Error(`the site log dropped ${log.dropped} requests`);
  const pages = log.requests.filter((request) => request.path !== '/robots.txt' && !request.path.startsWith('/sitemap') && !FEED_PATHS.includes(request.path));
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

/** workerd CPU per status request of a finished site read (µs), one at a time: what the bench's own polls cost. */
async function pollCpu(base: string, pid: number): Promise<number> {
  if (!lastRun) return Number.NaN;
  const poll = async () => (await fetch(`${base}/api/v1/runs/site-read/${lastRun!.id}`, { headers: { Authorization: `Bearer ${lastRun!.key}` } })).arrayBuffer();
  for (let i = 0; i < 10; i++) await poll();
  const before = cpuSeconds(pid);
  for (let i = 0; i < POLL_CALLS; i++) await poll();
  return ((cpuSeconds(pid) - before) / POLL_CALLS) * 1e6;
}

/** CPU per page of a read (ms), and the same without its polls (each costing `pollUs`). */
const msPerPage = (read: Read, pollUs = 0) => ((read.cpuSeconds - (read.polls * pollUs) / 1e6) / read.pages) * 1000;

async function main(): Promise<void> {
  console.log(
    `Recon site-read benchmark: a loopback site of ${SITE_PAGES.toLocaleString('en-US')} pages, budget ${BUDGET}, ${READS} organization(s) x (first read + re-read); ` +
      `${RENDERED} rendered pages, ${PDFS} PDFs, a feed of ${FEED_ENTRIES} entries, ${TOGETHER} organizations reading one site at once. ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}.`,
  );
  // Miniflare starts Chromium for env.BROWSER only if it is linked where it looks: before wrangler starts.
  const browser = RENDERED > 0 ? ensureLocalBrowser() : undefined;
  const specs: [string, SiteSpec][] = [
    ...Array.from({ length: READS }, (_, r): [string, SiteSpec] => [orgDomain(r + 1), benchSite(SITE_PAGES, orgDomain(r + 1))]),
    [WARMUP_DOMAIN, benchSite(SITE_PAGES, WARMUP_DOMAIN)],
    [TOGETHER_DOMAIN, benchSite(SITE_PAGES, TOGETHER_DOMAIN)],
    [ONE_DOMAIN, onePageSite()],
    [RENDERED_DOMAIN, renderedSite(RENDERED)],
    [PDF_DOMAIN, pdfSite(PDFS)],
    [FEED_DOMAIN, feedSite(FEED_ENTRIES)],
  ];
  const sites = new Map<string, RunningSite>();
  try {
    for (const [domain, spec] of specs) sites.set(domain, await startSite(spec));
    const tempDir = (bench.tempDir = await mkdtemp(path.join(tmpdir(), 'recon-sites-')));
    const persistTo = path.join(tempDir, 'state');
    await seedLocalDatabase({ persistTo, quiet: true });
    const warmupKey = await createKey('bench-sites-warmup', persistTo);
    const keys: string[] = [];
    for (let r = 1; r <= READS; r++) keys.push(await createKey(`bench-sites-${r}`, persistTo));
    const togetherKeys: string[] = [];
    for (let r = 1; r <= TOGETHER; r++) togetherKeys.push(await createKey(`bench-sites-together-${r}`, persistTo));
    const config = await benchConfig(tempDir);
    await withSiteVars(config, sites);
    const inspectorPort = options.profile ? await freePort() : undefined;
    const worker = (bench.worker = await unstable_startWorker({
      config,
      dev: {
        server: { hostname: '127.0.0.1', port: 0 },
        inspector: inspectorPort === undefined ? false : { hostname: '127.0.0.1', port: inspectorPort },
        persist: persistTo,
        watch: false,
        logLevel: 'error',
      },
    }));
    await worker.ready;
    const base = (await worker.url).origin;
    // wrangler runs two workerd processes, the Worker's runtime and a proxy in front of it: the
    // runtime is the one a warm-up read (another organization, 20 pages of a site of its own, so
    // that no shared copy of it answers the measured reads) costs the most CPU.
    // (The runtime may start only at the first request, so processes are listed again after it.)
    const before = new Map(workerdPids().map((p) => [p, cpuSeconds(p)]));
    await siteRead(base, warmupKey, [], { kind: 'first read', site: sites.get(WARMUP_DOMAIN)!, domain: WARMUP_DOMAIN, budget: Math.min(BUDGET, 20) });
    const pids = workerdPids();
    const spent = pids.map((p) => cpuSeconds(p) - (before.get(p) ?? 0));
    const pid = pids[spent.indexOf(Math.max(...spent))]!;
    const healthz = await healthzCpu(base, pid);
    const pollUs = await pollCpu(base, pid);
    console.log(`  Worker on ${base} (workerd runtime pid ${pid}, of ${pids.length} workerd processes); GET /healthz costs ${fixed(healthz, 0)} µs of its CPU, a status poll ${fixed(pollUs, 0)} µs.`);

    const reads: Read[] = [];
    for (const [r, key] of keys.entries()) {
      for (const kind of ['first read', 're-read'] as const) {
        const site = sites.get(orgDomain(r + 1))!;
        const profiling = inspectorPort !== undefined && r === 0 ? await profileStart(inspectorPort) : undefined;
        const read = await siteRead(base, key, pid, { kind, site, domain: orgDomain(r + 1), budget: BUDGET });
        if (profiling) await profileReport(`${kind} of org 1`, await profiling());
        reads.push(read);
        console.log(
          `  org ${r + 1} ${kind}: ${read.pages} pages (${read.status200} x 200, ${read.status304} x 304, ${read.other} other, at most ${read.maxInFlight} in flight) in ${fixed(read.seconds, 2)} s; ` +
            `${fixed(read.pages / read.seconds)} pages/s, ${fixed(msPerPage(read), 2)} ms CPU/page (${fixed(msPerPage(read, pollUs), 2)} without its ${read.polls} polls), RSS ${fixed(read.startRssMiB, 0)} -> peak ${fixed(read.peakRssMiB, 0)} MiB`,
        );
        if (kind === 'first read' && read.pages !== BUDGET) console.warn(`  note: ${read.pages} pages requested, not the budget of ${BUDGET}:\n${read.report.slice(0, 1200)}`);
        if (kind === 're-read' && (read.status304 !== read.pages || read.conditional !== read.pages)) {
          const odd = site.log().requests.filter((request) => request.status !== 304).map((request) => `${request.path} ${request.status}`);
          throw new Error(`the re-read of an unchanged site was not all 304: ${read.status304} of ${read.pages} (${read.conditional} conditional; not 304: ${odd.slice(0, 10).join(', ')})\n${read.report.slice(0, 1200)}`);
        }
      }
    }

    const extras = await extraReads(base, pid, sites, persistTo, browser !== undefined);
    const together = TOGETHER > 0 ? await readTogether(base, sites.get(TOGETHER_DOMAIN)!, togetherKeys) : undefined;

    const of = (kind: Read['kind']) => reads.filter((read) => read.kind === kind);
    const summary = (kind: Read['kind']) => {
      const list = of(kind);
      return {
        pages: median(list.map((read) => read.pages)),
        seconds: median(list.map((read) => read.seconds)),
        secondsP95: percentile(list.map((read) => read.seconds), 95),
        pagesPerSecond: median(list.map((read) => read.pages / read.seconds)),
        cpuMsPerPage: median(list.map((read) => msPerPage(read))),
        cpuMsPerPageP95: percentile(list.map((read) => msPerPage(read)), 95),
        cpuMsPerPageNoPolls: median(list.map((read) => msPerPage(read, pollUs))),
        peakRssMiB: median(list.map((read) => read.peakRssMiB)),
        growthMiB: median(list.map((read) => read.peakRssMiB - read.startRssMiB)),
      };
    };
    const first = summary('first read');
    const again = summary('re-read');
    const healthzMs = healthz / 1000;
    console.log(`\nMedians (and p95, nearest rank) of ${READS} read(s) each (site of ${SITE_PAGES.toLocaleString('en-US')} pages, budget ${BUDGET}, no crawl delay, at most 2 requests in flight)\n`);
    console.log('| read | pages | wall time (s) | p95 | pages/s | Worker CPU per page (ms) | p95 | CPU per page / CPU of GET /healthz | the same without the polls | workerd peak RSS (MiB) | RSS growth during the read (MiB) |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [name, s] of [['first read', first], ['re-read (all 304)', again]] as const) {
      console.log(
        `| ${name} | ${s.pages} | ${fixed(s.seconds, 2)} | ${fixed(s.secondsP95, 2)} | ${fixed(s.pagesPerSecond)} | ${fixed(s.cpuMsPerPage, 2)} | ${fixed(s.cpuMsPerPageP95, 2)} | ${fixed(s.cpuMsPerPage / healthzMs, 1)}x | ${fixed(s.cpuMsPerPageNoPolls / healthzMs, 1)}x | ${fixed(s.peakRssMiB, 0)} | ${fixed(s.growthMiB, 0)} |`,
      );
    }
    console.log(`| re-read / first read | | ${fixed(again.seconds / first.seconds, 2)} | ${fixed(again.secondsP95 / first.secondsP95, 2)} | ${fixed(again.pagesPerSecond / first.pagesPerSecond, 2)} | ${fixed(again.cpuMsPerPage / first.cpuMsPerPage, 2)} | ${fixed(again.cpuMsPerPageP95 / first.cpuMsPerPageP95, 2)} | | | ${fixed(again.peakRssMiB / first.peakRssMiB, 2)} | ${fixed(again.growthMiB / first.growthMiB, 2)} |`);
    printExtras(extras, healthzMs, pollUs);
    if (together) printTogether(together, first.seconds, first.pages);
    console.log(
      `\nCPU is workerd's (user + system, /proc) over the whole read, the bench's polls every ${POLL_MS} ms included (each cost ${fixed(pollUs, 0)} µs; "without the polls" takes that out), divided by pages requested; GET /healthz cost ${fixed(healthz, 0)} µs here. ` +
        `Peak RSS is the whole workerd process (Worker, Durable Objects, local D1), sampled every ${SAMPLE_MS} ms, not the run's object alone; growth is the peak minus the RSS at the read's start (the allocator keeps what it took, so it climbs from read to read). 1-min load average at end: ${loadavg()[0]!.toFixed(2)}.`,
    );
  } finally {
    for (const running of sites.values()) await running.close();
  }
}

/** The reads of the small sites, each by an organization of its own (nothing stored, no shared copy of its). */
interface Extras {
  one: Read;
  rendered?: Read;
  pdf?: Read;
  feed?: Read;
}

async function extraReads(base: string, pid: number, sites: ReadonlyMap<string, RunningSite>, persistTo: string, rendering: boolean): Promise<Extras> {
  const read = async (domain: string, slug: string) =>
    siteRead(base, await createKey(slug, persistTo), pid, { kind: 'first read', site: sites.get(domain)!, domain, budget: SMALL_BUDGET });
  const extras: Extras = { one: await read(ONE_DOMAIN, 'bench-sites-one') };
  if (RENDERED > 0 && rendering) extras.rendered = await read(RENDERED_DOMAIN, 'bench-sites-rendered');
  if (PDFS > 0) extras.pdf = await read(PDF_DOMAIN, 'bench-sites-pdf');
  if (FEED_ENTRIES > 0) extras.feed = await read(FEED_DOMAIN, 'bench-sites-feed');
  return extras;
}

/**
 * What a rendered page, a PDF and a feed entry cost: each read's CPU (polls taken out) less what a
 * read of a one-page site costs (its steps, robots.txt, the home page), divided by what it read.
 */
function printExtras(extras: Extras, healthzMs: number, pollUs: number): void {
  const fixedCost = extras.one.cpuSeconds - (extras.one.polls * pollUs) / 1e6;
  const beyond = (read: Read) => read.cpuSeconds - (read.polls * pollUs) / 1e6 - fixedCost;
  console.log(`\nSmall sites, one read each (budget ${SMALL_BUDGET}); a one-page site's read (${fixed(extras.one.seconds, 2)} s, ${fixed(fixedCost * 1000, 1)} ms of CPU, polls taken out) is subtracted from each\n`);
  console.log('| what | read | items | wall time (s) | per second | Worker CPU per item (ms) | / GET /healthz |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  const row = (what: string, read: Read | undefined, items: number, note: string) => {
    if (!read) return console.log(`| ${what} | not measured | | | | | |`);
    const perItem = (beyond(read) / items) * 1000;
    console.log(`| ${what} | ${note} | ${items} | ${fixed(read.seconds, 2)} | ${fixed(items / read.seconds, 1)} | ${fixed(perItem, 2)} | ${fixed(perItem / healthzMs, 1)}x |`);
  };
  row('rendered page (env.BROWSER)', extras.rendered, RENDERED, `home + ${RENDERED} pages scripts write`);
  row('PDF page (3 pages of text each)', extras.pdf, PDFS, `home + ${PDFS} linked PDFs`);
  const stored = extras.feed ? entriesStored(extras.feed.report) : Number.NaN;
  row('feed entry stored', extras.feed, stored, `home + a feed of ${FEED_ENTRIES} entries (at most 30 stored)`);
}

/** Several organizations read one site at once (fresh: no shared copy yet): requests between them, and each read's wall time. */
async function readTogether(base: string, site: RunningSite, keys: readonly string[]): Promise<{ reads: Read[]; log: ReturnType<typeof count> }> {
  site.resetLog();
  const reads = await Promise.all(keys.map((key) => siteRead(base, key, [], { kind: 'first read', site, domain: TOGETHER_DOMAIN, budget: BUDGET, resetLog: false })));
  return { reads, log: count(site.log()) };
}

function printTogether(together: { reads: Read[]; log: ReturnType<typeof count> }, loneSeconds: number, lonePages: number): void {
  const { reads, log } = together;
  const ratios = reads.map((read) => read.seconds / loneSeconds);
  console.log(`\n${reads.length} organizations read one site at once (budget ${BUDGET} each; a lone first read: ${fixed(loneSeconds, 2)} s for ${lonePages} pages)\n`);
  console.log('| organizations | page requests to the site between them | per page of one read | wall time of each read (s) | median | p95 | / a lone read: median | p95 |');
  console.log('| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |');
  console.log(
    `| ${reads.length} | ${log.pages} | ${fixed(log.pages / lonePages, 2)} | ${reads.map((read) => fixed(read.seconds, 2)).join(', ')} | ${fixed(median(reads.map((read) => read.seconds)), 2)} | ${fixed(percentile(reads.map((read) => read.seconds), 95), 2)} | ${fixed(median(ratios), 2)} | ${fixed(percentile(ratios, 95), 2)} |`,
  );
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  await bench.cleanup();
}
