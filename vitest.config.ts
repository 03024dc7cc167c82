import { readFileSync } from 'node:fs';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig, type Plugin } from 'vitest/config';
import E2eAroundSequencer from './test/e2e/sequencer.ts';
import { freePort } from './scripts/lib/free-port.ts';
import { ensureLocalBrowser } from './scripts/lib/local-browser.ts';
import { DEV_REQUEST_STATE_SECRET } from './scripts/lib/dev-secrets.ts';
import { Worker } from 'node:worker_threads';
import { OFFLINE_DOMAIN } from './test/sites/fixture-sites.ts';

// env.BROWSER (Browser Rendering) in the Workers pool is Miniflare's, run by this process: it must
// start Debian's Chromium, offline, before the pool does. A fresh machine gets it installed here (as
// root, from Debian's packages); elsewhere it throws saying "apt-get install chromium".
ensureLocalBrowser(undefined, { install: true });

// Tests build D1 exactly as deploys and `npm run dev` do: the migrations in order. schema.sql (the
// readable whole) is read too, for the test that the migrations yield exactly its schema.
const migrations = await readD1Migrations({ projectPath: import.meta.dirname, migrationsDir: 'migrations' });
const schemaSql = await readD1Migrations({ projectPath: import.meta.dirname, migrationsDir: '.', migrationsPattern: 'schema.sql' });

/**
 * The Workers pool sends every module to workerd as one WebSocket message, and workerd refuses a
 * message over 1 MiB ("WebSocket protocol error 1009, Message is too large"), which ends that pool
 * worker and fails or drops the tests it was running. What makes a dependency's module that big is
 * the source map Vite inlines into it (with the whole source again, in base64): the OAuth provider,
 * the MCP SDK's client and agents each passed 1 MiB with it. Dependencies are sent without one (an
 * empty map is Vite's and Vitest's sign for "none"); our own code keeps its maps for stack traces.
 */
/**
 * The sites that site reads read in tests (test/sites/fixture-sites.ts), each on its own loopback
 * port, started here rather than in a globalSetup because the Worker's SITE_ORIGIN_OVERRIDES
 * binding must name their ports and bindings are fixed when the config is. They run in a thread of
 * their own (test/global-setup/site-thread.ts: their request log's times are not held up by Vitest's
 * work), unref'd so they never keep vitest alive. OFFLINE_DOMAIN maps to a port nothing listens on.
 * Tests find them with test/helpers/sites.ts.
 */
const siteThread = new Worker(new URL('./test/global-setup/site-thread.ts', import.meta.url));
const sites = await new Promise<{ overrides: string; origins: Record<string, string> }>((resolve, reject) => {
  siteThread.once('message', resolve);
  siteThread.once('error', reject);
});
siteThread.unref();
const siteOverrides = `${sites.overrides},${OFFLINE_DOMAIN}=http://127.0.0.1:${await freePort()}`;
const siteControls = sites.origins;

const noDependencySourceMaps: Plugin = {
  name: 'recon:no-dependency-source-maps',
  enforce: 'post',
  transform(code, id) {
    if (!id.includes('/node_modules/')) return undefined;
    // Vite keeps a plugin's map only when the code changed: one added newline.
    return { code: `${code}\n`, map: { mappings: '' } };
  },
};

export default defineConfig({
  test: {
    // Request logs are noise when a test passes and evidence when it fails.
    silent: 'passed-only',
    // Workers-pool files spend most of their time starting their runtime, not on CPU: three at a
    // time on two cores finished about 15% sooner than two.
    maxWorkers: 3,
    // The two longest e2e files first, beside the Workers-pool files; the other e2e files after (see the sequencer).
    sequence: { sequencer: E2eAroundSequencer },
    projects: [
      {
        plugins: [
          noDependencySourceMaps,
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              // Empty databases for test/migrations/: one built from the migrations, one from schema.sql,
              // one upgraded with data in it; and one for passage blocks past 2^53 (test/research).
              d1Databases: { MIGRATIONS_DB: 'test-migrations', SCHEMA_SQL_DB: 'test-schema-sql', UPGRADE_DB: 'test-upgrade', HIGH_BLOCKS_DB: 'test-high-blocks' },
              bindings: {
                TEST_MIGRATIONS: migrations,
                TEST_SCHEMA_SQL: schemaSql,
                // Workers-pool tests call https://recon.test; the local development hosts stay allowed.
                MCP_ALLOWED_HOSTS: 'localhost,127.0.0.1,[::1],recon.test',
                MCP_ALLOWED_ORIGINS: 'http://localhost,http://127.0.0.1,http://[::1],https://recon.test',
                // Questions asked in MCP clients (src/mcp/questions.ts): a fixed development secret, as `npm run dev`
                // passes; a deployment sets its own (docs/deploy.md).
                MCP_REQUEST_STATE_SECRET: DEV_REQUEST_STATE_SECRET,
                // Every request logged, so tests that read the access log see each line.
                ACCESS_LOG_SAMPLE_RATE: '1',
                // Local development: watch webhooks may also go to http://localhost (as under `npm run dev`).
                WEBHOOK_ALLOW_LOCAL_HTTP: 'true',
                // Sources may be added from http://127.0.0.1 too: the fixture pages' server (below) listens there.
                SOURCES_ALLOW_LOCAL_HTTP: 'true',
                // Site reads go to the fixture sites above, with no delay between requests but a site's Crawl-delay.
                SITE_ORIGIN_OVERRIDES: siteOverrides,
                SITE_READ_MIN_DELAY_MS: '0',
                // A page's deadline (10 s in production) lowered so that the slow site's pages that never
                // answer, or answer past it, time out in seconds (test/sites/read/slow.test.ts); the
                // company site's slowest page (1.5 s) stays well inside it.
                SITE_READ_PAGE_TIMEOUT_MS: '4000',
                // The demo market, for tests that need a realistic knowledge base.
                TEST_KNOWLEDGE_BASE: readFileSync(new URL('./scripts/seed/knowledge-base/demo.ndjson', import.meta.url), 'utf8'),
              },
            },
          }),
        ],
        test: {
          name: 'workers',
          // Files share their runtime (and so D1, Durable Objects and module state) with the files
          // run after them on the same worker: starting a runtime per file was most of the suite's
          // time (146 files: about 9 minutes against under 1). Every test makes its own
          // organizations, keys and ids, and never assumes an empty table.
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/reliability/**', 'test/browser/**'],
          // The schema first; then every file ends the Durable Object work it started (see quiet-objects.ts).
          setupFiles: ['./test/setup/apply-schema.ts', './test/setup/quiet-objects.ts'],
          // Three files share two cores: a file's first test also loads its modules into a fresh
          // runtime, which took up to 14 s on a loaded machine. Timeouts bound hangs; they time nothing.
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // Web pages on loopback for sources added by URL; no test reaches anything but loopback.
          globalSetup: ['./test/global-setup/fixture-pages.ts'],
          // The fixture sites' control origins by domain (test/helpers/sites.ts).
          provide: { fixtureSites: siteControls },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file has its own server (a free port, its own copy of the seeded state), so files
          // run alongside each other and alongside the workers project's, within maxWorkers; they
          // spend most of their time waiting (on wrangler, on a retry alarm, on a cache's bound).
          // Made with fileParallelism: false, they ran one by one after all the other files.
          globalSetup: ['./test/e2e/seeded-state.ts'],
          // One Node process runs file after file, so wrangler (a large import) is loaded once per
          // process rather than once per file; every file still starts its own server.
          isolate: false,
        },
      },
    ],
  },
});
