/**
 * `npm run db:local [-- --persist-to <dir>]`: prepares the LOCAL D1 for development by applying the
 * migrations it lacks (migrations/, `wrangler d1 migrations apply DB --local`; a database made before
 * migrations existed is upgraded in place with its data) and then the demo data
 * (scripts/seed/demo.sql, idempotent). Running this again is safe. It never touches a deployed database: `--remote` (or any other argument)
 * is refused. `npm run dev` and the e2e tests call `seedLocalDatabase` directly.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyLocalMigrations, type LocalDatabase } from './lib/local-migrations.ts';
import { PROJECT_ROOT, runWrangler } from './lib/wrangler.ts';

/** The demo organizations, keys and profiles; applied after the migrations. */
export const DEMO_SEED_FILE = 'scripts/seed/demo.sql';

/** `quiet` keeps wrangler's output unless it fails (`npm run dev` without --verbose, and the tests). */
export type SeedOptions = LocalDatabase;

/** Migrates the local D1 (binding DB) and applies the demo seed; rejects if wrangler fails. */
export async function seedLocalDatabase(options: SeedOptions = {}): Promise<void> {
  await applyLocalMigrations(options);
  const persist = options.persistTo ? ['--persist-to', path.resolve(options.persistTo)] : [];
  const args = ['d1', 'execute', 'DB', '--local', ...persist, '--file', path.join(PROJECT_ROOT, DEMO_SEED_FILE)];
  await runWrangler(args, { quiet: options.quiet });
}

/** The demo market (scripts/seed/knowledge-base/), loaded into the acme organization. */
export const DEMO_KNOWLEDGE_BASE = 'scripts/seed/knowledge-base/demo.ndjson';
export const ACME_DEMO_KEY = 'rk_test_acme_0000000000000000000000000000';
/** The other demo organization's key: its sales profile is not finished, so commands answer 428. */
export const GLOBEX_DEMO_KEY = 'rk_test_globex_00000000000000000000000000';

/**
 * Loads the demo knowledge base into acme through the running Worker's own import endpoint, so it
 * is split and indexed exactly as any organization's import is. Idempotent: a second load reports
 * every line unchanged.
 */
export async function loadDemoKnowledgeBase(baseUrl: string): Promise<{ imported: number; updated: number; unchanged: number; failed: number }> {
  const body = await readFile(path.join(PROJECT_ROOT, DEMO_KNOWLEDGE_BASE));
  const response = await fetch(`${baseUrl}/api/v1/oms/objects/import`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ACME_DEMO_KEY}`, 'Content-Type': 'application/x-ndjson' },
    body,
  });
  if (!response.ok) throw new Error(`Loading the demo knowledge base failed: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as { imported: number; updated: number; unchanged: number; failed: number };
}

/** Resolves once GET /healthz answers, or rejects after `timeoutMs`. */
export async function waitUntilServing(baseUrl: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${baseUrl} did not start within ${timeoutMs / 1000} s`);
}

const USAGE = `Usage: npm run db:local [-- --persist-to <dir>]

Applies the migrations (migrations/) and scripts/seed/demo.sql to the LOCAL D1 database (binding DB).
  --persist-to <dir>  local state directory, as for wrangler (default: .wrangler/state)
This command never touches a deployed database; there is no --remote.`;

/** Reads the command line; the only option is --persist-to. Exits 2 on anything else. */
function parseSeedArgs(args: readonly string[]): SeedOptions {
  const options: SeedOptions = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (arg === '--remote') {
      fail('Refusing --remote: the seed holds demo keys and is for the LOCAL database only.');
    }
    if (arg === '--persist-to' || arg.startsWith('--persist-to=')) {
      const dir = arg === '--persist-to' ? args[++i] : arg.slice('--persist-to='.length);
      if (!dir || dir.startsWith('-')) fail('--persist-to needs a directory.');
      if (options.persistTo !== undefined) fail('--persist-to given twice.');
      options.persistTo = dir;
    } else {
      fail(`Unexpected argument "${arg}".`);
    }
  }
  return options;
}

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parseSeedArgs(process.argv.slice(2));
  try {
    await seedLocalDatabase(options);
    console.log(`Local D1 seeded: demo organizations acme (finished profile) and globex (unfinished).`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
