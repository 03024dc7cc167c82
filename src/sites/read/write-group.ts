/**
 * Writes of the pages a slice has in flight, made together when they are ready together (a group
 * commit): a page ready to write waits for the other pages in flight, at most `maxWaitMs`, and the
 * writes go as one as soon as every page in flight waits, or the pages still in flight are done
 * without a write, or the wait is over. With no other page in flight a write goes at once.
 *
 * So pages that come back to back (a shared copy, a site read without delay) write in pairs, and a
 * read paced by its site's delay, whose pages come a second apart, writes each page alone, a few
 * milliseconds later than it would without this (the wait costs no CPU, and the next request waits
 * for the site's delay anyway).
 *
 * Nothing here knows what a write is: `flush` makes the writes of a group and gives each its own
 * result (or its own failure).
 */
export class WriteGroup<T, R> {
  readonly #flush: (items: T[]) => Promise<R>[];
  readonly #maxWaitMs: number;
  readonly #timers: Timers;
  /** Pages in flight (see `inFlight`), less those set aside. */
  #inFlight = 0;
  #waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  #timer: unknown;

  /**
   * `flush`: makes the writes of `items` (one or more, in the order they came) and returns one result
   * per item, in the same order. `timers`: a test's own (setTimeout and clearTimeout by default).
   */
  constructor(flush: (items: T[]) => Promise<R>[], options: { maxWaitMs: number; timers?: Timers }) {
    this.#flush = flush;
    this.#maxWaitMs = options.maxWaitMs;
    this.#timers = options.timers ?? { set: (run, ms) => setTimeout(run, ms), clear: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>) };
  }

  /** Runs `work` (one page, from its request to its record) as a page in flight: another page's write may wait for its own. */
  async inFlight<X>(work: () => Promise<X>): Promise<X> {
    this.#inFlight += 1;
    try {
      return await work();
    } finally {
      this.#inFlight -= 1;
      this.#release();
    }
  }

  /** Runs `work` (something long of a page in flight: rendering it in a browser) as if the page were not in flight: no write waits for it meanwhile. */
  async aside<X>(work: () => Promise<X>): Promise<X> {
    this.#inFlight -= 1;
    this.#release();
    try {
      return await work();
    } finally {
      this.#inFlight += 1;
    }
  }

  /** Writes `item`, with the writes of the other pages in flight when they come soon enough (see above). */
  write(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (!this.#release() && this.#timer === undefined) {
        this.#timer = this.#timers.set(() => {
          this.#timer = undefined;
          this.#send();
        }, this.#maxWaitMs);
      }
    });
  }

  /** How many writes wait (tests). */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Sends the waiting writes once no page in flight may still add one; whether it did. */
  #release(): boolean {
    if (this.#waiting.length === 0 || this.#waiting.length < this.#inFlight) return false;
    this.#send();
    return true;
  }

  #send(): void {
    if (this.#timer !== undefined) {
      this.#timers.clear(this.#timer);
      this.#timer = undefined;
    }
    const group = this.#waiting;
    this.#waiting = [];
    if (group.length === 0) return;
    let results: Promise<R>[];
    try {
      results = this.#flush(group.map((entry) => entry.item));
    } catch (error) {
      for (const entry of group) entry.reject(error);
      return;
    }
    group.forEach((entry, i) => {
      const result = results[i];
      if (result) result.then(entry.resolve, entry.reject);
      else entry.reject(new Error(`a group write returned ${results.length} results for ${group.length} writes`));
    });
  }
}

/** Timers as WriteGroup takes them: the platform's by default, a test's own. */
export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(timer: unknown): void;
}
