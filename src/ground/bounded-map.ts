/** How a BoundedMap is bounded, and its clock. */
export interface BoundedMapOptions<V> {
  /** At most this many entries, or this total weight with `weigh`. */
  max: number;
  /** An entry's weight (default 1). An entry heavier than `max` on its own is not kept. */
  weigh?: (value: V) => number;
  /** Entries expire this long after they were set; without it they live until evicted. */
  ttlMs?: number;
  /** The clock `ttlMs` is measured with; default `Date.now` (read at each call, so fake timers apply). */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  setAt: number;
  weight: number;
}

/**
 * The isolate's caches: a Map that holds at most `max` entries (or, with `weigh`, at most `max` in
 * total weight), evicting the oldest (the least recently set; reads do not refresh an entry) to make
 * room. With `ttlMs`, an entry also expires `ttlMs` after it was set, by the `now` clock (injectable
 * for tests, `Date.now` by default): reading an expired entry drops it and answers undefined.
 * Values cannot be undefined (the type says so): `get` answers undefined for a missing key.
 *
 * ```ts
 * const seen = new BoundedMap<string, number>({ max: 10_000, ttlMs: 60_000 });
 * seen.set(hash, 1);
 * seen.get(hash); // 1 for a minute, unless 10,000 newer entries pushed it out
 * ```
 */
export class BoundedMap<K, V extends {} | null> {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly max: number;
  private readonly weigh: ((value: V) => number) | undefined;
  private readonly ttlMs: number | undefined;
  private readonly now: () => number;
  private weight = 0;
  /**
   * Walks the entries oldest first, kept between evictions: a Map iterator skips deleted entries,
   * and a fresh one (`keys().next()` each time) would step over every hole the evictions before it
   * left, which made a full map's `set` cost grow with its size.
   */
  private oldest: Iterator<K> | undefined;

  constructor(options: BoundedMapOptions<V>) {
    if (!(options.max > 0)) throw new RangeError(`BoundedMap: max must be positive, got ${options.max}`);
    if (options.ttlMs !== undefined && !(options.ttlMs > 0)) throw new RangeError(`BoundedMap: ttlMs must be positive, got ${options.ttlMs}`);
    this.max = options.max;
    this.weigh = options.weigh;
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? (() => Date.now());
  }

  /** How many entries are held (expired ones not yet read included). */
  get size(): number {
    return this.entries.size;
  }

  /** The value set for `key`, or undefined when there is none or it expired by `at` (default: now). */
  get(key: K, at?: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.ttlMs !== undefined && (at ?? this.now()) - entry.setAt >= this.ttlMs) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** True when `key` has a value that has not expired by `at` (default: now). */
  has(key: K, at?: number): boolean {
    return this.get(key, at) !== undefined;
  }

  /**
   * Sets `key` as the newest entry, its expiry counted from `at` (default: now), after evicting the
   * oldest entries it needs room from. A value heavier than `max` is not kept (and `key` is dropped).
   */
  set(key: K, value: V, at?: number): this {
    this.delete(key);
    const weight = this.weigh ? this.weigh(value) : 1;
    if (weight > this.max) return this;
    while (this.entries.size > 0 && this.weight + weight > this.max) this.delete(this.oldestKey());
    this.entries.set(key, { value, setAt: at ?? (this.ttlMs === undefined ? 0 : this.now()), weight });
    this.weight += weight;
    return this;
  }

  /** The key of the oldest entry; the map is not empty. */
  private oldestKey(): K {
    let next = this.oldest?.next();
    if (!next || next.done) {
      // A finished iterator stays finished, even after new entries: start a fresh walk.
      this.oldest = this.entries.keys();
      next = this.oldest.next();
    }
    return next.value as K;
  }

  /** Drops `key`; true when it was held. */
  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.weight -= entry.weight;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
    this.oldest = undefined;
  }
}
