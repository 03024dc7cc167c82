/**
 * One way to run wrangler and keep what it said, for scripts that act on a Cloudflare account
 * (`npm run deploy`): every call goes through a `WranglerRunner`, so a test can put a fake
 * `wrangler` first on PATH and see each call.
 *
 * The wrangler run is the first `wrangler` on PATH (`npm run` puts the project's own first), else
 * the project's. Its PATH has node_modules/.bin first, so it runs on the Node 22 of the `node`
 * devDependency. Standard input is never wrangler's: it runs without prompts (a confirmation, a
 * login in a browser), as it does in CI.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, WRANGLER, wranglerEnv } from './wrangler.ts';

/** What one wrangler command did. */
export interface WranglerResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `wrangler <args>`, with `env` added to ours; never rejects for a failed command (see `code`).
 * With `echo`, what wrangler prints also goes to our standard error as it comes (for the long,
 * changing steps); it is kept and returned either way.
 */
export type WranglerRunner = (args: readonly string[], options?: { env?: NodeJS.ProcessEnv; echo?: boolean }) => Promise<WranglerResult>;

/** The first executable `wrangler` on PATH, else the project's. */
export function wranglerExecutable(searchPath = process.env.PATH ?? ''): string {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, process.platform === 'win32' ? 'wrangler.cmd' : 'wrangler');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return WRANGLER;
}

/** The runner of real commands. */
export function wranglerRunner(): WranglerRunner {
  const executable = wranglerExecutable();
  return (args, { env = {}, echo = false } = {}) =>
    new Promise((resolve, reject) => {
      // No usage metrics from a deploy script (and none attempted offline); a caller's env may still say otherwise.
      const child = spawn(executable, args, { cwd: PROJECT_ROOT, env: wranglerEnv({ WRANGLER_SEND_METRICS: 'false', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (echo) process.stderr.write(chunk);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (echo) process.stderr.write(chunk);
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });
}

/** wrangler's output without terminal colours. */
export function plain(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}

/**
 * The one line that says why a wrangler command failed: its `[ERROR]` line (wrangler prints
 * `✘ [ERROR] <message>`), else the first line it printed, else its exit code.
 */
export function failureReason(result: WranglerResult): string {
  const lines = plain(`${result.stderr}\n${result.stdout}`)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('🪵') && !/^⛅️|^─+$/.test(line));
  const error = lines.find((line) => line.includes('[ERROR]'));
  const reason = (error ?? lines[0] ?? `exit code ${result.code}`).replace(/^✘\s*\[ERROR\]\s*/, '');
  return reason.length > 300 ? `${reason.slice(0, 297)}...` : reason;
}
