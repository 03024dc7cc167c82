/**
 * The hosts a deployment is served on (DEPLOYED_HOSTS, written by `npm run deploy`): host names
 * whose `*` labels stand for exactly one label each (`recon.*.workers.dev`), never in the last two,
 * no port. The Worker (src/mcp/dns-rebinding.ts) and the deploy (scripts/lib/deploy-config.ts) read
 * them with these two functions, so the two agree.
 */

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const SERVED_HOST = new RegExp(`^(?:(?:\\*|${LABEL})\\.)*${LABEL}\\.${LABEL}$`);

/** A served host name, lower case (`recon.example.com`, `recon.*.workers.dev`), or undefined. */
export function parseServedHostPattern(text: string): { hostname: string } | undefined {
  const hostname = text.trim().toLowerCase();
  return SERVED_HOST.test(hostname) ? { hostname } : undefined;
}

/** Whether `hostname` (lower case, no port) is `pattern`, each `*` label of it standing for one label. */
export function hostnameMatches(pattern: string, hostname: string): boolean {
  if (!pattern.includes('*')) return pattern === hostname;
  const want = pattern.split('.');
  const got = hostname.split('.');
  return want.length === got.length && want.every((label, i) => label === '*' || label === got[i]);
}
