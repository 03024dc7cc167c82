import { z } from 'zod';

/** Settings read from `[vars]` in wrangler.toml (see the README's configuration table). */
const ConfigSchema = z.object({
  AUDIT_WAIT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(900_000).default(240_000),
  // Capped at 10 s: revocation must take effect within 10 seconds everywhere.
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(10_000).default(10_000),
  CORS_ORIGINS: z.string().default('*'),
  RESEARCH_PROVIDER: z.enum(['embedded', 'parallel']).default('embedded'),
  PARALLEL_API_KEY: z.string().optional(),
  // Signs page tokens (src/core/page-token.ts); a secret, at least 32 characters. Unset: one per isolate.
  PAGE_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional(),
  // Browser origins allowed to call /api/mcp besides the server's own (DNS-rebinding protection).
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((origin) => origin.trim()).filter(Boolean)),
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
