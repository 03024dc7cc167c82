/**
 * The e2e suites' server: the real Worker under wrangler's local runtime (unstable_startWorker),
 * on a free port, with its own temporary state directory that was seeded first exactly as
 * `npm run db:local` seeds (migrations + demo data). The keys CLI can be pointed at the same
 * directory (`--persist-to`) to change what the running server sees: like `npm run dev`, the server
 * leaves a session file there, so the CLI works through it rather than opening the database file
 * beside it (scripts/lib/local-d1.ts).
 *
 * In the e2e project the seeding is done once per run (test/e2e/seeded-state.ts) and each server
 * starts on its own copy of it; elsewhere (the browser tests), and with `beforeSeed`, each server
 * seeds its own directory.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { unstable_startWorker } from 'wrangler';
import { removeDevSession, writeDevSession } from '../../scripts/lib/local-d1.ts';
import { PROJECT_ROOT } from '../../scripts/lib/wrangler.ts';
import { DEMO_KNOWLEDGE_BASE, loadDemoKnowledgeBase, seedLocalDatabase } from '../../scripts/seed.ts';
import { demoSites } from '../../scripts/lib/demo-sites.ts';
import { DEV_REQUEST_STATE_SECRET } from '../../scripts/lib/dev-secrets.ts';
import { startSites } from '../../scripts/lib/site-server.ts';
import { FAILED, READY_SUFFIX, type SeededState } from './seeded-state.ts';

export interface DevServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The local state directory the server and the seed share (pass it to the keys CLI). */
  persistTo: string;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  /** Runs on the empty state directory before the seed, e.g. to make a database the way an older Recon did. */
  beforeSeed?: (persistTo: string) => Promise<void>;
  /** Load the demo knowledge base into acme, as `npm run dev` does (default true). */
  knowledgeBase?: boolean;
  /**
   * Vars set on top of wrangler.toml's, as `npm run dev` passes `--var` (e.g. WEBHOOK_ALLOW_LOCAL_HTTP).
   * Without SITE_ORIGIN_OVERRIDES here, the server reads the demo market's sites on loopback, as
   * `npm run dev` does, and no other site (site reads on onboarding and before watches never leave
   * the machine), with no delay between requests (SITE_READ_MIN_DELAY_MS 0, as the Workers tests):
   * a watch's first execution reads its company's site first.
   */
  vars?: Record<string, string>;
}

export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const persistTo = await mkdtemp(path.join(tmpdir(), 'recon-e2e-'));
  const knowledgeBase = options.knowledgeBase !== false;
  let sites: Awaited<ReturnType<typeof startSites>> | undefined;
  try {
    const seeded = options.beforeSeed ? undefined : await seededState(knowledgeBase ? 'knowledge-base' : 'seeded');
    if (seeded) {
      await cp(seeded, persistTo, { recursive: true });
    } else {
      await options.beforeSeed?.(persistTo);
      await seedLocalDatabase({ persistTo, quiet: true });
    }
    sites = options.vars?.SITE_ORIGIN_OVERRIDES === undefined ? await startSites(demoSites(path.join(PROJECT_ROOT, DEMO_KNOWLEDGE_BASE)), { unref: true }) : undefined;
    // As `npm run dev`: the development secret signing MCP questions' state.
    const vars = { MCP_REQUEST_STATE_SECRET: DEV_REQUEST_STATE_SECRET, ...(sites ? { SITE_ORIGIN_OVERRIDES: sites.overrides, SITE_READ_MIN_DELAY_MS: '0' } : {}), ...options.vars };
    const worker = await unstable_startWorker({
      config: path.join(PROJECT_ROOT, 'wrangler.toml'),
      bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: 'plain_text' as const, value }])),
      dev: {
        server: { hostname: '127.0.0.1', port: 0 },
        inspector: false,
        persist: persistTo,
        watch: false,
      },
    });
    await worker.ready;
    const url = (await worker.url).origin;
    await writeDevSession(persistTo, { url, pid: process.pid });
    if (knowledgeBase && !seeded) await loadDemoKnowledgeBase(url);
    return {
      url,
      persistTo,
      async stop() {
        removeDevSession(persistTo, process.pid);
        await worker.dispose();
        await sites?.close();
        await rm(persistTo, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await sites?.close();
    await rm(persistTo, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The directory of the run's seeded state `name`, once it is made; undefined where no run made
 * one (outside the e2e project).
 */
async function seededState(name: SeededState): Promise<string | undefined> {
  const root = inject('e2eSeededStates');
  if (!root) return undefined;
  const state = path.join(root, name);
  const deadline = Date.now() + 300_000;
  while (!existsSync(state + READY_SUFFIX)) {
    if (existsSync(path.join(root, FAILED))) throw new Error(`Making the seeded state failed:\n${await readFile(path.join(root, FAILED), 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`The seeded state ${state} was not ready after 300 s.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return state;
}
