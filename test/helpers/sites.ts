import { inject } from 'vitest';
import type { SiteLog } from '../../scripts/lib/site-types.ts';
// Its type brings the `fixtureSites` entry of vitest's ProvidedContext.
import type { FixtureSiteOrigins } from '../sites/fixture-sites.ts';

/**
 * The fixture sites of test/sites/fixture-sites.ts, served by vitest.config.ts on loopback and named
 * in the Worker's SITE_ORIGIN_OVERRIDES: their control paths (scripts/lib/site-server.ts), reached
 * over HTTP from the Workers pool. Each site has one log and one set of pages for the whole run:
 * a test file that changes pages or reads the log takes a site no other file uses (the company
 * site has copies for that: COMPANY_DOMAINS).
 */

/** `http://127.0.0.1:<port>`: where the site of `domain` is served (its pages and its control paths). */
export function siteOrigin(domain: string): string {
  const origins: FixtureSiteOrigins = inject('fixtureSites');
  const origin = origins[domain];
  if (!origin) throw new Error(`no fixture site for ${domain}; see test/sites/fixture-sites.ts`);
  return origin;
}

async function control(domain: string, path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${siteOrigin(domain)}/__site/${path}`, init);
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} /__site/${path} on ${domain} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** The requests the site answered since the run started or its log was last reset. */
export async function siteLog(domain: string): Promise<SiteLog> {
  return (await control(domain, 'log')).json<SiteLog>();
}

/** Empties the site's log (and its most-in-flight count). */
export async function resetSiteLog(domain: string): Promise<void> {
  await (await control(domain, 'log/reset', { method: 'POST' })).arrayBuffer();
}

/** Replaces the body of the page at `path` (a new ETag and a later Last-Modified); `status` and `type` optional. */
export async function setSitePage(domain: string, path: string, body: string, options: { status?: number; type?: string } = {}): Promise<void> {
  const query = new URLSearchParams({ path });
  if (options.status !== undefined) query.set('status', String(options.status));
  if (options.type !== undefined) query.set('type', options.type);
  await (await control(domain, `pages?${query}`, { method: 'PUT', body })).arrayBuffer();
}

/** The page at `path` answers 404 from now on. */
export async function removeSitePage(domain: string, path: string): Promise<void> {
  await (await control(domain, `pages?${new URLSearchParams({ path })}`, { method: 'DELETE' })).arrayBuffer();
}

/** The paths (with query) requested with GET, in order, control paths excluded. */
export function requestedPaths(log: SiteLog): string[] {
  return log.requests.filter((request) => request.method === 'GET').map((request) => request.path);
}

/**
 * Forgets the shared copy of `domain`'s pages (its SiteHostGate's): the next read of any organization
 * asks the site. For tests whose several organizations each must reach the site.
 */
export async function forgetSharedCopy(domain: string): Promise<void> {
  const { env } = await import('cloudflare:workers');
  await env.SITE_GATES.get(env.SITE_GATES.idFromName(domain)).forgetCopies();
}
