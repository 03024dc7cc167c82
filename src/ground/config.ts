import { z } from 'zod';

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
const LOCAL_HOSTS = 'localhost,127.0.0.1,[::1]';
const LOCAL_ORIGINS = 'http://localhost,http://127.0.0.1,http://[::1]';

function patternList<T>(list: string, parse: (entry: string) => T | undefined, expected: string, ctx: z.RefinementCtx): T[] {
  const entries = list.split(',').map((entry) => entry.trim()).filter(Boolean);
  return entries.flatMap((entry) => {
    const pattern = parse(entry);
    if (!pattern) ctx.addIssue({ code: 'custom', message: `"${entry}" is not ${expected}` });
    return pattern ? [pattern] : [];
  });
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
  // DNS-rebinding protection of /api/mcp: the Host names it answers on, and the browser Origins
  // that may call it (none but these; a request without Origin is not from a browser page).
  MCP_ALLOWED_HOSTS: z
    .string()
    .default(LOCAL_HOSTS)
    .transform((list, ctx) => patternList(list, parseHostPattern, 'a host name with an optional port, e.g. recon.example.com or localhost:8787', ctx))
    .refine((list) => list.length > 0, 'list at least one host name (the MCP server answers no other Host)'),
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
