import { z } from 'zod';
import { normalizeDomain } from './schemas/common.ts';
import { parseServedHostPattern } from './served-hosts.ts';

/** A host name (lower case; IPv6 in brackets) and a port; no port matches any port. */
export interface HostPattern {
  hostname: string;
  port?: string;
}

/** A browser origin; no port matches any port. */
export interface OriginPattern extends HostPattern {
  scheme: 'http' | 'https';
}

const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/;
const ORIGIN = /^(https?):\/\/(.+)$/;

/** `host[:port]` (a Host header or an allow-list entry), or undefined when it is not one. */
export function parseHostPattern(text: string): HostPattern | undefined {
  const match = HOST.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  return { hostname: match[1]!, ...(match[2] ? { port: String(Number(match[2])) } : {}) };
}

/** `scheme://host[:port]` (an Origin header or an allow-list entry), or undefined (`null` included). */
export function parseOriginPattern(text: string): OriginPattern | undefined {
  const match = ORIGIN.exec(text.trim().toLowerCase());
  const host = match ? parseHostPattern(match[2]!) : undefined;
  return host ? { scheme: match![1] as OriginPattern['scheme'], ...host } : undefined;
}

// Local development: `wrangler dev` on any port (wrangler.toml sets the same).
export const LOCAL_HOSTS: readonly HostPattern[] = [{ hostname: 'localhost' }, { hostname: '127.0.0.1' }, { hostname: '[::1]' }];
const LOCAL_ORIGINS = 'http://localhost,http://127.0.0.1,http://[::1]';

function patternList<T>(list: string, parse: (entry: string) => T | undefined, expected: string, ctx: z.RefinementCtx): T[] {
  const entries = list.split(',').map((entry) => entry.trim()).filter(Boolean);
  return entries.flatMap((entry) => {
    const pattern = parse(entry);
    if (!pattern) ctx.addIssue({ code: 'custom', message: `"${entry}" is not ${expected}` });
    return pattern ? [pattern] : [];
  });
}

/** The loopback hosts a site may be served from in development and tests (SITE_ORIGIN_OVERRIDES). */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A host name as an override names it: lower case, no final dot, `www.` kept (it is its own host). */
function overrideHost(text: string): string | undefined {
  const host = text.trim().toLowerCase().replace(/\.$/, '');
  return /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(host) ? host : undefined;
}

/**
 * `globex.com=http://127.0.0.1:9300,www.globex.com=http://127.0.0.1:9301`: each host to the loopback
 * origin its pages are fetched from, while every URL Recon stores and shows stays the host's. Hosts
 * are mapped one by one, so a test site can redirect from the apex to `www.` as a real one does; a
 * `www.` host without an entry of its own is served by its apex's entry. A job board's API host
 * (boards-api.greenhouse.io) is a host like any other. At most 100 pairs; origins on loopback only,
 * with no path.
 */
function siteOriginOverrides(list: string, ctx: z.RefinementCtx): ReadonlyMap<string, string> {
  const overrides = new Map<string, string>();
  const pairs = list.split(',').map((pair) => pair.trim()).filter(Boolean);
  if (pairs.length > 100) ctx.addIssue({ code: 'custom', message: `lists ${pairs.length} hosts; at most 100` });
  for (const pair of pairs.slice(0, 100)) {
    const [rawHost = '', rawOrigin = ''] = pair.split('=', 2).map((part) => part.trim());
    const host = overrideHost(rawHost);
    const origin = URL.canParse(rawOrigin) ? new URL(rawOrigin) : undefined;
    if (!host || !origin || !['http:', 'https:'].includes(origin.protocol) || !LOOPBACK_HOSTNAMES.has(origin.hostname) || origin.pathname !== '/' || origin.search || origin.username) {
      ctx.addIssue({ code: 'custom', message: `"${pair.slice(0, 200)}" is not host=origin with a loopback origin, e.g. globex.com=http://127.0.0.1:9300` });
      continue;
    }
    overrides.set(host, origin.origin);
  }
  return overrides;
}

