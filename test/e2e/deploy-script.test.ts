/**
 * `npm run deploy` (scripts/deploy.ts) against a fake wrangler first on PATH
 * (fixtures/fake-wrangler.ts: wrangler's documented answers, an account in a JSON file, every call
 * recorded). The script is run as `node scripts/deploy.ts`, which is what `npm run deploy` runs:
 * npm would put the project's real wrangler first on PATH.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, wranglerEnv } from '../../scripts/lib/wrangler.ts';
import type { FakeAccount } from './fixtures/fake-wrangler.ts';

const MIGRATIONS = readdirSync(path.join(PROJECT_ROOT, 'migrations')).filter((f) => f.endsWith('.sql')).sort();
const FAKE = path.join(import.meta.dirname, 'fixtures', 'fake-wrangler.ts');

let dir: string;
let outDir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'recon-deploy-test-'));
  outDir = path.join(dir, 'out');
  // The wrangler first on PATH: runs the fake on the project's Node 22 (wranglerEnv puts it first).
  writeFileSync(path.join(dir, 'wrangler'), `#!/bin/sh\nexec node ${JSON.stringify(FAKE)} "$@"\n`);
  chmodSync(path.join(dir, 'wrangler'), 0o755);
  writeFileSync(path.join(dir, 'calls.ndjson'), '');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function account(overrides: Partial<FakeAccount> = {}): void {
  const state: FakeAccount = { databases: [], namespaces: [], workers: {}, applied: {}, subdomain: 'example', ...overrides };
  writeFileSync(path.join(dir, 'account.json'), JSON.stringify(state));
}

const readAccount = () => JSON.parse(readFileSync(path.join(dir, 'account.json'), 'utf8')) as FakeAccount;

/** Every wrangler call of the run, in order. */
const calls = () =>
  readFileSync(path.join(dir, 'calls.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as string[]);

/** The calls that change the account: creations, migrations applied, secrets, deploys that are not --dry-run. */
const mutating = () =>
  calls().filter(
    (args) =>
      args.includes('create') ||
      args.includes('apply') ||
      args.includes('execute') ||
      (args[0] === 'secret' && args[1] !== 'list') ||
      (args[0] === 'deploy' && !args.includes('--dry-run')),
  );

async function runDeploy(...args: string[]): Promise<{ code: number; stdout: string }> {
  const env = wranglerEnv({
    FAKE_WRANGLER_STATE: path.join(dir, 'account.json'),
    FAKE_WRANGLER_CALLS: path.join(dir, 'calls.ndjson'),
  });
  // wranglerEnv puts node_modules/.bin first; the fake must come before it.
  env.PATH = `${dir}${path.delimiter}${env.PATH}`;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/deploy.ts', '--out-dir', outDir, ...args], { cwd: PROJECT_ROOT, env });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const line = (stdout: string, prefix: string) => stdout.split('\n').find((l) => l.startsWith(prefix)) ?? '';

describe('npm run deploy -- --dry-run', () => {
  it('on an empty account plans to create the database and the namespace, apply every migration and set both secrets, and changes nothing', async () => {
    account();
    const { code, stdout } = await runDeploy('--dry-run');
    expect(code, stdout).toBe(0);
    expect(line(stdout, 'D1 database "recon"')).toContain('missing: would create it (wrangler d1 create recon)');
    expect(line(stdout, 'KV namespace "recon-oauth-kv"')).toContain('missing: would create it (wrangler kv namespace create recon-oauth-kv)');
    expect(line(stdout, 'Migrations')).toContain(`would apply ${MIGRATIONS.length}: ${MIGRATIONS.join(', ')}`);
    expect(line(stdout, 'Secrets')).toContain('PAGE_TOKEN_SECRET, MCP_REQUEST_STATE_SECRET unset: would generate and set');
    expect(line(stdout, 'Build')).toContain(': ok');
    expect(line(stdout, 'MCP hosts')).toBe("MCP hosts (DEPLOYED_HOSTS): /api/mcp answers on recon.*.workers.dev (its workers.dev host, * the account's subdomain).");
    expect(line(stdout, 'Placement')).toContain('smart');
    expect(line(stdout, 'Deploy: would')).toContain('(once)');

    expect(mutating()).toEqual([]);
    expect(calls().filter((args) => args[0] === 'deploy')).toHaveLength(1);
    expect(readAccount()).toMatchObject({ databases: [], namespaces: [], workers: {} });
    expect(existsSync(outDir)).toBe(false);
  });

  it('with everything present creates nothing, lists only the pending migrations and sets only the unset secret', async () => {
    const uuid = '6f1c1d2e-0000-4000-8000-000000000001';
    account({
      databases: [{ uuid, name: 'recon' }],
      namespaces: [{ id: 'a'.repeat(32), title: 'recon-oauth-kv' }, { id: 'b'.repeat(32), title: 'OAUTH_KV' }],
      workers: { recon: { secrets: ['PAGE_TOKEN_SECRET', 'PARALLEL_API_KEY'], deploys: 1 } },
      applied: { [uuid]: MIGRATIONS.slice(0, -2) },
    });
    const { code, stdout } = await runDeploy('--dry-run');
    expect(code, stdout).toBe(0);
    expect(line(stdout, 'D1 database "recon"')).toContain(`exists, id ${uuid}`);
    expect(line(stdout, 'KV namespace "recon-oauth-kv"')).toContain(`exists, id ${'a'.repeat(32)}`);
    expect(line(stdout, 'Migrations')).toContain(`would apply 2: ${MIGRATIONS.slice(-2).join(', ')}`);
    expect(line(stdout, 'Secrets')).toBe('Secrets: PAGE_TOKEN_SECRET set; MCP_REQUEST_STATE_SECRET unset: would generate and set (32 random bytes each).');
    expect(mutating()).toEqual([]);
    // The migrations were listed on the generated configuration, with the real id.
    expect(calls().find((args) => args.includes('migrations'))).toEqual(expect.arrayContaining(['list', 'DB', '--remote', '--config']));
  });

  it('logged out (or offline) says what it could not check and still exits 0', async () => {
    account({ loggedOut: true });
    const { code, stdout } = await runDeploy('--dry-run');
    expect(code, stdout).toBe(0);
    expect(line(stdout, 'D1 database')).toContain('could not list D1 databases (not logged in): would create "recon" if missing');
    expect(line(stdout, 'KV namespace')).toContain('could not list KV namespaces (not logged in)');
    expect(line(stdout, 'Secrets')).toContain('could not list secrets (not logged in)');
    expect(line(stdout, 'Migrations')).toContain(MIGRATIONS[0]);
    expect(mutating()).toEqual([]);
  });
});

describe('npm run deploy', () => {
  it('reaches a working deployment from an empty account, and a second run only deploys', async () => {
    account();
    const first = await runDeploy();
    expect(first.code, first.stdout).toBe(0);
    const after = readAccount();
    expect(after.databases.map((d) => d.name)).toEqual(['recon']);
    expect(after.namespaces.map((n) => n.title)).toEqual(['recon-oauth-kv']);
    expect(after.applied[after.databases[0]!.uuid]).toEqual(MIGRATIONS);
    expect(after.workers.recon!.secrets.sort()).toEqual(['MCP_REQUEST_STATE_SECRET', 'PAGE_TOKEN_SECRET']);
    // Deployed once: the Worker knows it is deployed and on which hosts (its workers.dev name on any
    // account subdomain) from the configuration, and no loopback host goes with it.
    expect(after.workers.recon!.deploys).toBe(1);
    expect(after.workers.recon!.vars).toMatchObject({ DEPLOYED_HOSTS: 'recon.*.workers.dev', MCP_ALLOWED_ORIGINS: '' });
    expect(after.workers.recon!.vars).not.toHaveProperty('MCP_ALLOWED_HOSTS');
    expect(first.stdout).not.toContain('Warning');
    expect(first.stdout).toContain('Recon is deployed at https://recon.example.workers.dev');
    expect(first.stdout).toContain('MCP URL for a client: https://recon.example.workers.dev/api/mcp');
    expect(first.stdout).toContain('https://recon.example.workers.dev/dashboard/sign-up');
    expect(first.stdout).toContain('npm run keys -- create --org <your-org> --name admin --remote');
    const generated = JSON.parse(readFileSync(path.join(outDir, 'wrangler.json'), 'utf8')) as { d1_databases: { database_id: string }[]; placement?: unknown };
    expect(generated.d1_databases[0]!.database_id).toBe(after.databases[0]!.uuid);
    expect(generated.placement).toEqual({ mode: 'smart' });
    expect(existsSync(path.join(outDir, 'state.json'))).toBe(false);

    writeFileSync(path.join(dir, 'calls.ndjson'), '');
    const second = await runDeploy();
    expect(second.code, second.stdout).toBe(0);
    expect(mutating()).toEqual([['deploy', '--config', path.join(outDir, 'wrangler.json')]]);
    expect(readAccount().workers.recon!.deploys).toBe(2);
    expect(line(second.stdout, 'Migrations')).toContain('all applied');
    expect(line(second.stdout, 'Secrets')).toBe('Secrets: PAGE_TOKEN_SECRET, MCP_REQUEST_STATE_SECRET set.');
  });

  it('stops with the reason when it cannot look at the account', async () => {
    account({ loggedOut: true });
    const { code, stdout } = await runDeploy();
    expect(code).toBe(1);
    expect(stdout).toContain('Could not list D1 databases: not logged in (run `npx wrangler login`, or set CLOUDFLARE_API_TOKEN).');
    expect(mutating()).toEqual([]);
  });
});
