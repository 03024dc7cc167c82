import { parseHostPattern, parseOriginPattern, type HostPattern, type OriginPattern } from '../ground/config.ts';

/**
 * DNS-rebinding policy of the MCP door, pure: a request's Host and Origin are compared with the
 * configured allow-lists (MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS), never with anything the request
 * itself carries. An entry without a port matches any port: rebinding is about the host name.
 */

const DEFAULT_PORT = { 'http:': '80', 'https:': '443' } as Record<string, string>;

function matches(pattern: HostPattern, hostname: string, port: string | undefined): boolean {
  return pattern.hostname === hostname && (pattern.port === undefined || pattern.port === port);
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
