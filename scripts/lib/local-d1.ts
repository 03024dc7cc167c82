/**
 * The local D1 database (binding DB) for the operator scripts, reached the one way that cannot
 * collide with a running dev server.
 *
 * Local D1 is one SQLite file under the state directory (default .wrangler/state). `wrangler dev`
 * keeps it open; `wrangler d1 execute --local` opens it a second time from another process, and
 * neither side waits for the other's lock: the script fails with `database is locked:
 * SQLITE_BUSY`, and requests the server was serving at that moment fail with a 500 (seen as
 * `D1_ERROR: Failed to get session commit token`). So when a dev server serves the same state, the
 * statements go through that server instead: wrangler's Local Explorer API
 * (`/cdn-cgi/local/explorer/api`, on by default in `wrangler dev`, nothing of ours) runs them on
 * the server's own D1 object, the one opener of the file. `npm run dev` (scripts/dev.ts) and the
 * e2e server say where they serve in a session file in the state directory (DEV_SESSION_FILE);
 * without one, or when its server does not answer, the statements go through `wrangler d1 execute`
 * as before, retried a few times while the file is locked (a `wrangler dev` started by hand keeps
 * no session file).
 *
 * Statements run as one batch, in one transaction, either way: a retry after SQLITE_BUSY repeats
 * nothing that was written.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { captureWrangler, PROJECT_ROOT } from './wrangler.ts';

/** A row as `wrangler d1 execute --json` answers it. */
export type Row = Record<string, string | number | null>;

/** The session file a local dev server keeps in its state directory while it serves. */
export const DEV_SESSION_FILE = 'recon-dev-session.json';

/** wrangler's Local Explorer API, on every `wrangler dev` origin. */
export const EXPLORER_API = '/cdn-cgi/local/explorer/api';

/**
 * Sent with every call to the Local Explorer: answer for this server alone (no gathering from other
 * dev sessions on the machine, which is what Miniflare's sessions send each other), and so also no
 * usage event about the call, which offline ends in a resolver error printed by the dev server.
 */
const THIS_SERVER_ONLY = { 'X-Miniflare-Explorer-No-Aggregate': 'true' } as const;

/** What the session file holds: where the server answers, and the process that keeps it. */
export interface DevSession {
  url: string;
  pid: number;
}

/** The state directory: `persistTo` as given to wrangler (relative to `base`), else wrangler's default. */
export function stateDirectory(persistTo: string | undefined, base = process.cwd()): string {
  return persistTo ? path.resolve(base, persistTo) : path.join(PROJECT_ROOT, '.wrangler', 'state');
}

/**
 * Records that a dev server for `stateDir` answers at `url`, kept by process `pid`: readable by
 * this user only, written whole (a reader never sees half a file).
 */
export async function writeDevSession(stateDir: string, session: DevSession): Promise<void> {
  const file = path.join(stateDir, DEV_SESSION_FILE);
  const partial = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(partial, `${JSON.stringify(session)}\n`, { mode: 0o600 });
  await rename(partial, file);
}

/** Removes the session file if it is still `pid`'s (a later server's file stays); synchronous, for exit handlers. */
export function removeDevSession(stateDir: string, pid: number): void {
  if (readDevSession(stateDir)?.pid === pid) rmSync(path.join(stateDir, DEV_SESSION_FILE), { force: true });
}

