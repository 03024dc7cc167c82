import { BoundedMap } from '../ground/bounded-map.ts';
import { rateLimited } from '../ground/errors.ts';

/**
 * Failed authentications per client address. Every unknown or revoked key is counted against its
 * address with the `AUTH_FAILURE_RATE_LIMITER` binding (30 a minute in wrangler.toml); once the
 * binding refuses, this isolate refuses that address's uncached keys for a period, with 429 and
 * before any D1 lookup. So a flood of made-up keys costs at most one lookup per allowed failure,
 * whatever its rate, and keys already in the isolate's cache keep working from that address.
 */

/** As long as the binding's period (wrangler.toml): the longest the binding can keep refusing. */
export const BLOCK_MS = 60_000;
/** Bounds the isolate's memory of blocked addresses; the oldest entry goes first. */
const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * The address a throttle counts: the client's IP (`CF-Connecting-IP`, set by Cloudflare) or, for
 * IPv6, its /64 network, which one client usually holds whole. `unknown` when absent (local tools).
 */
export function clientAddressKey(ip: string | undefined): string {
  const address = ip?.trim().toLowerCase();
  if (!address) return 'unknown';
  if (!address.includes(':')) return address.slice(0, 45);
  const [head = '', tail = ''] = address.split('::', 2);
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export class FailedAuthThrottle {
  private readonly blockedUntil = new BoundedMap<string, number>({ max: MAX_BLOCKED_ADDRESSES });

  constructor(private readonly now: () => number = Date.now) {}

  /** How long `address` stays blocked, in ms; 0 when it is not. */
  private blockedFor(address: string): number {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return left;
    this.blockedUntil.delete(address);
    return 0;
  }

  /** Throws 429 `rate_limited` while `address` is blocked; call it before looking a key up. */
  assertAllowed(address: string): void {
    const left = this.blockedFor(address);
    if (left === 0) return;
    const seconds = Math.ceil(left / 1000);
    throw rateLimited(seconds, 'Too many requests with unknown or revoked API keys came from your address; send a valid key (Authorization: Bearer rk_...).');
  }

  /** Counts one failed authentication; blocks the address once the binding's budget is spent. */
  async recordFailure(limiter: RateLimit, address: string): Promise<void> {
    if (this.blockedFor(address) > 0) return;
    const { success } = await limiter.limit({ key: address });
    if (success) return;
    this.blockedUntil.set(address, this.now() + BLOCK_MS);
  }
}
