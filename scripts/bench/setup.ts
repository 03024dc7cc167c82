/**
 * What the benchmarks share to set up the real Worker: a wrangler.toml whose per-key rate limits
 * are raised (the real ones would throttle a benchmark), organizations with keys made by the keys
 * CLI, exactly as an operator makes them, and the release of what a run holds.
 */
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { unstable_startWorker } from 'wrangler';
import { PROJECT_ROOT } from '../lib/wrangler.ts';

export const RAISED_LIMIT = 1_000_000;

/**
 * A copy of wrangler.toml in `dir` with `main` made absolute (or replaced by `main`, e.g. the
 * always-allow entry in bench/workers/) and every [[ratelimits]] limit raised.
 */
export async function benchConfig(dir: string, main?: string): Promise<string> {
  const original = await readFile(path.join(PROJECT_ROOT, 'wrangler.toml'), 'utf8');
  const blocks = original.match(/^\[\[ratelimits\]\]/gm)?.length ?? 0;
  let raised = 0;
  let entry = '';
  const config = original
    .replace(/^main\s*=\s*"([^"]+)"/m, (_, declared: string) => `main = ${JSON.stringify((entry = path.resolve(PROJECT_ROOT, main ?? declared)))}`)
    .replace(/(simple\s*=\s*\{\s*limit\s*=\s*)\d+/g, (_, head: string) => (raised++, `${head}${RAISED_LIMIT}`));
  if (raised !== blocks || entry === '') {
    throw new Error('Could not rewrite wrangler.toml for the bench (main or [[ratelimits]] limits not found).');
  }
  const file = path.join(dir, 'wrangler.toml');
  await writeFile(file, config);
  return file;
}

/** Creates an organization and its key with the keys CLI; returns the printed key. */
export async function createKey(slug: string, persistTo: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(PROJECT_ROOT, 'scripts', 'keys.ts'), 'create', '--org', slug, '--name', 'bench', '--persist-to', persistTo],
    { cwd: PROJECT_ROOT },
  );
  const key = /\brk_live_[A-Za-z0-9]{43}\b/.exec(stdout)?.[0];
  if (!key) throw new Error(`keys CLI printed no key:\n${stdout}`);
  return key;
}

type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;

/**
 * What one bench run holds: its Worker and its temporary directory (kept with `--keep`), released
 * by `cleanup()`, also on SIGINT and SIGTERM.
 */
export class BenchResources {
  tempDir: string | undefined;
  worker: Worker | undefined;
  private readonly keep: boolean;

  constructor(keep: boolean) {
    this.keep = keep;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void this.cleanup().finally(() => process.exit(130)));
  }

  async cleanup(): Promise<void> {
    if (this.worker) await this.worker.dispose().catch((error: unknown) => console.error('worker.dispose failed:', error));
    this.worker = undefined;
    if (this.tempDir && !this.keep) await rm(this.tempDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }).catch(() => undefined);
    else if (this.tempDir) console.log(`Kept ${this.tempDir} (--keep).`);
    this.tempDir = undefined;
  }
}