/** The session file's content, or null when there is none or it is not one. */
export function readDevSession(stateDir: string): DevSession | null {
  try {
    const value = JSON.parse(readFileSync(path.join(stateDir, DEV_SESSION_FILE), 'utf8')) as Partial<DevSession>;
    return typeof value.url === 'string' && Number.isInteger(value.pid) ? { url: value.url, pid: value.pid! } : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface ExplorerEnvelope<T> {
  success?: boolean;
  errors?: { message?: string }[];
  result?: T;
}

/**
 * The Local Explorer's address for the D1 binding DB of the dev server recorded in `stateDir`, or
 * null when no server is recorded, its process is gone, or it does not answer as a dev server with
 * a DB binding (then the file is the way).
 */
export async function findDevServerDatabase(stateDir: string): Promise<string | null> {
  const session = readDevSession(stateDir);
  if (!session || !alive(session.pid)) return null;
  try {
    // Generous: a server that is alive but busy must be waited for, not sidestepped by opening its file.
    const response = await fetch(`${session.url}${EXPLORER_API}/d1/database`, { headers: THIS_SERVER_ONLY, signal: AbortSignal.timeout(30_000) });
    if (!response.ok) return null;
    const body = (await response.json()) as ExplorerEnvelope<{ name?: string; uuid?: string }[]>;
    const database = body.result?.find((db) => db.name === 'DB');
    return database?.uuid ? `${session.url}${EXPLORER_API}/d1/database/${encodeURIComponent(database.uuid)}/raw` : null;
  } catch {
    return null;
  }
}

/** Runs `statements` (one transaction) through the dev server's Local Explorer; answers the last one's rows. */
async function executeThroughServer(rawUrl: string, statements: readonly string[]): Promise<Row[]> {
  const via = `the dev server at ${new URL(rawUrl).origin}`;
  const response = await fetch(rawUrl, {
    method: 'POST',
    headers: { ...THIS_SERVER_ONLY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ batch: statements.map((sql) => ({ sql })) }),
  });
  const text = await response.text();
  let body: ExplorerEnvelope<{ results?: { columns: string[]; rows: (string | number | null)[][] } }[]>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new LocalD1Error(`answered HTTP ${response.status}: ${text.trim().slice(0, 500)}`, via);
  }
  if (!response.ok || !body.success || !Array.isArray(body.result)) {
    throw new LocalD1Error(body.errors?.map((error) => error.message).join('; ') || `answered HTTP ${response.status}`, via);
  }
  const last = body.result.at(-1)?.results;
  return last ? last.rows.map((row) => Object.fromEntries(last.columns.map((column, i) => [column, row[i] ?? null]))) : [];
}

export type D1Target = { remote: true } | { remote: false; persistTo?: string };

const WRANGLER_D1 = 'wrangler d1 execute';

/** Runs `statements` (one batch) with `wrangler d1 execute ... --json`; answers the last one's rows. */
async function executeWithWrangler(target: D1Target, statements: readonly string[]): Promise<Row[]> {
  const where = target.remote
    ? ['--remote']
    : ['--local', ...(target.persistTo ? ['--persist-to', path.resolve(target.persistTo)] : [])];
  const { code, stdout } = await captureWrangler(['d1', 'execute', 'DB', ...where, '--command', statements.join('\n'), '--json']);
  let output: unknown;
  try {
    output = JSON.parse(stdout);
  } catch {
    throw new LocalD1Error(`wrangler d1 execute failed (exit code ${code})${stdout.trim() ? `:\n${stdout.trim()}` : ''}`, WRANGLER_D1, false);
  }
  // On failure wrangler prints {"error":{"text":...}}; on success one {results,success,meta} per statement.
  if (code !== 0 || !Array.isArray(output)) {
    throw new LocalD1Error((output as { error?: { text?: string } } | null)?.error?.text ?? stdout.trim(), WRANGLER_D1);
  }
  const last = output.at(-1) as { results?: Row[] } | undefined;
  return last?.results ?? [];
}

/** A failed batch; `message` is what the database (or the dev server) said. */
export class LocalD1Error extends Error {
  /** What ran the batch, for the operator: `wrangler d1 execute` or the dev server at its URL. */
  readonly via: string;
  /** False when the message is already the whole sentence to show. */
  readonly fromDatabase: boolean;

  constructor(message: string, via: string, fromDatabase = true) {
    super(message);
    this.via = via;
    this.fromDatabase = fromDatabase;
  }

  /** The file was locked by another process: nothing was written, and the same batch may run again. */
  get busy(): boolean {
    return /SQLITE_BUSY|database is locked/.test(this.message);
  }
}

/** Waits before each retry of a batch that met a locked file: bounded, about 6 s in all. */
export const BUSY_RETRY_DELAYS_MS = [100, 200, 400, 800, 1_600, 3_200] as const;

/**
 * Calls `attempt` until it does not fail with a busy LocalD1Error, waiting `delays` (plus up to
 * half again, so two waiting scripts do not retry in step) between tries; the last error is thrown.
 */
export async function retryWhileBusy<T>(
  attempt: () => Promise<T>,
  delays: readonly number[] = BUSY_RETRY_DELAYS_MS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof LocalD1Error && error.busy) || i >= delays.length) throw error;
      await sleep(delays[i]! * (1 + Math.random() / 2));
    }
  }
}

/**
 * Runs `statements` as one batch on D1 (binding DB) and answers the rows of the last one: the
 * deployed database with `remote`; else through the dev server serving the same state, if one
 * answers, or else the local file, retried while it is locked.
 */
export async function executeD1(target: D1Target, statements: readonly string[]): Promise<Row[]> {
  if (!target.remote) {
    const rawUrl = await findDevServerDatabase(stateDirectory(target.persistTo));
    if (rawUrl) return retryWhileBusy(() => executeThroughServer(rawUrl, statements));
  }
  return retryWhileBusy(() => executeWithWrangler(target, statements));
}
