import { LOCAL_HOSTS, parseHostPattern, parseOriginPattern, type Config, type HostPattern, type OriginPattern } from '../ground/config.ts';
import { hostnameMatches } from '../ground/served-hosts.ts';

/**
 * DNS-rebinding policy of the MCP door, pure: a request's Host and Origin are compared with the
 * configured allow-lists (`mcpHosts`, MCP_ALLOWED_ORIGINS), never with anything the request itself
 * carries. An entry without a port matches any port: rebinding is about the host name.
 */

const DEFAULT_PORT = { 'http:': '80', 'https:': '443' } as Record<string, string>;

function matches(pattern: HostPattern, hostname: string, port: string | undefined): boolean {
  return hostnameMatches(pattern.hostname, hostname) && (pattern.port === undefined || pattern.port === port);
}

const resolved = new WeakMap<object, readonly HostPattern[]>();

const isLoopback = (entry: HostPattern) => LOCAL_HOSTS.some((local) => local.hostname === entry.hostname);

/**
 * The hosts /api/mcp and OAuth answer on. Anywhere but a deployment (local development, a Worker
 * deployed by hand without DEPLOYED_HOSTS) they are MCP_ALLOWED_HOSTS, by default the loopback names.
 * A deployed Worker (DEPLOYED_HOSTS, which the deploy writes, never a request) answers on the hosts
 * it is served on, and MCP_ALLOWED_HOSTS narrows them to its entries that are served hosts; its
 * loopback entries are wrangler.toml's local development defaults, which never narrow a deployment
 * to nothing. Cloudflare delivers a request to this Worker only on a host routed to it, so a served
 * pattern wider than the Worker's own hosts (`recon.*.workers.dev`: another account's `recon` is
 * another Worker) admits no request that a list of its exact hosts would refuse.
 */
export function mcpHosts(config: Pick<Config, 'DEPLOYED_HOSTS' | 'MCP_ALLOWED_HOSTS'>): readonly HostPattern[] {
  let hosts = resolved.get(config);
  if (!hosts) {
    const { DEPLOYED_HOSTS: served, MCP_ALLOWED_HOSTS: allowed } = config;
    const narrowing = allowed?.filter((entry) => !isLoopback(entry)) ?? [];
    if (served === undefined) hosts = allowed ?? LOCAL_HOSTS;
    else if (narrowing.length === 0) hosts = served;
    else hosts = narrowing.filter((entry) => served.some((host) => hostnameMatches(host.hostname, entry.hostname)));
    resolved.set(config, hosts);
  }
  return hosts;
}

/** Whether `host` (the Host header, or the URL's host) is allowed; `protocol` gives its default port. */
export function isAllowedHost(host: string, allowed: readonly HostPattern[], protocol: string): boolean {
  const parsed = parseHostPattern(host);
  if (!parsed) return false;
  const port = parsed.port ?? DEFAULT_PORT[protocol];
  return allowed.some((pattern) => matches(pattern, parsed.hostname, port));
}

/** Whether a browser's `Origin` header is allowed; `null` (opaque origins) never is. */
export function isAllowedOrigin(origin: string, allowed: readonly OriginPattern[]): boolean {
  const parsed = parseOriginPattern(origin);
  if (!parsed) return false;
  const port = parsed.port ?? DEFAULT_PORT[`${parsed.scheme}:`];
  return allowed.some((pattern) => pattern.scheme === parsed.scheme && matches(pattern, parsed.hostname, port));
}
