/**
 * `npm run dev [-- --verbose] [-- <wrangler dev args>]`: local development in one command. Seeds
 * the local D1 (migrations + demo data, as `npm run db:local` does), runs `wrangler dev --port 8787`
 * with any extra arguments passed through (`--port`, `--ip`, `--persist-to`, ...), loads the demo
 * market into acme through the import endpoint, and only then says it is ready, with the URL, the
 * demo keys and a first request to try. A `--persist-to <dir>` is used for the seed too, so the
 * server sees the seeded data. Works offline and is idempotent. `--remote` is refused: the demo
 * data and keys exist only in the local database.
 *
 * Unless `--var SITE_ORIGIN_OVERRIDES:...` is passed, the demo companies' sites (built from the demo
 * market by scripts/lib/demo-sites.ts) are served on loopback ports and named in that var, so a site
 * read (`POST /api/v1/oms/sites`) works offline; the announcement says how to try one and how to
 * change a page between two reads.
 *
 * Quiet by default: what a user needs (the URL, the keys, the demo data, warnings and errors).
 * `--verbose` (or `RECON_VERBOSE=1`) shows everything: wrangler's output for the seed, its banner
 * and bindings, and a log line per request from wrangler and from the Worker.
 *
 * While it serves, a session file in the state directory (DEV_SESSION_FILE, this user only,
 * removed on exit) says where, so `npm run keys` works on the database through this server instead
 * of opening its file a second time (scripts/lib/local-d1.ts).
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import path from 'node:path';
import { ACME_DEMO_KEY, DEMO_KNOWLEDGE_BASE, GLOBEX_DEMO_KEY, loadDemoKnowledgeBase, seedLocalDatabase, waitUntilServing } from './seed.ts';
import { demoSites } from './lib/demo-sites.ts';
import { ensureLocalBrowser } from './lib/local-browser.ts';
import { findDevServerDatabase, removeDevSession, stateDirectory, writeDevSession } from './lib/local-d1.ts';
import { startSites } from './lib/site-server.ts';
import { PROJECT_ROOT, spawnWrangler } from './lib/wrangler.ts';
import { DEV_REQUEST_STATE_SECRET } from './lib/dev-secrets.ts';

const DEFAULT_PORT = '8787';

/** The value of `--name <v>` or `--name=<v>` in `args`, if present. */
function optionValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i]!.startsWith(`${name}=`)) return args[i]!.slice(name.length + 1);
  }
  return undefined;
}

const has = (args: readonly string[], name: string) => args.some((arg) => arg === name || arg.startsWith(`${name}=`));

const argv = process.argv.slice(2);
const verbose = argv.includes('--verbose') || ['1', 'true'].includes(process.env.RECON_VERBOSE ?? '');
const extra = argv.filter((arg) => arg !== '--verbose');
if (has(extra, '--remote') || extra.includes('-r')) {
  console.error('npm run dev is for local development (seeded local D1); run `wrangler dev --remote` directly for remote.');
  process.exit(2);
}
const persistTo = optionValue(extra, '--persist-to');
if (has(extra, '--persist-to') && (!persistTo || persistTo.startsWith('-'))) {
  console.error('--persist-to needs a directory.');
  process.exit(2);
}

const portValue = optionValue(extra, '--port') ?? DEFAULT_PORT;
const ip = optionValue(extra, '--ip');
const base = `http://${ip && ip !== '0.0.0.0' && ip !== '::' ? ip : 'localhost'}:${portValue}`;
// wrangler runs in the project root and resolves --persist-to there.
const stateDir = stateDirectory(persistTo, PROJECT_ROOT);

