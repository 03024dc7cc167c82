/**
 * `npm run deploy [-- --dry-run]`: a working Recon on a Cloudflare account, from a clean clone,
 * without editing a file. Run it again at any time: it only creates what is missing.
 *
 *   1. The D1 database (wrangler.toml's database_name) and the OAuth KV namespace (`recon-oauth-kv`)
 *      are looked up by name (`wrangler d1 list --json`, `wrangler kv namespace list`) and created
 *      when missing. An id already written in wrangler.toml (not the placeholder) is used as is.
 *   2. The deploy configuration is generated: wrangler.toml with the real ids and the hosts the
 *      Worker is served on (DEPLOYED_HOSTS: its routes, custom domains and `<name>.*.workers.dev`,
 *      all known from wrangler.toml, so one deploy is enough), in
 *      `.wrangler/recon-deploy/wrangler.json` (scripts/lib/deploy-config.ts); wrangler.toml is never
 *      rewritten.
 *   3. The migrations not yet applied are applied (`wrangler d1 migrations apply --remote`).
 *   4. Secrets that are unset (`wrangler secret list`) among PAGE_TOKEN_SECRET and
 *      MCP_REQUEST_STATE_SECRET get 32 random bytes each, uploaded with the deployed version
 *      (`wrangler deploy --secrets-file`, which keeps the secrets it does not name).
 *   5. `wrangler deploy`, once. /api/mcp answers on the served hosts (narrowed by wrangler.toml's
 *      non-loopback MCP_ALLOWED_HOSTS, if any).
 *   6. It prints the URL, the MCP URL to paste into a client and how to make the first key.
 *
 * `--dry-run` changes nothing: it runs only wrangler's read commands (which fail offline or
 * logged out: it then says what it could not check and what it would do) and the build of the
 * deploy configuration (`wrangler deploy --dry-run`). It exits 0 unless the Worker does not build.
 *
 * Every wrangler call goes through one runner (scripts/lib/wrangler-runner.ts): the first
 * `wrangler` on PATH, so test/e2e/deploy-script.test.ts runs this script against a fake one.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  DATABASE_BINDING,
  deployConfig,
  deploymentMcpHosts,
  deploymentUrl,
  deployTargets,
  deployVars,
  GENERATED_SECRETS,
  pendingMigrations,
  readProjectConfig,
  unservedTargets,
  type DeploymentMcpHosts,
  type ProjectFacts,
} from './lib/deploy-config.ts';
import { builtSize, kib } from './lib/bundle-size.ts';
import { failureReason, plain, wranglerRunner, type WranglerResult, type WranglerRunner } from './lib/wrangler-runner.ts';
import { PROJECT_ROOT } from './lib/wrangler.ts';

const USAGE = `Usage: npm run deploy [-- options]

Creates what is missing (D1 database, KV namespace, secrets), applies the migrations and deploys.

Options:
  --dry-run         say what it would do; change nothing (read-only wrangler commands and a build only)
  --out-dir <dir>   where the generated deploy configuration goes (default: .wrangler/recon-deploy)
  -h, --help        show this help

Log in first with \`npx wrangler login\`, or set CLOUDFLARE_API_TOKEN (and CLOUDFLARE_ACCOUNT_ID).`;

export interface DeployOptions {
  dryRun: boolean;
  outDir: string;
}

/** A wrangler command that failed: why, shortened for a person ("not logged in", "offline", or wrangler's error). */
class WranglerFailure {
  readonly reason: string;
  constructor(result: WranglerResult) {
    const reason = failureReason(result);
    this.reason = /CLOUDFLARE_API_TOKEN|not logged in|wrangler login|authenticat/i.test(reason)
      ? 'not logged in'
      : /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network/i.test(reason)
        ? 'offline'
        : reason;
  }
}

/** Thrown to stop a real deploy: what failed and why. */
class DeployError extends Error {}

function parseJsonArray<T>(result: WranglerResult): T[] | WranglerFailure {
  if (result.code !== 0) return new WranglerFailure(result);
  try {
    const parsed = JSON.parse(plain(result.stdout)) as unknown;
    if (Array.isArray(parsed)) return parsed as T[];
  } catch {
    // fall through
  }
  return new WranglerFailure({ ...result, stderr: `expected a JSON array, got: ${result.stdout.trim().slice(0, 200)}` });
}

/** The id of the D1 database named `name`, undefined if there is none, or why it could not be listed. */
async function findDatabase(wrangler: WranglerRunner, name: string): Promise<string | undefined | WranglerFailure> {
  const list = parseJsonArray<{ uuid?: string; name?: string }>(await wrangler(['d1', 'list', '--json']));
  return list instanceof WranglerFailure ? list : list.find((db) => db.name === name)?.uuid;
}

