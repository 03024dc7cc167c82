/**
 * Running the project's own wrangler (node_modules/.bin/wrangler) from the operator scripts
 * (seed, dev, keys) and the e2e tests: always from the project root, so wrangler.toml and the
 * default .wrangler/state are the project's, with node_modules/.bin first on PATH so wrangler runs
 * on the Node 22 that the `node` devDependency installs.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN_DIR = path.join(PROJECT_ROOT, 'node_modules', '.bin');
export const WRANGLER = path.join(BIN_DIR, process.platform === 'win32' ? 'wrangler.cmd' : 'wrangler');

/** The environment wrangler runs in: ours (plus `extra`), with the project's binaries first on PATH. */
export function wranglerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra, PATH: `${BIN_DIR}${path.delimiter}${process.env.PATH ?? ''}` };
}

/** Starts wrangler with `args` (and `env` added to ours); the caller decides what to do with the child. */
export function spawnWrangler(args: readonly string[], stdio: SpawnOptions['stdio'] = 'inherit', env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(WRANGLER, args, { cwd: PROJECT_ROOT, env: wranglerEnv(env), stdio });
}

/**
 * Runs wrangler; rejects unless it exits 0. Its output goes to ours, or with `quiet` is kept and
 * shown only in the error when it fails. Standard input is never wrangler's: it runs without
 * prompts (`d1 migrations apply` would otherwise ask to confirm in a terminal).
 */
export function runWrangler(args: readonly string[], options: { quiet?: boolean } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args, options.quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit']);
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve();
      const reason = signal ?? `exit code ${code}`;
      reject(new Error(`wrangler ${args.join(' ')} failed (${reason})${output ? `:\n${output.trim()}` : ''}`));
    });
  });
}

/** Runs wrangler and collects its standard output (stderr still goes to ours, so prompts and warnings show). */
export function captureWrangler(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args, ['inherit', 'pipe', 'inherit']);
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

/**
 * Runs `wrangler d1 execute ... --json` (args without --json) and returns the rows of each
 * statement; rejects with wrangler's output unless it exits 0.
 */
export function queryD1(args: readonly string[]): Promise<Record<string, unknown>[][]> {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler([...args, '--json'], ['ignore', 'pipe', 'pipe']);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) return reject(new Error(`wrangler ${args.join(' ')} failed (${signal ?? `exit code ${code}`}):\n${`${stdout}${stderr}`.trim()}`));
      try {
        resolve((JSON.parse(stdout) as { results: Record<string, unknown>[] }[]).map((result) => result.results));
      } catch {
        reject(new Error(`wrangler ${args.join(' ')} printed no JSON:\n${`${stdout}${stderr}`.trim()}`));
      }
    });
  });
}