try {
  await seedLocalDatabase({ persistTo, quiet: !verbose });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
console.log(`Local D1 ready (migrations applied, demo organizations acme and globex). Starting the Worker on ${base}...`);

// The demo market's sites on loopback, one port each, so that a site read works offline: the Worker
// fetches their pages through SITE_ORIGIN_OVERRIDES, while every URL it stores stays the domain's.
// A user who passes their own SITE_ORIGIN_OVERRIDES gets only theirs.
const ownOverrides = extra.some((arg) => /^(--var=)?SITE_ORIGIN_OVERRIDES:/.test(arg));
const sites = ownOverrides ? undefined : await startSites(demoSites(path.join(PROJECT_ROOT, DEMO_KNOWLEDGE_BASE)));
const siteOverrides = sites ? ['--var', `SITE_ORIGIN_OVERRIDES:${sites.overrides}`] : [];
if (sites && verbose) console.log(`Demo sites on loopback (SITE_ORIGIN_OVERRIDES): ${sites.overrides.replaceAll(',', ', ')}`);

// Pages only a browser reads are rendered by the BROWSER binding, which wrangler dev runs on Debian's
// Chromium, offline. Without Chromium the Worker still starts; site reads then report those pages as
// needing a browser.
try {
  ensureLocalBrowser();
} catch (error) {
  console.error(`Warning: ${error instanceof Error ? error.message : error}`);
}

const port = has(extra, '--port') ? [] : ['--port', DEFAULT_PORT];
// Quiet: wrangler prints only warnings and errors (its banner, bindings table, "Ready on" and one
// line per request are info; the Worker's console.log access log is log level; console.error stays).
const logLevel = verbose || has(extra, '--log-level') ? [] : ['--log-level', 'warn'];
// Local development only: watch webhooks may go to http://localhost, 127.0.0.1 and [::1] too, and
// sources may be added from pages there (wrangler.toml leaves both unset, so a deployment allows
// only public addresses).
const localWebhooks = ['--var', 'WEBHOOK_ALLOW_LOCAL_HTTP:true', '--var', 'SOURCES_ALLOW_LOCAL_HTTP:true'];
// Local development only: a fixed secret signing the state of questions asked in MCP clients
// (src/mcp/questions.ts); a deployment sets its own with `wrangler secret put` (docs/deploy.md).
const requestStateSecret = extra.some((arg) => /^(--var=)?MCP_REQUEST_STATE_SECRET:/.test(arg)) ? [] : ['--var', `MCP_REQUEST_STATE_SECRET:${DEV_REQUEST_STATE_SECRET}`];
// Verbose: the Worker's access log line for every request (a deployment samples successful ones).
const everyRequestLogged = verbose ? ['--var', 'ACCESS_LOG_SAMPLE_RATE:1'] : [];
const child = spawnWrangler(['dev', ...port, ...logLevel, ...localWebhooks, ...requestStateSecret, ...everyRequestLogged, ...siteOverrides, ...extra], verbose ? 'inherit' : ['inherit', 'pipe', 'pipe'], {
  // Miniflare otherwise fetches a sample `Request.cf` from workers.cloudflare.com at every start,
  // which offline prints an ENOTFOUND stack trace; the placeholder it falls back to is all local
  // development needs.
  CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? 'false',
});
if (!verbose) {
  passThrough(child.stdout!, process.stdout);
  passThrough(child.stderr!, process.stderr);
}

// Ctrl-C in a terminal reaches wrangler too (same process group); a signal sent only to this
// process (e.g. by a process manager) is passed on, and we exit when wrangler does.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (error) => {
  console.error(`Could not start wrangler dev: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  removeDevSession(stateDir, process.pid);
  process.exit(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1));
});

// The Worker listens before the demo market is in; "ready" is said only once it is, so a first
// research or gtm-audit cites sources.
waitUntilServing(base)
  .then(async () => {
    await announceSession();
    console.log('Loading demo data into acme...');
    return loadDemoKnowledgeBase(base);
  })
  .then((result) => {
    if (result.failed > 0) console.error(`${result.failed} lines of the demo data failed to load; see --verbose.`);
    console.log(ready(result));
  })
  .catch((error: unknown) =>
    console.error(`The Worker runs on ${base}, but the demo data could not be loaded: ${error instanceof Error ? error.message : error}`),
  );

/**
 * Writes the session file once the server answers for the database through wrangler's Local
 * Explorer (it is off with X_LOCAL_EXPLORER=false: then no file, and `npm run keys` uses the
 * database file, retrying while it is locked). Nothing to say either way, nor when the file cannot
 * be written.
 */
async function announceSession(): Promise<void> {
  try {
    await writeDevSession(stateDir, { url: base, pid: process.pid });
    if (await findDevServerDatabase(stateDir)) return;
  } catch {
    // Could not write it: the same as no Local Explorer.
  }
  removeDevSession(stateDir, process.pid);
}

/** The announcement: where Recon is, the demo keys, and a first request that cites sources. */
function ready(result: { imported: number; updated: number; unchanged: number }): string {
  return `
Recon is ready on ${base} (demo data loaded into acme: ${result.imported} new, ${result.updated} updated, ${result.unchanged} unchanged)

  REST ${base}/api/v1    MCP ${base}/api/mcp    Dashboard ${base}/dashboard (sign up for your own organization)

  Demo keys (local only, every scope):
    acme    ${ACME_DEMO_KEY}   sales profile finished
    globex  ${GLOBEX_DEMO_KEY}   profile not finished: commands answer 428

  Try:
    curl -X POST ${base}/api/v1/commands/research \\
      -H "Authorization: Bearer ${ACME_DEMO_KEY}" \\
      -H 'Content-Type: application/json' -d '{"topic": "Acme Analytics pricing"}'
${sites ? siteReadHint() : ''}
${verbose ? '' : 'Requests are not logged; errors are. For every log line: npm run dev -- --verbose. '}Stop with Ctrl-C.`;
}

/** How to try a site read of a demo site, and to change one of its pages so the next read sees a change. */
function siteReadHint(): string {
  const globex = sites!.sites['globex.com']!;
  return `
  Read a competitor's site (the demo market's ${Object.keys(sites!.sites).length} sites are served on loopback):
    curl -X POST ${base}/api/v1/oms/sites -H "Authorization: Bearer ${ACME_DEMO_KEY}" -H 'Content-Type: application/json' -d '{"domain": "globex.com"}'
    then change its price and read again: curl -s ${globex.origin}/pricing | sed 's/\\$49 per seat/\\$59 per seat/' | curl -X PUT '${globex.origin}/__site/pages?path=/pricing' --data-binary @-
`;
}

/**
 * Copies wrangler's output line by line, leaving out source-map warnings (about the bundles of
 * dependencies, never about our code, and nothing a user can act on). Everything else at warning
 * level or above is shown.
 */
function passThrough(from: Readable, to: Writable): void {
  createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => {
    if (/source ?map/i.test(line)) return;
    to.write(`${line}\n`);
  });
}
