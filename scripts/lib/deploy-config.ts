/**
 * What `npm run deploy` (scripts/deploy.ts) derives from wrangler.toml without changing it: the
 * resources it needs, and the configuration it deploys with. wrangler.toml stays as committed (its
 * D1 and KV ids are placeholders, and `npm run dev` keys its local state by them); the real ids go
 * into a generated copy, `.wrangler/recon-deploy/wrangler.json` (git-ignored), which every remote
 * command of the deploy is given with `--config`. Everything here is pure but `readProjectConfig`.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { experimental_readRawConfig, type Unstable_RawConfig } from 'wrangler';
import { PROJECT_ROOT } from './wrangler.ts';
import { hostnameMatches, parseServedHostPattern } from '../../src/ground/served-hosts.ts';

/** The binding names Recon's deploy provisions: its D1 database and its KV namespace for OAuth. */
export const DATABASE_BINDING = 'DB';
export const KV_BINDING = 'OAUTH_KV';

/** The secrets a deployment needs and that the deploy generates when unset (32 random bytes each). */
export const GENERATED_SECRETS = ['PAGE_TOKEN_SECRET', 'MCP_REQUEST_STATE_SECRET'] as const;

/** The facts of wrangler.toml the deploy acts on. */
export interface ProjectFacts {
  raw: Unstable_RawConfig;
  workerName: string;
  database: { name: string; committedId: string | undefined };
  kv: { title: string; committedId: string | undefined };
  /** The migration files, in the order wrangler applies them. */
  migrations: string[];
}

/** An id left as the placeholder (all zeros) is no id: the resource is looked up by name. */
export function realId(id: string | undefined): string | undefined {
  return id && !/^[0-]+$/.test(id) ? id : undefined;
}

/**
 * The title of the KV namespace: `<worker>-<binding>`, as wrangler names the resources it
 * provisions itself (e.g. `recon-oauth-kv`), so it is the Worker's own and never another
 * project's `OAUTH_KV`.
 */
export function kvTitle(workerName: string, binding: string): string {
  return `${workerName}-${binding.toLowerCase().replaceAll('_', '-')}`;
}

/** Reads wrangler.toml (through wrangler's own reader) and the migrations it names. */
export function readProjectConfig(configPath = path.join(PROJECT_ROOT, 'wrangler.toml')): ProjectFacts {
  const { rawConfig: raw } = experimental_readRawConfig({ config: configPath });
  return projectFacts(raw, readdirSync(migrationsDir(raw, path.dirname(configPath))));
}

/** The facts of a raw configuration, given the file names in its migrations directory. */
export function projectFacts(raw: Unstable_RawConfig, migrationFiles: readonly string[]): ProjectFacts {
  const workerName = raw.name;
  if (!workerName) throw new Error('wrangler.toml names no Worker (name = "...").');
  const database = raw.d1_databases?.find((d) => d.binding === DATABASE_BINDING);
  if (!database?.database_name) throw new Error(`wrangler.toml has no [[d1_databases]] binding ${DATABASE_BINDING} with a database_name.`);
  const kv = raw.kv_namespaces?.find((k) => k.binding === KV_BINDING);
  if (!kv) throw new Error(`wrangler.toml has no [[kv_namespaces]] binding ${KV_BINDING}.`);
  return {
    raw,
    workerName,
    database: { name: database.database_name, committedId: realId(database.database_id) },
    kv: { title: kvTitle(workerName, KV_BINDING), committedId: realId(kv.id) },
    migrations: migrationFiles.filter((file) => file.endsWith('.sql')).sort(),
  };
}

function migrationsDir(raw: Unstable_RawConfig, root: string): string {
  const dir = raw.d1_databases?.find((d) => d.binding === DATABASE_BINDING)?.migrations_dir ?? 'migrations';
  return path.resolve(root, dir);
}

/**
 * The configuration deployed: wrangler.toml with the real ids, its `vars` replaced by `vars`, and
 * its paths made absolute (so the file works wherever it is written). Everything else, such as
 * `[placement]`, is carried as it is. An id still unknown (a dry run that could not look) keeps the
 * placeholder: the build does not read it.
 */
