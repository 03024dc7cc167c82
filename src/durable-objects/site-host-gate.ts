import { DurableObject } from 'cloudflare:workers';

/**
 * The politeness of every site read towards one site, whichever organization reads it: one
 * `SiteHostGate` per site (addressed by its domain), which hands out request starts at most
 * `maxInFlight` at a time, each at least `gapMs` after the previous start (and after the previous
 * answer, when that came later). A read asks it before each request (`acquire`), waits the time it is given, and gives the slot back when the answer is in
 * (`release`). Two organizations reading the same site at once share its 2 requests in flight and
 * its delay, rather than doubling them.
 *
 * A slot not given back (its read died) frees itself after LEASE_MS. The latest start is kept in the
 * object's storage, so a restarted gate never starts a request sooner than a gap after it (the latest
 * answer, kept in memory, may be forgotten then: one write per request rather than two); leases live in memory (a
 * restart forgets them, which at worst lets one slot go early, never a request sooner than the gap).
 */

/** A slot not released within this time is free again: the page deadline (10 s) plus margin. */
export const LEASE_MS = 15_000;
/** The latest request start: the next start is a gap after it (and after the latest answer). */
const LAST_KEY = 'lastRequestAt';

export type GateAnswer = { lease: string; waitMs: number } | { lease: null; retryInMs: number };

export class SiteHostGate extends DurableObject {
  /** Lease id -> when it expires (ms). */
  readonly #leases = new Map<string, number>();
  /** The latest answer (ms), in memory only: the starts are what storage keeps. */
  #lastAnswer = 0;

  /**
   * A request start: a lease and how long to wait before starting (`gapMs` after the latest start or
   * answer), or, with `maxInFlight` leases out, when to ask again. `now` is the clock (tests pass a later time).
   */
  async acquire(gapMs: number, maxInFlight: number, now = Date.now()): Promise<GateAnswer> {
    for (const [lease, expires] of this.#leases) if (expires <= now) this.#leases.delete(lease);
    if (this.#leases.size >= maxInFlight) {
      const soonest = Math.min(...this.#leases.values());
      return { lease: null, retryInMs: Math.max(10, Math.min(soonest - now, 250)) };
    }
    // The gap is the asker's (a read knows its site's Crawl-delay only once robots.txt is in), after
    // the latest start and the latest answer.
    const last = Math.max(this.ctx.storage.kv.get<number>(LAST_KEY) ?? 0, this.#lastAnswer);
    const start = Math.max(now, last + Math.max(0, gapMs));
    this.ctx.storage.kv.put(LAST_KEY, start);
    const lease = crypto.randomUUID();
    this.#leases.set(lease, start + LEASE_MS);
    return { lease, waitMs: start - now };
  }

  /** Gives a slot back (a lease already expired or unknown changes nothing); the next gap counts from this answer if it is the latest. */
  async release(lease: string, now = Date.now()): Promise<void> {
    this.#leases.delete(lease);
    this.#lastAnswer = Math.max(this.#lastAnswer, now);
  }
}
