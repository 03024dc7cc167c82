/**
 * The hosts of one site, and where each is fetched from. A site is its domain's web hosts: the apex
 * (`globex.com`) and `www.globex.com` (siteUrl in frontier.ts accepts both). Each host has its own
 * robots.txt (RFC 9309: robots.txt is per scheme and host), and a redirect between them is followed
 * like any other.
 *
 * In development and tests SITE_ORIGIN_OVERRIDES maps hosts to loopback origins (config.ts): a
 * request for a host goes to its origin, and only the hosts it names are read at all. A `www.` host
 * without an entry of its own is served by its apex's entry, so one entry per site still works.
 */

/** Lower case, without a final dot and without a port. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, '');
}

/** The loopback origin that serves `host` (its own entry, else for `www.` its apex's), if any. */
export function overrideFor(overrides: ReadonlyMap<string, string> | undefined, host: string): string | undefined {
  if (!overrides || overrides.size === 0) return undefined;
  return overrides.get(host) ?? (host.startsWith('www.') ? overrides.get(host.slice(4)) : undefined);
}

/**
 * Whether a deployment with `overrides` reads `host` at all: with none set (production), any public
 * host; with some set (development and tests, offline), only the hosts they serve.
 */
export function readsHost(overrides: ReadonlyMap<string, string> | undefined, host: string): boolean {
  return !overrides || overrides.size === 0 || overrideFor(overrides, host) !== undefined;
}

/**
 * The host whose pages the loopback `origin` serves, for a redirect that names the override server
 * itself (a test server that answers `Location: http://127.0.0.1:9300/pricing`): `current` when that
 * origin serves it (one entry serving the apex and `www.`), else the one host mapped to it.
 */
export function hostServedBy(overrides: ReadonlyMap<string, string> | undefined, origin: string, current: string): string | undefined {
  if (overrideFor(overrides, current) === origin) return current;
  for (const [host, served] of overrides ?? []) if (served === origin) return host;
  return undefined;
}
