import type { Principal } from './context.ts';
import { rateLimited } from './errors.ts';

/** `commands`: running commands (60 a minute by default); `reads`: every other call (600 a minute). */
export type RateBucket = 'commands' | 'reads';

// The rate limiting binding neither reports when its window resets nor exposes its period (10 or
// 60 seconds, set in wrangler.toml), so Retry-After names the longest period: always enough.
const RETRY_AFTER_SECONDS = 60;

/** Counts one call against the caller's key; throws 429 `rate_limited` once the limit is spent. */
export async function enforceRateLimit(env: Env, principal: Principal, bucket: RateBucket): Promise<void> {
  const limiter = bucket === 'commands' ? env.COMMAND_RATE_LIMITER : env.READ_RATE_LIMITER;
  const { success } = await limiter.limit({ key: principal.keyId });
  if (!success) {
    throw rateLimited(
      RETRY_AFTER_SECONDS,
      `This API key has used up its ${bucket === 'commands' ? 'command calls' : 'requests'} for this minute.`,
    );
  }
}