export function deployConfig(
  raw: Unstable_RawConfig,
  root: string,
  ids: { databaseId: string | undefined; kvId: string | undefined },
  vars: NonNullable<Unstable_RawConfig['vars']>,
): Unstable_RawConfig {
  return {
    ...raw,
    ...(raw.main ? { main: path.resolve(root, raw.main) } : {}),
    ...(raw.tsconfig ? { tsconfig: path.resolve(root, raw.tsconfig) } : {}),
    ...(raw.base_dir ? { base_dir: path.resolve(root, raw.base_dir) } : {}),
    vars,
    d1_databases: raw.d1_databases?.map((d) => ({
      ...d,
      migrations_dir: path.resolve(root, d.migrations_dir ?? 'migrations'),
      ...(d.binding === DATABASE_BINDING && ids.databaseId ? { database_id: ids.databaseId } : {}),
    })),
    kv_namespaces: raw.kv_namespaces?.map((k) => (k.binding === KV_BINDING && ids.kvId ? { ...k, id: ids.kvId } : k)),
  };
}

// ---------------------------------------------------------------------------------------------
// The hosts /api/mcp answers on (DEPLOYED_HOSTS, MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS;
// src/ground/config.ts, src/mcp/dns-rebinding.ts).

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function listOf(value: unknown): string[] {
  return typeof value === 'string' ? value.split(',').map((item) => item.trim()).filter(Boolean) : [];
}

function isLoopbackHost(pattern: string): boolean {
  return LOOPBACK_HOSTS.has(pattern.replace(/:\d+$/, ''));
}

type Route = NonNullable<Unstable_RawConfig['route']>;

/** The routes wrangler deploys, as it reads them: `routes`, else `route`. */
function routesOf(raw: Unstable_RawConfig): Route[] {
  return raw.routes ?? (raw.route ? [raw.route] : []);
}

/**
 * The host names of a route or custom domain (`example.com/*`, `https://api.example.com/mcp*`,
 * `{ pattern = "recon.example.com", custom_domain = true }`). A route's host may start with `*`:
 * `*.example.com` becomes the one-label pattern `*.example.com` (narrower than the route, which also
 * takes deeper names), and `*example.com` (the zone's apex and its subdomains) both `example.com`
 * and `*.example.com`.
 */