/**
 * SITE_READ_CONTACT_URL: an absolute http(s) URL of at most 2,048 characters, without credentials, as
 * the URL parser writes it; empty is unset.
 */
function contactUrl(value: string | undefined, ctx: z.RefinementCtx): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.href.length > 2_048) {
    ctx.addIssue({ code: 'custom', message: `"${text.slice(0, 200)}" is not an absolute http(s) URL without user:pass@, e.g. https://recon.example.com/bot` });
    return z.NEVER;
  }
  return url.href;
}

/** Settings read from `[vars]` in wrangler.toml (see docs/deploy.md#configuration). */
const ConfigSchema = z.object({
  AUDIT_WAIT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(900_000).default(240_000),
  // Capped at 10 s: revocation must take effect within 10 seconds everywhere.
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(10_000).default(10_000),
  CORS_ORIGINS: z.string().default('*'),
  // The share of successful, fast requests the access log writes (failed and slow ones: always;
  // a successful /healthz: never). 1 logs every request.
  ACCESS_LOG_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.01),
  RESEARCH_PROVIDER: z.enum(['embedded', 'parallel']).default('embedded'),
  PARALLEL_API_KEY: z.string().optional(),
  // Signs page tokens (src/ground/page-token.ts); a secret, at least 32 characters. Unset: one per isolate.
  PAGE_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional(),
  // Signs the request state of questions asked in MCP clients (2026-07-28 input-required results,
  // src/mcp/questions.ts); a secret, at least 32 characters, the same in every isolate (a question is
  // answered on another request). Unset: no question is asked, clients get the refusals they got before.
  MCP_REQUEST_STATE_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional(),
  // DNS-rebinding protection of /api/mcp: the Host names it answers on, and the browser Origins
  // that may call it (none but these; a request without Origin is not from a browser page). Which
  // hosts apply is src/mcp/dns-rebinding.ts's `mcpHosts`: unset, LOCAL_HOSTS; on a deployed Worker
  // (DEPLOYED_HOSTS set) the list only narrows the hosts it is served on.
  MCP_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((list, ctx) => list === undefined ? undefined : patternList(list, parseHostPattern, 'a host name with an optional port, e.g. recon.example.com or localhost:8787', ctx))
    .refine((list) => list === undefined || list.length > 0, 'list at least one host name (the MCP server answers no other Host)'),
  // The hosts this Worker is served on, written by `npm run deploy` (scripts/lib/deploy-config.ts)
  // into the configuration it deploys, never in wrangler.toml: set, even empty, the Worker is a
  // deployment; unset, local development. A request never decides which it is.
  DEPLOYED_HOSTS: z
    .string()
    .optional()
    .transform((list, ctx) => list === undefined ? undefined : patternList(list, parseServedHostPattern, 'a host name, or one with * for a whole label, e.g. recon.*.workers.dev', ctx)),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default(LOCAL_ORIGINS)
    .transform((list, ctx) => patternList(list, parseOriginPattern, 'an origin like https://app.example.com (scheme, host, optional port)', ctx)),
  // Watch webhooks may also go to http://localhost, 127.0.0.1 and [::1]: set by `npm run dev` and the
  // Workers test pool, never in wrangler.toml, so a deployment allows only public https URLs.
  WEBHOOK_ALLOW_LOCAL_HTTP: z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .default('false')
    .transform((value) => value === 'true'),
  // Sources added by URL (POST /api/v1/oms/sources) may also be fetched from http(s)://localhost,
  // 127.0.0.1 and [::1]: set by `npm run dev` and the Workers test pool, never in wrangler.toml, so a
  // deployment fetches only public addresses. A sibling of WEBHOOK_ALLOW_LOCAL_HTTP: each names what it opens.
  SOURCES_ALLOW_LOCAL_HTTP: z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .default('false')
    .transform((value) => value === 'true'),
  // Development and tests only, never in wrangler.toml: the loopback origin a domain's site is read
  // from (site reads, issue 23), e.g. `npm run dev -- --var SITE_ORIGIN_OVERRIDES:globex.com=http://127.0.0.1:9300`.
  SITE_ORIGIN_OVERRIDES: z.string().default('').transform(siteOriginOverrides),
  // Site reads: the least time between two requests to one site, in ms (a site's Crawl-delay, when
  // longer, wins: the politeness rule, src/sites/politeness.ts). 1 s by default; tests and the
  // benchmark lower it on loopback.
  SITE_READ_MIN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  // Runs: a pause between one step of an audit and the next, in ms (0, the default: none). Development
  // and tests only, never in wrangler.toml: the browser suite sets it so a run's progress bar can be
  // watched moving on the dashboard, as a slow step would make it move.
  RUN_STEP_PAUSE_MS: z.coerce.number().int().min(0).max(10_000).default(0),
  // Site reads: the deadline of one page (robots.txt, a sitemap), redirects and body included, in ms.
  // 10 s by default and at most (the page fetcher's own bound); tests lower it to reach a slow page's
  // deadline in seconds, as they lower SITE_READ_MIN_DELAY_MS.
  SITE_READ_PAGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(10_000),
  // MCP: an SSE answer that stays open sends a keep-alive comment this often, in ms. 25 s by default
  // and at most (edges cut streams idle for longer); tests lower it to see one in milliseconds.
  MCP_SSE_KEEPALIVE_MS: z.coerce.number().int().min(10).max(25_000).default(25_000),
  // MCP tasks extension: how often a task subscription (subscriptions/listen with taskIds) reads
  // its runs for a status change, in ms.
  MCP_TASK_NOTIFY_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(2_000),
  // Site reads: the page a site's owner reads about our crawler, named in its user agent
  // (src/sites/user-agent.ts). Unset: this deployment's own /bot page.
  SITE_READ_CONTACT_URL: z.string().optional().transform(contactUrl),
  // Pages one organization's site reads may fetch per UTC day (a 304 is free); past it, 429.
  SITE_READ_PAGES_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  // Pages one organization's site reads may render in a browser per UTC day (Browser Rendering is
  // billed by the browser-second, and a page takes seconds where a fetch takes milliseconds); past
  // it, a page that needs a browser is reported as such, not rendered. 0: none is rendered.
  SITE_READ_RENDERS_PER_DAY: z.coerce.number().int().min(0).max(100_000).default(200),
  // Site reads: the deadline of one rendered page (src/sites/render.ts), from the moment the
  // browser has it open (starting the browser has its own bound), in ms. 15 s by default, at most 30 s: a page whose scripts never settle ends there
  // with what it shows.
  SITE_READ_RENDER_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(30_000).default(15_000),
  // Site reads: a page the site answered less than this long ago (ms) is served to every
  // organization's read from the site's shared copy (src/sites/site-host-gate.ts) rather
  // than fetched again. 15 minutes by default, at most a day; 0 asks the site every time (with the
  // copy's validators), though reads asking for one page at once still share one request.
  SITE_READ_SHARED_FRESH_MS: z.coerce.number().int().min(0).max(86_400_000).default(900_000),
});

export type Config = z.output<typeof ConfigSchema>;

const parsed = new WeakMap<object, Config>();

/** The validated configuration; throws a precise message naming the bad variable. */
export function readConfig(env: Env): Config {
  let config = parsed.get(env);
  if (!config) {
    const result = ConfigSchema.safeParse(env);
    if (!result.success) {
      const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      throw new Error(`Invalid Recon configuration in wrangler.toml [vars]: ${problems.join('; ')}`);
    }
    config = result.data;
    if (config.RESEARCH_PROVIDER === 'parallel' && !config.PARALLEL_API_KEY) {
      throw new Error('Invalid Recon configuration: RESEARCH_PROVIDER is "parallel" but the PARALLEL_API_KEY secret is not set.');
    }
    parsed.set(env, config);
  }
  return config;
}
