/**
 * The pieces of `npm run bench` that build and serve the Worker, shared with the load test
 * (test/reliability/load/): the bundle `wrangler deploy --dry-run` makes, and Miniflare options
 * that serve it as wrangler would (bindings and vars from the wrangler.toml given) on its own
 * workerd socket (`unsafeDirectSockets`: no proxy and no entry Worker in front).
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { PROJECT_ROOT, wranglerEnv, WRANGLER } from '../scripts/lib/wrangler.ts';

export const BENCH_DIR = path.join(PROJECT_ROOT, 'bench');

export function wrangler(args: string[]): Promise<void> {
  return promisify(execFile)(WRANGLER, args, { cwd: PROJECT_ROOT, env: wranglerEnv({ CLOUDFLARE_CF_FETCH_ENABLED: 'false' }) }).then(
    () => undefined,
    (error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`wrangler ${args.join(' ')} failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    },
  );
}

/** The bundle `wrangler deploy --dry-run` makes, as deployed; returns its entry module. */
export async function build(outdir: string, extra: string[]): Promise<string> {
  await wrangler(['deploy', '--dry-run', '--outdir', outdir, ...extra]);
  const modules = readdirSync(outdir).filter((file) => file.endsWith('.js'));
  if (modules.length !== 1) throw new Error(`wrangler built ${modules.length} modules in ${outdir}, expected one`);
  return path.join(outdir, modules[0]!);
}

/** One ES module Worker from its built entry (module names are relative to its directory). */
export function source(scriptPath: string) {
  return { modules: true, scriptPath, rootPath: path.dirname(scriptPath) };
}

/** Loopback, any free port. */
export const DIRECT_SOCKET = [{ host: '127.0.0.1', port: 0 }];

/**
 * Miniflare options for a Recon bundle named `name`, with the bindings and vars of `config` (a
 * wrangler.toml) taken the way wrangler takes them, on its own loopback socket.
 */
export function reconWorker(config: string, name: string, scriptPath: string) {
  // The bundle is one ES module: wrangler's module rules (text, data, wasm imports) have nothing to match.
  const { modulesRules: _rules, ...workerOptions } = unstable_getMiniflareWorkerOptions(config).workerOptions;
  return { ...workerOptions, name, ...source(scriptPath), unsafeDirectSockets: DIRECT_SOCKET };
}

/** The compatibility date of `config`, for the baseline Workers served beside Recon. */
export function compatibilityDate(config: string): string | undefined {
  return unstable_getMiniflareWorkerOptions(config).workerOptions.compatibilityDate as string | undefined;
}