function routeHosts(route: Route): string[] {
  const pattern = typeof route === 'string' ? route : route.pattern;
  const host = pattern.replace(/^https?:\/\//, '').split('/')[0]!.toLowerCase();
  if (!host.startsWith('*') || host.slice(1).includes('*')) return [host];
  const rest = host.slice(1);
  return rest.startsWith('.') ? [`*${rest}`] : [rest, `*.${rest}`];
}

/**
 * The hosts a deployment of `raw` is served on, as wrangler.toml declares them, so that one deploy
 * knows them all: its routes and custom domains, and, when workers.dev is on (wrangler's rule:
 * `workers_dev`, by default on unless there are routes), `<name>.*.workers.dev`. The account's
 * workers.dev subdomain is unknown offline, so it stands as `*`: Cloudflare routes
 * `<name>.<subdomain>.workers.dev` only to the Worker of that name on the account owning
 * `<subdomain>`, so the one such host that can reach this Worker is its own.
 */
export function servedHosts(raw: Unstable_RawConfig): string[] {
  const routes = routesOf(raw);
  const workersDev = raw.workers_dev ?? routes.length === 0;
  const hosts = routes.flatMap(routeHosts);
  if (workersDev && raw.name) hosts.push(`${raw.name.toLowerCase()}.*.workers.dev`);
  return [...new Set(hosts)];
}

/** The MCP hosts of a deployment and what narrows them, for the deploy to write and say. */
export interface DeploymentMcpHosts {
  /** DEPLOYED_HOSTS: the hosts it is served on. */
  served: string[];
  /** Route hosts the Worker cannot take as served hosts (e.g. a `*` inside a name): /api/mcp does not answer there. */
  skipped: string[];
  /** MCP_ALLOWED_HOSTS without its loopback (local development) entries; empty: no narrowing. */
  narrowedTo: string[];
  /** Entries of `narrowedTo` the deployment is not served on: /api/mcp will not answer there. */
  notServed: string[];
}

/** Whether `host` (`host` or `host:port`) is a served host, by the Worker's own rule. */
function isServed(host: string, served: readonly string[]): boolean {
  const hostname = host.trim().toLowerCase().replace(/:\d+$/, '');
  return served.some((pattern) => hostnameMatches(pattern, hostname));
}

export function deploymentMcpHosts(raw: Unstable_RawConfig): DeploymentMcpHosts {
  const declared = servedHosts(raw);
  // Only what the Worker parses: DEPLOYED_HOSTS with one bad entry would fail every request.
  const served = declared.filter((host) => parseServedHostPattern(host));
  const narrowedTo = listOf(raw.vars?.MCP_ALLOWED_HOSTS).filter((host) => !isLoopbackHost(host));
  return {
    served,
    skipped: declared.filter((host) => !served.includes(host)),
    narrowedTo,
    notServed: narrowedTo.filter((host) => !isServed(host, served)),
  };
}

/**
 * The vars a deployment runs with: wrangler.toml's, with DEPLOYED_HOSTS (which makes the Worker a
 * deployment: src/ground/config.ts), and the MCP allow-lists without their local development
 * (loopback) entries. MCP_ALLOWED_HOSTS left with none is dropped: it would narrow to nothing.
 */
export function deployVars(raw: Unstable_RawConfig): NonNullable<Unstable_RawConfig['vars']> {
  const vars = { ...raw.vars };
  delete vars.MCP_ALLOWED_HOSTS;
  const { served, narrowedTo } = deploymentMcpHosts(raw);
  const origins = listOf(raw.vars?.MCP_ALLOWED_ORIGINS).filter((origin) => !isLoopbackHost(origin.replace(/^[a-z]+:\/\//, '')));
  return {
    ...vars,
    ...(narrowedTo.length ? { MCP_ALLOWED_HOSTS: narrowedTo.join(',') } : {}),
    MCP_ALLOWED_ORIGINS: origins.join(','),
    DEPLOYED_HOSTS: served.join(','),
  };
}

/** The hosts of `targets` (what wrangler deployed to) that are not among the served hosts. */
export function unservedTargets(targets: readonly string[], served: readonly string[]): string[] {
  return targetHosts(targets).filter((host) => !isServed(host, served));
}

// ---------------------------------------------------------------------------------------------
// Reading what wrangler printed.

/**
 * The targets of a `wrangler deploy`: from the `deploy` entry it writes to WRANGLER_OUTPUT_FILE_PATH
 * (one JSON object a line), else from the lines it prints under "Deployed <name> triggers".
 * Targets look like `https://recon.example.workers.dev`, `example.com/* (zone name: example.com)`,
 * `api.example.com (custom domain)`.
 */
export function deployTargets(outputFile: string, stdout: string): string[] {
  for (const line of outputFile.split('\n').reverse()) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as { type?: string; targets?: unknown };
      if (entry.type === 'deploy' && Array.isArray(entry.targets)) return entry.targets.filter((t): t is string => typeof t === 'string');
    } catch {
      // not an entry
    }
  }
  const lines = stdout.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const start = lines.findIndex((line) => /^Deployed \S+ triggers/.test(line.trim()));
  if (start === -1) return [];
  const targets: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+\S/.test(line)) break;
    targets.push(line.trim());
  }
  return targets;
}

/** The host names of deploy targets (wildcard routes and cron schedules have none). */
export function targetHosts(targets: readonly string[]): string[] {
  const hosts: string[] = [];
  for (const target of targets) {
    if (target.startsWith('schedule:')) continue;
    const host = /^https?:\/\//.test(target) ? new URL(target).host : target.split(/[\s/]/)[0]!;
    if (host && !host.includes('*')) hosts.push(host);
  }
  return [...new Set(hosts)];
}

/** The URL a deployment is reached on: its workers.dev URL, else its first custom domain or route host. */
export function deploymentUrl(targets: readonly string[]): string | undefined {
  const url = targets.find((target) => /^https:\/\//.test(target));
  if (url) return url.replace(/\/$/, '');
  const host = targetHosts(targets)[0];
  return host ? `https://${host}` : undefined;
}

/**
 * The migrations `wrangler d1 migrations list` says are not applied yet (it prints "No migrations
 * to apply!" or a table of their names), as names of `files`; undefined when it said neither.
 */
export function pendingMigrations(output: string, files: readonly string[]): string[] | undefined {
  const text = output.replace(/\x1b\[[0-9;]*m/g, '');
  if (/No migrations to apply/.test(text)) return [];
  if (!/Migrations to be applied/.test(text)) return undefined;
  return files.filter((file) => text.includes(file));
}