/** The id of the KV namespace titled `title` (`wrangler kv namespace list` prints JSON). */
async function findNamespace(wrangler: WranglerRunner, title: string): Promise<string | undefined | WranglerFailure> {
  const list = parseJsonArray<{ id?: string; title?: string }>(await wrangler(['kv', 'namespace', 'list']));
  return list instanceof WranglerFailure ? list : list.find((ns) => ns.title === title)?.id;
}

/** The names of the Worker's secrets; [] when the Worker does not exist yet. */
async function listSecrets(wrangler: WranglerRunner, workerName: string): Promise<string[] | WranglerFailure> {
  const result = await wrangler(['secret', 'list', '--name', workerName, '--format', 'json']);
  if (result.code !== 0 && /Worker "[^"]*"[^\n]* not found/.test(plain(`${result.stderr}${result.stdout}`))) return [];
  const list = parseJsonArray<{ name?: string }>(result);
  return list instanceof WranglerFailure ? list : list.flatMap((secret) => (secret.name ? [secret.name] : []));
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A new directory under `parent` (created if need be). */
function temporaryDir(parent: string): string {
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(path.join(parent, 'recon-deploy-'));
}

/** A path as the operator reads it: relative to the project when inside it. */
function shown(file: string): string {
  const relative = path.relative(PROJECT_ROOT, file);
  return relative.startsWith('..') ? file : relative;
}

/** What the plan says of the MCP hosts: where /api/mcp answers, what narrows it, what it cannot take. */
function mcpHostsLines({ served, skipped, narrowedTo, notServed }: DeploymentMcpHosts): string[] {
  const shownHosts = served.map((host) => (host.endsWith('.*.workers.dev') ? `${host} (its workers.dev host, * the account's subdomain)` : host));
  const where = shownHosts.join(', ') || 'no host (workers.dev is off and wrangler.toml names no route)';
  const lines = [`MCP hosts (DEPLOYED_HOSTS): /api/mcp answers on ${where}${narrowedTo.length ? `, narrowed by MCP_ALLOWED_HOSTS to ${narrowedTo.join(', ')}` : ''}.`];
  if (skipped.length) lines.push(`  Warning: routes on ${skipped.join(', ')} cannot be named as served hosts: /api/mcp refuses them; add their hosts as routes of their own.`);
  if (notServed.length) lines.push(`  Warning: MCP_ALLOWED_HOSTS names ${notServed.join(', ')}, which this deployment is not served on: add a route or custom domain for it to wrangler.toml.`);
  return lines;
}

/** Where the Worker runs, as wrangler.toml's `[placement]` says. */
function placementOf(project: ProjectFacts): string {
  const mode = project.raw.placement?.mode;
  return mode === 'smart' ? 'smart (near D1, once Smart Placement has learned the traffic)' : `${mode ?? 'default'} (near each client)`;
}

/**
 * Runs the deploy (or its dry run), printing each step with `log`; returns the exit code.
 * `project` is wrangler.toml's facts (readProjectConfig()).
 */
export async function deploy(options: DeployOptions, wrangler: WranglerRunner, project: ProjectFacts, log: (line: string) => void = console.log): Promise<number> {
  const { dryRun } = options;
  /** What a step does: `would <verb> ...` in a dry run, `<verb>ing ...` otherwise (both given). */
  const act = (wouldDo: string, doing: string) => (dryRun ? `would ${wouldDo}` : doing);
  const configFile = path.join(options.outDir, 'wrangler.json');
  // Secrets and wrangler's output file: private, removed at the end.
  const scratch = temporaryDir(os.tmpdir());
  // A dry run's configuration and build: as deep in the project as the real one, so the bundle is
  // the same (esbuild names modules relative to the configuration's directory); removed at the end.
  const buildDir = dryRun ? temporaryDir(path.join(PROJECT_ROOT, '.wrangler', 'tmp')) : undefined;
  const fail = (step: string, failure: WranglerFailure): never => {
    throw new DeployError(`${step}: ${failure.reason}${failure.reason === 'not logged in' ? ' (run `npx wrangler login`, or set CLOUDFLARE_API_TOKEN)' : ''}.`);
  };
  log(dryRun ? `Recon deploy plan for Worker "${project.workerName}" (dry run: nothing is changed).` : `Deploying Recon as Worker "${project.workerName}".`);

  try {
    // 1. What exists: the lookups are independent, so they run together.
    const { database, kv } = project;
    const [foundDatabase, foundNamespace, secrets] = await Promise.all([
      database.committedId ?? findDatabase(wrangler, database.name),
      kv.committedId ?? findNamespace(wrangler, kv.title),
      listSecrets(wrangler, project.workerName),
    ]);

    // The D1 database.
    let databaseId: string | undefined;
    let newDatabase = false;
    const dbLabel = `D1 database "${database.name}" (binding ${DATABASE_BINDING})`;
    if (foundDatabase instanceof WranglerFailure) {
      if (!dryRun) fail('Could not list D1 databases', foundDatabase);
      log(`${dbLabel}: could not list D1 databases (${foundDatabase.reason}): would create "${database.name}" if missing (wrangler d1 create ${database.name}).`);
    } else if (foundDatabase) {
      databaseId = foundDatabase;
      log(`${dbLabel}: exists, id ${databaseId}${database.committedId ? ' (from wrangler.toml)' : ''}.`);
    } else {
      newDatabase = true;
      log(`${dbLabel}: missing: ${act('create it', 'creating it')} (wrangler d1 create ${database.name}).`);
      if (!dryRun) {
        const created = await wrangler(['d1', 'create', database.name], { echo: true });
        if (created.code !== 0) fail(`wrangler d1 create ${database.name} failed`, new WranglerFailure(created));
        const id = await findDatabase(wrangler, database.name);
        if (id instanceof WranglerFailure || !id) throw new DeployError(`Created D1 database "${database.name}" but could not find its id with wrangler d1 list.`);
        databaseId = id;
        log(`  created, id ${databaseId}.`);
      }
    }

    // The KV namespace.
    let kvId: string | undefined;
    const kvLabel = `KV namespace "${kv.title}" (binding OAUTH_KV)`;
    if (foundNamespace instanceof WranglerFailure) {
      if (!dryRun) fail('Could not list KV namespaces', foundNamespace);
      log(`${kvLabel}: could not list KV namespaces (${foundNamespace.reason}): would create "${kv.title}" if missing (wrangler kv namespace create ${kv.title}).`);
    } else if (foundNamespace) {
      kvId = foundNamespace;
      log(`${kvLabel}: exists, id ${kvId}${kv.committedId ? ' (from wrangler.toml)' : ''}.`);
    } else {
      log(`${kvLabel}: missing: ${act('create it', 'creating it')} (wrangler kv namespace create ${kv.title}).`);
      if (!dryRun) {
        const created = await wrangler(['kv', 'namespace', 'create', kv.title], { echo: true });
        if (created.code !== 0) fail(`wrangler kv namespace create ${kv.title} failed`, new WranglerFailure(created));
        const id = await findNamespace(wrangler, kv.title);
        if (id instanceof WranglerFailure || !id) throw new DeployError(`Created KV namespace "${kv.title}" but could not find its id with wrangler kv namespace list.`);
        kvId = id;
        log(`  created, id ${kvId}.`);
      }
    }

    // 2. The deploy configuration: in the out dir for a deploy, in a scratch directory for a dry run.
    const generated = buildDir ? path.join(buildDir, 'wrangler.json') : configFile;
    writeJson(generated, deployConfig(project.raw, PROJECT_ROOT, { databaseId, kvId }, deployVars(project.raw)));
    const configArgs = ['--config', generated];
    log(`Deploy configuration: ${dryRun ? `would write ${shown(configFile)}` : `wrote ${shown(configFile)}`} (wrangler.toml with the real ids and the served hosts; wrangler.toml is not changed).`);
    const mcpHosts = deploymentMcpHosts(project.raw);
    for (const line of mcpHostsLines(mcpHosts)) log(line);
    log(`Placement: ${placementOf(project)}.`);

    // 3. Migrations.
    const all = project.migrations;
    let pending: string[] | undefined;
    let listReason = '';
    if (newDatabase || (dryRun && databaseId === undefined)) {
      pending = newDatabase ? all : undefined;
      if (!newDatabase) listReason = 'the database could not be checked';
    } else {
      const listed = await wrangler(['d1', 'migrations', 'list', DATABASE_BINDING, '--remote', ...configArgs]);
      pending = listed.code === 0 ? pendingMigrations(`${listed.stdout}\n${listed.stderr}`, all) : undefined;
      if (listed.code !== 0) listReason = `could not list applied migrations: ${new WranglerFailure(listed).reason}`;
      else if (pending === undefined) listReason = 'wrangler d1 migrations list printed no list';
    }
    if (pending === undefined) {
      log(`Migrations (${all.length} in migrations/): ${act('apply those not yet applied', 'applying those not yet applied')} (${listReason}): ${all.join(', ')}.`);
    } else if (pending.length === 0) {
      log(`Migrations (${all.length} in migrations/): all applied.`);
    } else {
      log(`Migrations (${all.length} in migrations/): ${act(`apply ${pending.length}`, `applying ${pending.length}`)}: ${pending.join(', ')}.`);
    }
    if (!dryRun && (pending === undefined || pending.length > 0)) {
      const applied = await wrangler(['d1', 'migrations', 'apply', DATABASE_BINDING, '--remote', ...configArgs], { echo: true });
      if (applied.code !== 0) fail('wrangler d1 migrations apply failed', new WranglerFailure(applied));
      log('  applied.');
    }

    // 4. Secrets.
    let unset: string[];
    if (secrets instanceof WranglerFailure) {
      if (!dryRun) fail('Could not list the Worker\'s secrets', secrets);
      unset = [...GENERATED_SECRETS];
      log(`Secrets: could not list secrets (${secrets.reason}): would generate and set those unset of ${GENERATED_SECRETS.join(', ')}.`);
    } else {
      unset = GENERATED_SECRETS.filter((name) => !secrets.includes(name));
      const set = GENERATED_SECRETS.filter((name) => secrets.includes(name));
      const parts = [...(set.length ? [`${set.join(', ')} set`] : []), ...(unset.length ? [`${unset.join(', ')} unset: ${act('generate and set', 'generating and setting')} (32 random bytes each)`] : [])];
      log(`Secrets: ${parts.join('; ')}.`);
    }

    // 5. Build (dry run) or deploy.
    if (buildDir) {
      const outdir = path.join(buildDir, 'dist');
      const built = await wrangler(['deploy', '--dry-run', ...configArgs, '--outdir', outdir]);
      if (built.code !== 0) {
        log(`Build: wrangler deploy --dry-run of the deploy configuration FAILED: ${failureReason(built)}`);
        return 1;
      }
      const size = builtSize(outdir);
      log(`Build: wrangler deploy --dry-run of the deploy configuration: ok (${kib(size.raw)}, gzip ${kib(size.gzip)}).`);
      log(`Deploy: would run wrangler deploy --config ${shown(configFile)}${unset.length ? ' --secrets-file <generated secrets>' : ''} (once).`);
      return 0;
    }

    const runDeploy = async (secretValues: Record<string, string>) => {
      const outputFile = path.join(scratch, `wrangler-output-${Date.now()}.ndjson`);
      const args = ['deploy', ...configArgs];
      if (Object.keys(secretValues).length) {
        const secretsFile = path.join(scratch, 'secrets.json');
        writeFileSync(secretsFile, JSON.stringify(secretValues), { mode: 0o600 });
        args.push('--secrets-file', secretsFile);
      }
      const result = await wrangler(args, { env: { WRANGLER_OUTPUT_FILE_PATH: outputFile }, echo: true });
      rmSync(path.join(scratch, 'secrets.json'), { force: true });
      if (result.code !== 0) fail('wrangler deploy failed', new WranglerFailure(result));
      let output = '';
      try {
        output = readFileSync(outputFile, 'utf8');
      } catch {
        // an older wrangler writes none: its printed targets are read instead
      }
      return deployTargets(output, result.stdout);
    };

    const secretValues = Object.fromEntries(unset.map((name) => [name, randomBytes(32).toString('base64url')]));
    log(`Deploy: wrangler deploy --config ${shown(configFile)}${unset.length ? ` (with ${unset.join(', ')})` : ''}.`);
    const targets = await runDeploy(secretValues);
    // wrangler deploys what the configuration declares, so this only speaks if the two readings differ.
    const unserved = unservedTargets(targets, mcpHosts.served);
    if (unserved.length) log(`Warning: wrangler deployed to ${unserved.join(', ')}, which DEPLOYED_HOSTS does not name: /api/mcp refuses those hosts.`);

    // 6. Where it is and what to do next.
    const url = deploymentUrl(targets);
    log('');
    if (!url) {
      log('Deployed, but wrangler named no URL (is workers.dev disabled and no route or custom domain set?).');
      return 0;
    }
    log(`Recon is deployed at ${url}`);
    log(`  MCP URL for a client: ${url}/api/mcp`);
    log(`  The first organization: sign up at ${url}/dashboard/sign-up, then make its key on the dashboard's Keys page.`);
    if (database.committedId === databaseId) {
      log('  Or from here: npm run keys -- create --org <your-org> --name admin --remote');
    } else {
      // `npm run keys -- --remote` runs `wrangler d1 execute DB --remote` on wrangler.toml, whose id is the placeholder.
      log(`  (npm run keys -- create --org <your-org> --name admin --remote needs wrangler.toml's database_id to be ${databaseId}.)`);
    }
    return 0;
  } catch (error) {
    if (error instanceof DeployError) {
      log(`Deploy stopped. ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'dry-run': { type: 'boolean', default: false },
      'out-dir': { type: 'string', default: path.join(PROJECT_ROOT, '.wrangler', 'recon-deploy') },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const dryRun = values['dry-run'];
  return deploy({ dryRun, outDir: path.resolve(values['out-dir']) }, wranglerRunner(), readProjectConfig());
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(`\n${USAGE}`);
    process.exitCode = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  }
}
