/**
 * Recon with an always-allow rate limiter: the same app, its three rate-limit bindings replaced by
 * one whose `limit()` always succeeds. Miniflare simulates the binding with a Durable Object that
 * writes SQLite on every call (about 400 us of CPU, serialized per key); Cloudflare's binding does
 * not work that way, so `npm run bench` measures every scenario with both and says which is which.
 * The replaced environment is made once per environment object (WeakMap), so the per-isolate caches
 * keyed by it (readConfig) behave as they do in Recon itself.
 */
import app, { RunObject, SiteHostGate, WatchObject } from '../../src/index.ts';

// Every Durable Object class wrangler.toml binds, as src/index.ts exports them (wrangler refuses to build without one).
export { RunObject, SiteHostGate, WatchObject };

const alwaysAllow = { limit: async () => ({ success: true }) } as unknown as RateLimit;
const allowing = new WeakMap<Env, Env>();

function withAlwaysAllow(env: Env): Env {
  let replaced = allowing.get(env);
  if (!replaced) {
    replaced = { ...env, COMMAND_RATE_LIMITER: alwaysAllow, READ_RATE_LIMITER: alwaysAllow, AUTH_FAILURE_RATE_LIMITER: alwaysAllow };
    allowing.set(env, replaced);
  }
  return replaced;
}

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    return app.fetch(request, withAlwaysAllow(env), ctx);
  },
} satisfies ExportedHandler<Env>;
